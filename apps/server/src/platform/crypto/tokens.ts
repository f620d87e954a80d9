import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

/** A new session token: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database stores for a token: its SHA-256. The token itself is never stored. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A six-digit verification code. */
export function newNumericCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, "0");
}

/** Keyed hash (HMAC-SHA256) so short codes cannot be brute-forced from a database copy. */
export function keyedHash(secret: Buffer, ...parts: string[]): string {
  return createHmac("sha256", secret).update(parts.join("\u0000")).digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random password with all four character classes, for the first operator account. */
export function generatePassword(length = 16): string {
  const sets = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnpqrstuvwxyz", "23456789", "!@#$%^&*-_=+"];
  const all = sets.join("");
  const chars = sets.map((s) => s[randomInt(s.length)] ?? "");
  while (chars.length < length) chars.push(all[randomInt(all.length)] ?? "");
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? "", chars[i] ?? ""];
  }
  return chars.join("");
}
