import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The local Alipay platform's keys (sandbox only), made once into DATA_DIR/alipay-local: the application's
 * pair (the adapter signs requests with app_private_key.pem, the platform checks them with
 * app_public_key.pem, as the public key a merchant uploads to the open platform) and "Alipay's" pair (the
 * platform signs answers and notifications with alipay_private_key.pem, the adapter verifies them with
 * alipay_public_key.pem, as the Alipay public key a merchant downloads).
 */
export interface AlipayLocalKeyFiles {
  dir: string;
  appPrivate: string;
  appPublic: string;
  alipayPrivate: string;
  alipayPublic: string;
}

export function alipayLocalKeyFiles(dataDir: string): AlipayLocalKeyFiles {
  const dir = path.join(dataDir, "alipay-local");
  return {
    dir,
    appPrivate: path.join(dir, "app_private_key.pem"),
    appPublic: path.join(dir, "app_public_key.pem"),
    alipayPrivate: path.join(dir, "alipay_private_key.pem"),
    alipayPublic: path.join(dir, "alipay_public_key.pem"),
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
export function ensureAlipayLocalKeys(dataDir: string): AlipayLocalKeyFiles {
  const f = alipayLocalKeyFiles(dataDir);
  mkdirSync(f.dir, { recursive: true, mode: 0o700 });
  if (!existsSync(f.appPrivate) || !existsSync(f.appPublic)) {
    const a = pair();
    writeOnce(f.appPublic, a.publicKey);
    writeOnce(f.appPrivate, a.privateKey);
  }
  if (!existsSync(f.alipayPrivate) || !existsSync(f.alipayPublic)) {
    const p = pair();
    writeOnce(f.alipayPublic, p.publicKey);
    writeOnce(f.alipayPrivate, p.privateKey);
  }
  return f;
}
