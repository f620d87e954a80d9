/**
 * Open-API request signing in the browser (WebCrypto), the same recipe as the examples: hex HMAC-SHA256
 * under the secret of METHOD, path with query, timestamp, nonce and the hex SHA-256 of the body bytes,
 * joined by newlines.
 */
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

export async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
}

export async function signRequest(r: {
  secret: string;
  method: string;
  pathWithQuery: string;
  timestamp: string;
  nonce: string;
  body: string;
}) {
  const bodyHash = await sha256Hex(r.body);
  const canonical = [r.method.toUpperCase(), r.pathWithQuery, r.timestamp, r.nonce, bodyHash].join("\n");
  return { bodyHash, canonical, signature: await hmacHex(r.secret, canonical) };
}

export function newNonce(): string {
  return `n${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
