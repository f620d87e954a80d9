import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for API secrets, which must be shown again later (after the password is re-entered) and
 * so cannot be stored as a hash. The key is derived from the server secret for this one purpose.
 */
function keyOf(serverSecret: Buffer): Buffer {
  return createHmac("sha256", serverSecret).update("tessera/api-credentials/v1").digest();
}

export function seal(serverSecret: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(serverSecret), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(
    ".",
  );
}

export function open(serverSecret: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("api secret: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(serverSecret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
