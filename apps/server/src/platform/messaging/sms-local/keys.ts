import { randomBytes, randomInt } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The local SMS gateway's "console" keys: what a vendor would issue, generated into DATA_DIR on first start. */
export interface LocalSmsKeys {
  aliyun: { accessKeyId: string; accessKeySecret: string };
  tencent: { secretId: string; secretKey: string; sdkAppId: string };
}

const alnum = (n: number) =>
  randomBytes(n * 2)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, n);

/** Reads DATA_DIR/sms-local/keys.json, or makes it (readable by this user only). */
export function localSmsKeys(dataDir: string): LocalSmsKeys {
  const file = path.join(dataDir, "sms-local", "keys.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as LocalSmsKeys;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const keys: LocalSmsKeys = {
    aliyun: { accessKeyId: `LTAI5t${alnum(18)}`, accessKeySecret: alnum(30) },
    tencent: { secretId: `AKID${alnum(32)}`, secretKey: alnum(32), sdkAppId: `1400${randomInt(100_000, 999_999)}` },
  };
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600, flag: "wx" });
  } catch (err) {
    // Another process of this DATA_DIR made them first: theirs hold.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return JSON.parse(readFileSync(file, "utf8")) as LocalSmsKeys;
    throw err;
  }
  return keys;
}
