import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { CODE, type MessageKey } from "@tessera/contracts";
import type { Db } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { deleteNoncesBefore, recordNonce } from "./repo";

/** How far a request's timestamp may be from the server's clock; nonces are kept a little longer. */
export const MAX_SKEW_SECONDS = 300;

/**
 * The string a client signs: method, path with query, timestamp (Unix seconds), nonce and the hex
 * SHA-256 of the exact body bytes (empty for GET), joined by newlines. Signature = hex
 * HMAC-SHA256(secret, that string).
 */
export function canonicalString(
  method: string,
  pathWithQuery: string,
  timestamp: string,
  nonce: string,
  body: Buffer | string,
): string {
  const bodyHash = createHash("sha256").update(body).digest("hex");
  return [method.toUpperCase(), pathWithQuery, timestamp, nonce, bodyHash].join("\n");
}

export function sign(secret: string, canonical: string): string {
  return createHmac("sha256", secret).update(canonical).digest("hex");
}

export interface SignedHeaders {
  appKey: string | undefined;
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
}

export interface SigningClient {
  merchantId: number;
  secret: string;
  opened: boolean;
  ipAllowlist: readonly string[];
}

const refuse = (code: number, key: MessageKey) => new AppError(code, key);

/**
 * Checks a signed open-API request, each failure with its own error and nothing done: unsigned,
 * unknown key, no API permission, IP not allowed, stale timestamp, bad signature, replayed nonce (the
 * nonce is recorded only for a request whose signature is right, so a forger cannot burn nonces).
 */
export async function verifySigned(
  deps: { db: Db; clock: Clock; clientOf: (appKey: string) => Promise<SigningClient | undefined> },
  req: { method: string; url: string; ip: string; rawBody: Buffer; headers: SignedHeaders },
): Promise<SigningClient> {
  const { appKey, timestamp, nonce, signature } = req.headers;
  if (
    !appKey ||
    !timestamp ||
    !nonce ||
    !signature ||
    !/^[A-Za-z0-9_-]{8,64}$/.test(nonce) ||
    !/^\d{10}$/.test(timestamp)
  ) {
    throw refuse(CODE.UNAUTHORIZED, "openapi.unsigned");
  }
  const client = await deps.clientOf(appKey);
  if (!client) throw refuse(CODE.UNAUTHORIZED, "openapi.unknownKey");
  if (!client.opened) throw refuse(CODE.FORBIDDEN, "openapi.noPermission");
  if (client.ipAllowlist.length > 0 && !client.ipAllowlist.includes(req.ip)) {
    throw refuse(CODE.FORBIDDEN, "openapi.ipNotAllowed");
  }
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > MAX_SKEW_SECONDS) throw refuse(CODE.UNAUTHORIZED, "openapi.staleTimestamp");
  const expected = Buffer.from(
    sign(client.secret, canonicalString(req.method, req.url, timestamp, nonce, req.rawBody)),
  );
  const given = Buffer.from(signature.toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw refuse(CODE.UNAUTHORIZED, "openapi.badSignature");
  }
  if (!(await recordNonce(deps.db, appKey, nonce))) throw refuse(CODE.UNAUTHORIZED, "openapi.replayedNonce");
  return client;
}

/** Forgets nonces older than twice the accepted skew: a replay that old fails on its timestamp. */
export async function pruneNonces(db: Db, now: Date): Promise<void> {
  await deleteNoncesBefore(db, new Date(now.getTime() - 2 * MAX_SKEW_SECONDS * 1000));
}
