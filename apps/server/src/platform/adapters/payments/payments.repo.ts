import { sql, type Insertable } from "kysely";
import type { DB } from "../../../db/schema";
import type { Executor } from "../../../db/tx";

/** SQL of the payments table: what an adapter records of each payment and refund. */

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
