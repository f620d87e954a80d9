import { sql, type Insertable } from "kysely";
import type { DB } from "../../../db/schema";
import type { Executor } from "../../../db/tx";

/** SQL of the payments table: what an adapter records of each payment and refund, and the notifications' log. */

export function paymentByNo(db: Executor, paymentNo: string) {
  return db.selectFrom("payments").selectAll().where("payment_no", "=", paymentNo).executeTakeFirst();
}

/** The payment row under a lock: concurrent notifications of one payment wait here, one after another. */
export function lockPayment(db: Executor, paymentNo: string) {
  return db.selectFrom("payments").selectAll().where("payment_no", "=", paymentNo).forUpdate().executeTakeFirst();
}

export type PaymentRow = NonNullable<Awaited<ReturnType<typeof paymentByNo>>>;

/** Which provider took a payment (the dispatching adapter routes by it); undefined when unknown. */
export async function providerOf(db: Executor, paymentNo: string): Promise<string | undefined> {
  const r = await db.selectFrom("payments").select("provider").where("payment_no", "=", paymentNo).executeTakeFirst();
  return r?.provider;
}

/** pending (or closed: paid after it closed) → paid, once: whether this call moved it (false when already paid). */
export async function markPaid(db: Executor, id: number, providerTxnId: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable("payments")
    .set({ state: "paid", provider_txn_id: providerTxnId, paid_at: now })
    .where("id", "=", id)
    .where("state", "in", ["pending", "closed"])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives a refund's reservation (addRefunded) back to the payment: the provider refused the refund. */
export async function releaseRefunded(db: Executor, paymentId: number, amount: number): Promise<void> {
  await db
    .updateTable("payments")
    .set({ refunded: sql`refunded - ${amount}` })
    .where("id", "=", paymentId)
    .execute();
}

/** A refund already asked for under this number (a retried request): its state, or undefined. */
export async function refundStateOf(db: Executor, refundNo: string) {
  const r = await db.selectFrom("payment_refunds").select("state").where("refund_no", "=", refundNo).executeTakeFirst();
  return r?.state;
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

export async function insertPayment(tx: Executor, row: Insertable<DB["payments"]>): Promise<void> {
  await tx.insertInto("payments").values(row).execute();
}

export function paymentState(db: Executor, paymentNo: string) {
  return db
    .selectFrom("payments")
    .select(["state", "provider_txn_id"])
    .where("payment_no", "=", paymentNo)
    .executeTakeFirst();
}

/**
 * Adds a refund to a paid payment's refunded total while it stays within what was paid (the column's
 * check and this condition); the payment's id, or undefined when the refund does not fit.
 */
export async function addRefunded(tx: Executor, paymentNo: string, amount: number): Promise<number | undefined> {
  const r = await tx
    .updateTable("payments")
    .set({ refunded: sql`refunded + ${amount}` })
    .where("payment_no", "=", paymentNo)
    .where("state", "=", "paid")
    .where(sql<boolean>`refunded + ${amount} <= amount`)
    .returning("id")
    .executeTakeFirst();
  return r?.id;
}

export async function insertRefund(
  tx: Executor,
  r: { paymentId: number; refundNo: string; amount: number; now: Date },
): Promise<void> {
  await tx
    .insertInto("payment_refunds")
    .values({ payment_id: r.paymentId, refund_no: r.refundNo, amount: r.amount, state: "success", created_at: r.now })
    .execute();
}

export async function closePending(tx: Executor, paymentNo: string): Promise<void> {
  await tx
    .updateTable("payments")
    .set({ state: "closed" })
    .where("payment_no", "=", paymentNo)
    .where("state", "=", "pending")
    .execute();
}

export function pendingAction(db: Executor, paymentNo: string) {
  return db.selectFrom("payments").select(["state", "action"]).where("payment_no", "=", paymentNo).executeTakeFirst();
}
