import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The local WeChat Pay platform's keys (sandbox only), made once into DATA_DIR/wechatpay-local: the
 * merchant's API key pair (the adapter signs with apiclient_key.pem, the platform checks with
 * apiclient_pub.pem), the platform's pair (it signs answers and notifications with platform_key.pem, the
 * adapter verifies with pub_key.pem) and the APIv3 key notifications are encrypted with.
 */
export interface LocalKeyFiles {
  dir: string;
  merchantPrivate: string;
  merchantPublic: string;
  platformPrivate: string;
  platformPublic: string;
  apiv3Key: string;
}

export function localKeyFiles(dataDir: string): LocalKeyFiles {
  const dir = path.join(dataDir, "wechatpay-local");
  return {
    dir,
    merchantPrivate: path.join(dir, "apiclient_key.pem"),
    merchantPublic: path.join(dir, "apiclient_pub.pem"),
    platformPrivate: path.join(dir, "platform_key.pem"),
    platformPublic: path.join(dir, "pub_key.pem"),
    apiv3Key: path.join(dir, "apiv3.key"),
  };
}

function writeOnce(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

function pair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

/** Makes the keys on first start; later starts keep them (payments in flight stay verifiable). */
export function ensureLocalKeys(dataDir: string): LocalKeyFiles {
  const f = localKeyFiles(dataDir);
  mkdirSync(f.dir, { recursive: true, mode: 0o700 });
  if (!existsSync(f.merchantPrivate) || !existsSync(f.merchantPublic)) {
    const m = pair();
    writeOnce(f.merchantPublic, m.publicKey);
    writeOnce(f.merchantPrivate, m.privateKey);
  }
  if (!existsSync(f.platformPrivate) || !existsSync(f.platformPublic)) {
    const p = pair();
    writeOnce(f.platformPublic, p.publicKey);
    writeOnce(f.platformPrivate, p.privateKey);
  }
  if (!existsSync(f.apiv3Key)) {
    // 32 printable characters, as the merchant platform's APIv3 key is.
    const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
    writeOnce(f.apiv3Key, [...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join(""));
  }
  return f;
}

export function readApiv3Key(f: LocalKeyFiles): string {
  return readFileSync(f.apiv3Key, "utf8").trim();
}
