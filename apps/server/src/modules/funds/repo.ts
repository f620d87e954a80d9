import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the funds module: top-up notices and their transfer proofs. Tenant ids are required arguments. */

export interface NewNotice {
  merchantId: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  payerType: "company" | "personal";
  payerName: string;
  idNumber: string;
  otherAccount: string;
  transferRef: string;
  proofKey: string | null;
  requestKey: string;
  submittedBy: number;
}

/** Inserts a notice, or returns null when this merchant already used the request key. */
export async function insertNotice(tx: Executor, n: NewNotice): Promise<number | null> {
  const row = await tx
    .insertInto("topup_notices")
    .values({
      merchant_id: n.merchantId,
      amount: n.amount,
      currency: n.currency,
      payer_type: n.payerType,
      payer_name: n.payerName,
      id_number: n.idNumber,
      other_account: n.otherAccount,
      transfer_ref: n.transferRef,
      proof_key: n.proofKey,
      request_key: n.requestKey,
      submitted_by: n.submittedBy,
    })
    .onConflict((oc) => oc.columns(["merchant_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function findNoticeByRequestKey(db: Executor, merchantId: number, requestKey: string) {
  return db
    .selectFrom("topup_notices")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function findNotice(db: Executor, id: number) {
  return db.selectFrom("topup_notices").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Locks a notice for its review: two operators reviewing at once are serialised here. */
export function lockNotice(tx: Executor, id: number) {
  return tx.selectFrom("topup_notices").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function markReviewed(
  tx: Executor,
  id: number,
  review: { state: "confirmed" | "rejected"; fee: number; rejectReason: string | null; reviewedBy: number; now: Date },
): Promise<void> {
  await tx
    .updateTable("topup_notices")
    .set({
      state: review.state,
      fee: review.fee,
      reject_reason: review.rejectReason,
      reviewed_by: review.reviewedBy,
      reviewed_at: review.now,
    })
    .where("id", "=", id)
    .execute();
}

export type NoticeRow = NonNullable<Awaited<ReturnType<typeof findNotice>>>;

/** A page of notices: one merchant's (merchantId set) or, for operators, everyone's. */
export async function noticePage(
  db: Executor,
  f: {
    merchantId?: number | undefined;
    state?: "pending" | "confirmed" | "rejected" | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("topup_notices");
  if (f.merchantId !== undefined) q = q.where("merchant_id", "=", f.merchantId);
  if (f.state) q = q.where("state", "=", f.state);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

export async function insertProof(
  tx: Executor,
  p: { id: string; merchantId: number; storageKey: string; contentType: string },
): Promise<void> {
  await tx
    .insertInto("topup_proofs")
    .values({ id: p.id, merchant_id: p.merchantId, storage_key: p.storageKey, content_type: p.contentType })
    .execute();
}

export function findProof(db: Executor, id: string) {
  return db.selectFrom("topup_proofs").selectAll().where("id", "=", id).executeTakeFirst();
}
