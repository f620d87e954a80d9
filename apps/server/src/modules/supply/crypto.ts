import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Card secrets at rest: number and secret sealed together with AES-256-GCM under a key derived (HKDF)
 * from the app secret, so the card key is never the same bytes as the HMAC key. A keyed hash of the
 * number deduplicates per goods and finds a card by number without decrypting anything.
 */
export interface CardKeys {
  seal(number: string, secret: string): string;
  unseal(sealed: string): { number: string; secret: string };
  numberHash(number: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** IVs drawn from the CSPRNG in bulk: one call per 4096 codes instead of one per code. */
function ivSource(): () => Buffer {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + IV_BYTES > pool.length) {
      pool = randomBytes(IV_BYTES * 4096);
      at = 0;
    }
    at += IV_BYTES;
    return pool.subarray(at - IV_BYTES, at);
  };
}

export function cardKeys(appSecret: Buffer): CardKeys {
  const nextIv = ivSource();
  const key = Buffer.from(hkdfSync("sha256", appSecret, Buffer.alloc(0), "tessera/card-secrets/aes-256-gcm/v1", 32));
  const hashKey = Buffer.from(
    hkdfSync("sha256", appSecret, Buffer.alloc(0), "tessera/card-secrets/number-hash/v1", 32),
  );
  return {
    seal(number, secret) {
      const iv = nextIv();
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      // Neither part may contain a newline (see CARD_NUMBER_RE / CARD_SECRET_RE), so it separates them.
      const body = Buffer.concat([cipher.update(`${number}\n${secret}`, "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
    },
    unseal(sealed) {
      const raw = Buffer.from(sealed, "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8",
      );
      const cut = text.indexOf("\n");
      return { number: text.slice(0, cut), secret: text.slice(cut + 1) };
    },
    numberHash(number) {
      // 144 of HMAC-SHA256's bits, base64url: collisions stay out of reach (2^-72 at a billion codes)
      // while the unique index a million-code import writes is a third the size of full hex.
      // Same bytes as keyedHash(hashKey, "card-number", number), without the hex round trip (a million-code
      // import hashes every number).
      return createHmac("sha256", hashKey)
        .update(`card-number\u0000${number}`)
        .digest()
        .subarray(0, 18)
        .toString("base64url");
    },
  };
}

/**
 * A card number as lists show it: at most a quarter of it (and never more than four characters) at
 * each end, enough to tell cards apart, never enough to use one.
 */
export function maskNumber(number: string): string {
  const k = Math.min(4, Math.floor(number.length / 4));
  if (k === 0) return "*".repeat(number.length);
  return `${number.slice(0, k)}${"*".repeat(number.length - 2 * k)}${number.slice(-k)}`;
}

/** Secrets are never partly shown: the mask says nothing about the secret, not even its length. */
export const MASKED_SECRET = "********";
