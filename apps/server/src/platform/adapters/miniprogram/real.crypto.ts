import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { PlatformError } from "./adapter";

/** `msg_signature`: SHA-1 of token, timestamp, nonce and the encrypted text, sorted and joined. */
export function msgSignature(token: string, timestamp: string, nonce: string, encrypt: string): string {
  return createHash("sha1").update([token, timestamp, nonce, encrypt].sort().join("")).digest("hex");
}

function aesKey(encodingAesKey: string): Buffer {
  const key = Buffer.from(`${encodingAesKey}=`, "base64");
  if (key.length !== 32) throw new PlatformError(-40004, "illegal EncodingAESKey");
  return key;
}

/** Encrypts a push body as WeChat does: AES-256-CBC (IV = key[0..16]) of random16 ‖ len32BE ‖ msg ‖ appId, PKCS#7 to 32 bytes. */
export function encryptPush(
  encodingAesKey: string,
  appId: string,
  msg: string,
  random16: string = randomBytes(8).toString("hex"),
): string {
  const key = aesKey(encodingAesKey);
  const body = Buffer.from(msg, "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  const plain = Buffer.concat([Buffer.from(random16, "utf8"), len, body, Buffer.from(appId, "utf8")]);
  const pad = 32 - (plain.length % 32);
  const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString(
    "base64",
  );
}

/** Checks the signature and decrypts a push; throws -40001 on a bad signature, -40005 on another app's message. */
export function decryptPush(
  o: { token: string; encodingAesKey: string; appId: string },
  q: { msgSignature: string; timestamp: string; nonce: string },
  encrypt: string,
): string {
  if (msgSignature(o.token, q.timestamp, q.nonce, encrypt) !== q.msgSignature) {
    throw new PlatformError(-40001, "signature mismatch");
  }
  const key = aesKey(o.encodingAesKey);
  const decipher = createDecipheriv("aes-256-cbc", key, key.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(Buffer.from(encrypt, "base64")), decipher.final()]);
  const pad = plain[plain.length - 1] ?? 0;
  const content = plain.subarray(16, plain.length - (pad >= 1 && pad <= 32 ? pad : 0));
  const len = content.readUInt32BE(0);
  const msg = content.subarray(4, 4 + len).toString("utf8");
  if (content.subarray(4 + len).toString("utf8") !== o.appId) throw new PlatformError(-40005, "appid mismatch");
  return msg;
}
