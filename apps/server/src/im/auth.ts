import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * IM bearer tokens are signed, not stored: `YWMt` + base64url(JSON [subject, issuedMs, expiresMs]) + `.`
 * + base64url(HMAC-SHA256). The subject is a username, or "" for the app's client-credentials token.
 * A user's tokens issued before its token epoch are void (password change, deactivation); the app's
 * tokens are keyed with the client secret, so changing the secret voids them.
 */
const PREFIX = "YWMt";

export interface TokenClaims {
  subject: string;
  issuedMs: number;
  expiresMs: number;
}

export interface TokenSigner {
  sign(claims: TokenClaims): string;
  /** The claims of a well-formed, correctly signed token (expiry and revocation are the caller's). */
  verify(token: string): TokenClaims | null;
}

export function createTokenSigner(secret: Buffer, clientSecret: string): TokenSigner {
  const userKey = createHmac("sha256", secret).update("tessera-im-user-token").digest();
  const appKey = createHmac("sha256", secret).update(`tessera-im-app-token\u0000${clientSecret}`).digest();
  const mac = (subject: string, payload: string) =>
    createHmac("sha256", subject === "" ? appKey : userKey)
      .update(payload)
      .digest();
  return {
    sign({ subject, issuedMs, expiresMs }) {
      const payload = Buffer.from(JSON.stringify([subject, issuedMs, expiresMs])).toString("base64url");
      return `${PREFIX}${payload}.${mac(subject, payload).toString("base64url")}`;
    },
    verify(token) {
      if (!token.startsWith(PREFIX) || token.length > 600) return null;
      const dot = token.indexOf(".", PREFIX.length);
      if (dot < 0) return null;
      const payload = token.slice(PREFIX.length, dot);
      let claims: unknown;
      try {
        claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        return null;
      }
      if (!Array.isArray(claims) || claims.length !== 3) return null;
      const [subject, issuedMs, expiresMs] = claims as unknown[];
      if (typeof subject !== "string" || typeof issuedMs !== "number" || typeof expiresMs !== "number") return null;
      const given = Buffer.from(token.slice(dot + 1), "base64url");
      const expected = mac(subject, payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return { subject, issuedMs, expiresMs };
    },
  };
}

/** Client id and secret of the app for the client-credentials grant, derived from the server's secret key. */
export function deriveClientCredentials(secret: Buffer, appKey: string): { clientId: string; clientSecret: string } {
  const h = (label: string) => createHmac("sha256", secret).update(`${label}\u0000${appKey}`).digest("base64url");
  return {
    clientId: `YXA6${h("im-client-id").slice(0, 22)}`,
    clientSecret: `YXA6${h("im-client-secret").slice(0, 27)}`,
  };
}

/** A UUID derived from a label, stable across restarts (the app's "application" uuid). */
export function stableUuid(secret: Buffer, label: string): string {
  const b = createHmac("sha256", secret).update(label).digest().subarray(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
