import type { PayOrderQuery } from "@tessera/contracts";
import type { Insertable, Updateable } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { PayOrdersTable } from "./tables";

/** SQL of payments through collection codes. Lists and views name the merchant(s) they read. */

/** The payment a request key already made through a code, if any. */
export function orderByRequest(db: Executor, codeId: number, requestKey: string) {
  return db
    .selectFrom("pay_orders")
    .select("id")
    .where("code_id", "=", codeId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function insertOrder(tx: Executor, row: Insertable<PayOrdersTable>) {
  return tx.insertInto("pay_orders").values(row).returning("id").executeTakeFirstOrThrow();
}

/** Changes a payment (made or locked by the caller). */
export async function updateOrder(tx: Executor, id: number, set: Updateable<PayOrdersTable>): Promise<void> {
  await tx.updateTable("pay_orders").set(set).where("id", "=", id).execute();
}

function orders(db: Executor) {
  return db
    .selectFrom("pay_orders as o")
    .innerJoin("pay_codes as c", "c.id", "o.code_id")
    .select([
      "o.id",
      "o.order_no",
      "c.name as code_name",
      "o.amount",
      "o.fee",
      "o.refunded",
      "o.currency",
      "o.state",
      "o.note",
      "o.paid_at",
      "o.created_at",
    ]);
}

/** One of the merchant's payments as lists show it. */
export function orderOf(db: Executor, merchantId: number, id: number) {
  return orders(db).where("o.id", "=", id).where("o.merchant_id", "=", merchantId).executeTakeFirst();
}

/** A page of the merchants' payments (none when `merchantIds` is empty), newest first. */
export async function orderPage(db: Executor, merchantIds: number[], q: PayOrderQuery) {
  let base = orders(db).where("o.merchant_id", "in", merchantIds.length > 0 ? merchantIds : [-1]);
  if (q.state) base = base.where("o.state", "=", q.state);
  if (q.orderNo) base = base.where("o.order_no", "=", q.orderNo);
  if (q.from) base = base.where("o.created_at", ">=", new Date(`${q.from}T00:00:00+08:00`));
  if (q.to) {
    base = base.where("o.created_at", "<", new Date(new Date(`${q.to}T00:00:00+08:00`).getTime() + 86_400_000));
  }
  return paginate(base.orderBy("o.id", "desc"), base.clearSelect(), pageWindow(q));
}

/** A payment under a lock with what crediting it needs (its code's name): the notification's handler. */
export function lockOrderForCredit(tx: Executor, id: number) {
  return tx
    .selectFrom("pay_orders as o")
    .innerJoin("pay_codes as c", "c.id", "o.code_id")
    .select([
      "o.id",
      "o.merchant_id",
      "o.order_no",
      "o.amount",
      "o.fee",
      "o.currency",
      "o.state",
      "c.name as code_name",
    ])
    .where("o.id", "=", id)
    .forUpdate("o")
    .executeTakeFirst();
}

/** The state of the payment a request key made (the payer's poll). */
export function orderStateByRequest(db: Executor, codeId: number, requestKey: string) {
  return db
    .selectFrom("pay_orders")
    .select(["id", "order_no", "state", "created_at"])
    .where("code_id", "=", codeId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

/** Payments still NOTPAY made before `before` (the unpaid-closing job). */
export function unpaidBefore(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom("pay_orders")
    .select(["id", "order_no"])
    .where("state", "=", "NOTPAY")
    .where("created_at", "<", before)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** NOTPAY → CLOSED under the row's lock; whether it moved. */
export async function closeUnpaidOrder(tx: Executor, id: number): Promise<boolean> {
  const r = await tx
    .updateTable("pay_orders")
    .set({ state: "CLOSED" })
    .where("id", "=", id)
    .where("state", "=", "NOTPAY")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
