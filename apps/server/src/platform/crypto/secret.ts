import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The server's 32-byte secret for keyed hashes (verification codes, card-secret dedupe) and encryption.
 * From SECRET_KEY (hex or base64) when set; otherwise a key file made once in the data folder, so an
 * embedded installation needs no configuration and keeps its key across restarts.
 */
export async function loadSecret(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return parseKey(configured);
  const file = path.join(dataDir, "secret.key");
  try {
    return parseKey((await readFile(file, "utf8")).trim());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const key = randomBytes(32);
  await mkdir(dataDir, { recursive: true });
  // wx: never overwrite a key another process has just written.
  await writeFile(file, key.toString("hex"), { mode: 0o600, flag: "wx" }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "EEXIST") throw err;
  });
  return parseKey((await readFile(file, "utf8")).trim());
}

function parseKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) throw new Error("SECRET_KEY must be 32 bytes, as 64 hex digits or base64");
  return key;
}
