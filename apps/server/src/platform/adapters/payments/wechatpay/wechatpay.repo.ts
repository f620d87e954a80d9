import { sql, type Insertable } from "kysely";
import type { DB } from "../../../../db/schema";
import type { Executor } from "../../../../db/tx";

/** SQL of the WeChat Pay adapter: its payments' rows, their settlement and the notifications' log. */

export function paymentByNo(db: Executor, paymentNo: string) {
  return db.selectFrom("payments").selectAll().where("payment_no", "=", paymentNo).executeTakeFirst();
}

/** The payment row under a lock: concurrent notifications of one payment wait here, one after another. */
export function lockPayment(db: Executor, paymentNo: string) {
  return db.selectFrom("payments").selectAll().where("payment_no", "=", paymentNo).forUpdate().executeTakeFirst();
}

export type PaymentRow = NonNullable<Awaited<ReturnType<typeof paymentByNo>>>;

export async function insertPending(db: Executor, row: Insertable<DB["payments"]>): Promise<void> {
  await db.insertInto("payments").values(row).execute();
}

/** pending (or closed: paid after it closed) → paid, once: the number of rows moved (0 when already paid). */
export async function markPaid(db: Executor, id: number, providerTxnId: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable("payments")
    .set({ state: "paid", provider_txn_id: providerTxnId, paid_at: now })
    .where("id", "=", id)
    .where("state", "in", ["pending", "closed"])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function closePending(db: Executor, paymentNo: string): Promise<void> {
  await db
    .updateTable("payments")
    .set({ state: "closed" })
    .where("payment_no", "=", paymentNo)
    .where("state", "=", "pending")
    .execute();
}

/** Reserves a refund within what was paid (as the local adapter does); the payment's id, or undefined. */
export async function addRefunded(db: Executor, paymentNo: string, amount: number): Promise<number | undefined> {
  const r = await db
    .updateTable("payments")
    .set({ refunded: sql`refunded + ${amount}` })
    .where("payment_no", "=", paymentNo)
    .where("state", "=", "paid")
    .where(sql<boolean>`refunded + ${amount} <= amount`)
    .returning("id")
    .executeTakeFirst();
  return r?.id;
}

export async function releaseRefunded(db: Executor, paymentId: number, amount: number): Promise<void> {
  await db
    .updateTable("payments")
    .set({ refunded: sql`refunded - ${amount}` })
    .where("id", "=", paymentId)
    .execute();
}

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

export async function logNotice(db: Executor, row: Insertable<DB["payment_notices"]>): Promise<void> {
  await db.insertInto("payment_notices").values(row).execute();
}

export function noticesOf(db: Executor, paymentNo: string) {
  return db
    .selectFrom("payment_notices")
    .select(["outcome", "event_type", "detail"])
    .where("payment_no", "=", paymentNo)
    .orderBy("id")
    .execute();
}
