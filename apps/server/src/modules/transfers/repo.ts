import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the transfers module. Every read names the merchant it is for. */

export function findAuth(db: Executor, merchantId: number) {
  return db.selectFrom("transit_auths").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}

export async function upsertAuth(
  tx: Executor,
  a: { merchantId: number; userId: number; phone: string; now: Date },
): Promise<void> {
  await tx
    .insertInto("transit_auths")
    .values({ merchant_id: a.merchantId, authorised_by: a.userId, phone: a.phone, authorised_at: a.now })
    .onConflict((oc) =>
      oc.column("merchant_id").doUpdateSet({ authorised_by: a.userId, phone: a.phone, authorised_at: a.now }),
    )
    .execute();
}

export async function insertTransfer(
  tx: Executor,
  t: {
    fromMerchantId: number;
    toMerchantId: number;
    amount: number;
    currency: "CNY" | "USD" | "HKD";
    remark: string;
    contractNo: string | null;
    requestKey: string;
    createdBy: number;
  },
): Promise<number | null> {
  const row = await tx
    .insertInto("transfers")
    .values({
      from_merchant_id: t.fromMerchantId,
      to_merchant_id: t.toMerchantId,
      amount: t.amount,
      currency: t.currency,
      remark: t.remark,
      contract_no: t.contractNo,
      request_key: t.requestKey,
      created_by: t.createdBy,
    })
    .onConflict((oc) => oc.columns(["from_merchant_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function findByRequestKey(db: Executor, fromMerchantId: number, requestKey: string) {
  return db
    .selectFrom("transfers")
    .selectAll()
    .where("from_merchant_id", "=", fromMerchantId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

/** A transfer the merchant sent or received; undefined for anyone else's. */
export function findForMerchant(db: Executor, id: number, merchantId: number) {
  return db
    .selectFrom("transfers")
    .selectAll()
    .where("id", "=", id)
    .where((eb) => eb.or([eb("from_merchant_id", "=", merchantId), eb("to_merchant_id", "=", merchantId)]))
    .executeTakeFirst();
}

export function lockTransfer(tx: Executor, id: number) {
  return tx.selectFrom("transfers").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export type TransferRow = NonNullable<Awaited<ReturnType<typeof lockTransfer>>>;

export async function updateTransfer(
  tx: Executor,
  id: number,
  changes: {
    amount?: number;
    remark?: string;
    state?: "refused" | "completed";
    refuseReason?: string;
    decidedBy?: number;
    completedAt?: Date;
    now: Date;
  },
): Promise<void> {
  await tx
    .updateTable("transfers")
    .set({
      ...(changes.amount !== undefined && { amount: changes.amount }),
      ...(changes.remark !== undefined && { remark: changes.remark }),
      ...(changes.state !== undefined && { state: changes.state }),
      ...(changes.refuseReason !== undefined && { refuse_reason: changes.refuseReason }),
      ...(changes.decidedBy !== undefined && { decided_by: changes.decidedBy }),
      ...(changes.completedAt !== undefined && { completed_at: changes.completedAt }),
      updated_at: changes.now,
    })
    .where("id", "=", id)
    .execute();
}

export async function transferPage(
  db: Executor,
  f: {
    merchantId: number;
    direction?: "out" | "in" | undefined;
    state?: "created" | "refused" | "completed" | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("transfers");
  q =
    f.direction === "out"
      ? q.where("from_merchant_id", "=", f.merchantId)
      : f.direction === "in"
        ? q.where("to_merchant_id", "=", f.merchantId)
        : q.where((eb) => eb.or([eb("from_merchant_id", "=", f.merchantId), eb("to_merchant_id", "=", f.merchantId)]));
  if (f.state) q = q.where("state", "=", f.state);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

/** The merchant's contract numbers with their transfers' totals, newest first. */
export async function contracts(db: Executor, merchantId: number) {
  const rows = await sql<{
    contract_no: string;
    currency: "CNY" | "USD" | "HKD";
    transfers: string;
    completed: string;
    pending: string;
    last_at: Date;
  }>`
    SELECT contract_no, currency, COUNT(*)::text AS transfers,
           COALESCE(SUM(amount) FILTER (WHERE state = 'completed'), 0)::text AS completed,
           COALESCE(SUM(amount) FILTER (WHERE state = 'created'), 0)::text AS pending,
           MAX(created_at) AS last_at
    FROM transfers
    WHERE contract_no IS NOT NULL AND (from_merchant_id = ${merchantId} OR to_merchant_id = ${merchantId})
    GROUP BY contract_no, currency ORDER BY MAX(created_at) DESC LIMIT 1000`.execute(db);
  return rows.rows;
}
