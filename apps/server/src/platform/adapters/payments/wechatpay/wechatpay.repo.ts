import type { Executor } from "../../../../db/tx";

/** SQL of the WeChat Pay adapter: its payments' rows and their refunds' settlement (the rest is the seam's). */

export {
  addRefunded,
  closePending,
  insertPayment as insertPending,
  lockPayment,
  logNotice,
  markPaid,
  noticesOf,
  paymentByNo,
  releaseRefunded,
  type PaymentRow,
} from "../payments.repo";

export function refundByNo(db: Executor, refundNo: string) {
  return db
    .selectFrom("payment_refunds")
    .innerJoin("payments", "payments.id", "payment_refunds.payment_id")
    .select([
      "payment_refunds.id",
      "payment_refunds.payment_id",
      "payment_refunds.refund_no",
      "payment_refunds.amount",
      "payment_refunds.state",
      "payments.payment_no",
      "payments.subject_type",
      "payments.subject_id",
      "payments.sandbox",
    ])
    .where("payment_refunds.refund_no", "=", refundNo)
    .forUpdate("payment_refunds")
    .executeTakeFirst();
}

export async function insertRefund(
  db: Executor,
  r: { paymentId: number; refundNo: string; amount: number; state: "processing" | "success" | "failed"; now: Date },
): Promise<void> {
  await db
    .insertInto("payment_refunds")
    .values({
      payment_id: r.paymentId,
      refund_no: r.refundNo,
      amount: r.amount,
      state: r.state,
      created_at: r.now,
      settled_at: r.state === "processing" ? null : r.now,
    })
    .execute();
}

/** processing → success | failed, once. */
export async function settleRefund(
  db: Executor,
  id: number,
  state: "success" | "failed",
  providerRefundId: string | null,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable("payment_refunds")
    .set({ state, provider_refund_id: providerRefundId, settled_at: now })
    .where("id", "=", id)
    .where("state", "=", "processing")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setRefundProviderId(db: Executor, refundNo: string, providerRefundId: string): Promise<void> {
  await db
    .updateTable("payment_refunds")
    .set({ provider_refund_id: providerRefundId })
    .where("refund_no", "=", refundNo)
    .execute();
}
