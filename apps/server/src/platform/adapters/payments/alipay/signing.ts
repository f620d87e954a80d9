import { createSign, createVerify } from "node:crypto";

/**
 * Alipay's open platform signing (RSA2: SHA256withRSA, base64), as its docs describe it: the parameters
 * sorted by name, empty ones left out, joined as key=value with &. A request's content excludes `sign`;
 * an async notification's excludes `sign` and `sign_type`. alipay-sdk does the adapter's side; the local
 * platform does Alipay's with these.
 */
export function signContent(params: Record<string, string | undefined>, exclude: readonly string[]): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

export const REQUEST_EXCLUDES = ["sign"] as const;
export const NOTIFY_EXCLUDES = ["sign", "sign_type"] as const;

export function rsa2Sign(content: string, privateKeyPem: string): string {
  return createSign("RSA-SHA256").update(content, "utf8").sign(privateKeyPem, "base64");
}

export function rsa2Verify(content: string, signature: string, publicKeyPem: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(content, "utf8").verify(publicKeyPem, signature, "base64");
  } catch {
    return false;
  }
}

/** Fen → Alipay's yuan string with two decimals ("12.30"). */
export function yuanOf(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
}

/** Alipay's yuan string → fen, or null when it is not an amount with at most two decimals. */
export function fenOf(yuan: unknown): number | null {
  if (typeof yuan !== "string") return null;
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}
