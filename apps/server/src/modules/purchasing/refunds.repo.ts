import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import { dayAfter, dayStart, type ListFilter } from "./repo";
import type { RefundCause, RefundStateColumn } from "./tables";

/** SQL of refund orders. Each read names the merchant it is for. */

export async function insertRefund(
  tx: Executor,
  r: {
    orderId: number;
    purchaserId: number;
    supplierId: number;
    quantity: number;
    amount: number;
    currency: "CNY" | "USD" | "HKD";
    reason: string;
    state: RefundStateColumn;
    requestedBy: number | null;
    at?: Date;
    cause?: RefundCause;
  },
): Promise<number> {
  const row = await tx
    .insertInto("refund_orders")
    .values({
      order_id: r.orderId,
      purchaser_merchant_id: r.purchaserId,
      supplier_merchant_id: r.supplierId,
      quantity: r.quantity,
      amount: r.amount,
      currency: r.currency,
      reason: r.reason,
      state: r.state,
      requested_by: r.requestedBy,
      ...(r.at && { finished_at: r.at }),
      ...(r.cause && { cause: r.cause }),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function lockRefund(tx: Executor, id: number) {
  return tx.selectFrom("refund_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export function findRefund(db: Executor, id: number) {
  return db.selectFrom("refund_orders").selectAll().where("id", "=", id).executeTakeFirst();
}

export type RefundRow = NonNullable<Awaited<ReturnType<typeof findRefund>>>;

export async function settleRefund(
  tx: Executor,
  id: number,
  c: { state: RefundStateColumn; failReason?: string | null; decidedBy: number; at: Date | null },
): Promise<void> {
  await tx
    .updateTable("refund_orders")
    .set({
      state: c.state,
      decided_by: c.decidedBy,
      finished_at: c.at,
      ...(c.failReason !== undefined && { fail_reason: c.failReason }),
    })
    .where("id", "=", id)
    .execute();
}

/** Codes of an order already refunded (or being refunded), so a refund never exceeds what was bought. */
export async function refundedQuantity(tx: Executor, orderId: number): Promise<number> {
  const row = await tx
    .selectFrom("refund_orders")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("quantity"), sql<string>`'0'`).as("n"))
    .where("order_id", "=", orderId)
    .where("state", "in", ["processing", "abnormal", "success"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether an order has a refund waiting for the supplier (at most one: refund_orders_open). */
export async function hasOpenRefund(tx: Executor, orderId: number): Promise<boolean> {
  const row = await tx
    .selectFrom("refund_orders")
    .select("id")
    .where("order_id", "=", orderId)
    .where("state", "in", ["processing", "abnormal"])
    .executeTakeFirst();
  return row !== undefined;
}

export async function refundPage(
  db: Executor,
  f: ListFilter & {
    state?: RefundStateColumn | undefined;
    orderNo?: string | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("refund_orders");
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.supplierId !== undefined) q = q.where("supplier_merchant_id", "=", f.supplierId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.orderNo) {
    const orderNo = f.orderNo;
    q = q.where("order_id", "in", (eb) =>
      eb.selectFrom("purchase_orders").select("id").where("order_no", "=", orderNo),
    );
  }
  if (f.from) q = q.where("created_at", ">=", dayStart(f.from));
  if (f.to) q = q.where("created_at", "<", dayAfter(f.to));
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

/** The purchase orders (supply_cards.order_id) of the purchaser's codes among `cardIds`. */
export function ordersOfCards(tx: Executor, purchaserId: number, cardIds: number[]) {
  return tx
    .selectFrom("supply_cards")
    .select("order_id")
    .where("id", "in", cardIds)
    .where("buyer_merchant_id", "=", purchaserId)
    .execute();
}
