import type { PayRefund } from "@tessera/contracts";
import type { Insertable, Updateable } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { PayRefundsTable } from "./tables";

/** SQL of refunds. A merchant's refunds and the payment refunded are read with its id. */

function refundsQuery(db: Executor) {
  return db
    .selectFrom("pay_refunds as f")
    .innerJoin("pay_orders as o", "o.id", "f.order_id")
    .select([
      "f.id",
      "f.order_id",
      "o.order_no",
      "f.amount",
      "f.fee",
      "f.currency",
      "f.state",
      "f.reason",
      "f.fail_reason",
      "f.created_at",
    ]);
}

/** A page of the merchant's refunds, newest first. */
export async function refundPage(
  db: Executor,
  merchantId: number,
  q: { page: number; pageSize: number; orderId?: string | undefined; state?: PayRefund["state"] | undefined },
) {
  let base = refundsQuery(db).where("f.merchant_id", "=", merchantId);
  if (q.orderId) base = base.where("f.order_id", "=", Number(q.orderId));
  if (q.state) base = base.where("f.state", "=", q.state);
  return paginate(base.orderBy("f.id", "desc"), base.clearSelect(), pageWindow(q));
}

/** The refund a request key already made, as lists show it. */
export function refundByRequest(db: Executor, merchantId: number, requestKey: string) {
  return refundsQuery(db)
    .where("f.merchant_id", "=", merchantId)
    .where("f.request_key", "=", requestKey)
    .executeTakeFirst();
}

/** A refund as lists show it (its id from the caller's own transaction). */
export function refundOf(db: Executor, id: number) {
  return refundsQuery(db).where("f.id", "=", id).executeTakeFirstOrThrow();
}

/** The merchant's payment under its row lock. */
export function lockOrder(tx: Executor, merchantId: number, id: number) {
  return tx
    .selectFrom("pay_orders")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .forUpdate()
    .executeTakeFirst();
}

/** The id of the refund a request key already made, if any. */
export function refundIdByRequest(tx: Executor, merchantId: number, requestKey: string) {
  return tx
    .selectFrom("pay_refunds")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function insertRefund(tx: Executor, row: Insertable<PayRefundsTable>) {
  return tx.insertInto("pay_refunds").values(row).returning("id").executeTakeFirstOrThrow();
}

/** Finishes a refund (made by the caller). */
export async function finishRefund(tx: Executor, id: number, set: Updateable<PayRefundsTable>): Promise<void> {
  await tx.updateTable("pay_refunds").set(set).where("id", "=", id).execute();
}

/** A refund and its payment under their row locks (the provider settles a PROCESSING refund). */
export function lockRefundWithOrder(tx: Executor, id: number) {
  return tx
    .selectFrom("pay_refunds as f")
    .innerJoin("pay_orders as o", "o.id", "f.order_id")
    .select([
      "f.id",
      "f.state",
      "f.amount",
      "f.fee",
      "f.merchant_id",
      "o.id as order_id",
      "o.order_no",
      "o.currency",
      "o.sandbox",
      "o.refunded",
      "o.fee_refunded",
    ])
    .where("f.id", "=", id)
    .forUpdate()
    .executeTakeFirst();
}
