import type { Executor } from "../../db/tx";
import { paginate } from "../../db/paginate";

/**
 * SQL of API permission requests and the merchants' API credentials. Every query of a merchant's rows takes its
 * merchant id (the tenant).
 */

export function latestApiRequest(db: Executor, merchantId: number) {
  return db
    .selectFrom("api_permission_requests")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function insertApiRequest(
  tx: Executor,
  r: { merchantId: number; purpose: string; requestedBy: number; now: Date },
): Promise<number> {
  const row = await tx
    .insertInto("api_permission_requests")
    .values({
      merchant_id: r.merchantId,
      state: "pending",
      purpose: r.purpose,
      requested_by: r.requestedBy,
      requested_at: r.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function lockApiRequest(tx: Executor, id: number) {
  return tx.selectFrom("api_permission_requests").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function decideApiRequest(
  tx: Executor,
  id: number,
  d: { state: "approved" | "rejected"; reviewedBy: number; reason: string | null; now: Date },
): Promise<boolean> {
  const r = await tx
    .updateTable("api_permission_requests")
    .set({ state: d.state, reviewed_by: d.reviewedBy, reviewed_at: d.now, reject_reason: d.reason })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function searchApiRequests(
  db: Executor,
  f: { state?: "pending" | "approved" | "rejected"; merchantId?: number; limit: number; offset: number },
) {
  let q = db.selectFrom("api_permission_requests as r").innerJoin("merchants as m", "m.id", "r.merchant_id");
  if (f.state) q = q.where("r.state", "=", f.state);
  if (f.merchantId !== undefined) q = q.where("r.merchant_id", "=", f.merchantId);
  return paginate(
    q
      .selectAll("r")
      .select(["m.name as merchant_name", "m.real_name_state"])
      .orderBy("r.id", f.state === "pending" ? "asc" : "desc"),
    q,
    f,
  );
}

export function findCredentials(db: Executor, merchantId: number) {
  return db.selectFrom("api_credentials").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}

export async function upsertSecret(
  tx: Executor,
  merchantId: number,
  c: { appKey: string; secretCiphertext: string; now: Date },
): Promise<void> {
  await tx
    .insertInto("api_credentials")
    .values({
      merchant_id: merchantId,
      app_key: c.appKey,
      secret_ciphertext: c.secretCiphertext,
      secret_issued_at: c.now,
      updated_at: c.now,
    })
    .onConflict((oc) =>
      oc
        .column("merchant_id")
        .doUpdateSet({ secret_ciphertext: c.secretCiphertext, secret_issued_at: c.now, updated_at: c.now }),
    )
    .execute();
}

export async function updateAccessRules(
  tx: Executor,
  merchantId: number,
  r: { ips: string[]; callbackUrl: string | null; now: Date },
): Promise<boolean> {
  const res = await tx
    .updateTable("api_credentials")
    .set({ ip_allowlist: r.ips, callback_url: r.callbackUrl, updated_at: r.now })
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

export function findCredentialsByAppKey(db: Executor, appKey: string) {
  return db.selectFrom("api_credentials").selectAll().where("app_key", "=", appKey).executeTakeFirst();
}
