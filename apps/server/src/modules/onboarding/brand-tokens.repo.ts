import type { Executor } from "../../db/tx";

/**
 * SQL of the brand tokens providers open brands' consoles with. Every query of a merchant's rows takes its
 * merchant id (the tenant).
 */

export async function insertBrandToken(
  tx: Executor,
  t: {
    bindingId: number;
    merchantId: number;
    userId: number;
    sessionId: number;
    tokenHash: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await tx
    .insertInto("brand_tokens")
    .values({
      binding_id: t.bindingId,
      merchant_id: t.merchantId,
      user_id: t.userId,
      session_id: t.sessionId,
      token_hash: t.tokenHash,
      created_at: t.now,
      expires_at: t.expiresAt,
    })
    .execute();
}

/**
 * A live brand token with what the guard needs: it is unexpired and unrevoked, its binding is active,
 * and the provider's own session and user are live. Reads sessions and users (accounts' tables) by
 * join, like the session lookup itself, because it runs on every request made with such a token.
 */
export function findLiveBrandToken(db: Executor, tokenHash: string, now: Date) {
  return db
    .selectFrom("brand_tokens as t")
    .innerJoin("service_bindings as b", "b.id", "t.binding_id")
    .innerJoin("sessions as s", "s.id", "t.session_id")
    .innerJoin("users as u", "u.id", "t.user_id")
    .innerJoin("merchants as m", "m.id", "t.merchant_id")
    .select(["t.id", "t.merchant_id", "t.user_id", "t.session_id", "u.email", "s.version", "m.roles"])
    .where("t.token_hash", "=", tokenHash)
    .where("t.revoked_at", "is", null)
    .where("t.expires_at", ">", now)
    .where("b.state", "=", "active")
    .where("s.revoked_at", "is", null)
    .where("s.expires_at", ">", now)
    .where("u.disabled_at", "is", null)
    .executeTakeFirst();
}

export function sessionExpiry(db: Executor, sessionId: number) {
  return db
    .selectFrom("sessions")
    .select("expires_at")
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
}

/** Revokes the live tokens of the brand's bindings (all of them, or one binding's). Returns how many. */
export async function revokeBrandTokens(
  tx: Executor,
  merchantId: number,
  now: Date,
  bindingId?: number,
): Promise<number> {
  let q = tx
    .updateTable("brand_tokens")
    .set({ revoked_at: now })
    .where("merchant_id", "=", merchantId)
    .where("revoked_at", "is", null);
  if (bindingId !== undefined) q = q.where("binding_id", "=", bindingId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The active binding of a provider to one merchant. */
export function bindingForProvider(db: Executor, bindingId: number, providerId: number) {
  return db
    .selectFrom("service_bindings")
    .selectAll()
    .where("id", "=", bindingId)
    .where("provider_id", "=", providerId)
    .where("state", "=", "active")
    .executeTakeFirst();
}
