import type { Insertable } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { OnecardOrdersTable } from "./tables";

/** SQL of equities paid with a card (onecard_orders). A customer's reads name the customer. */

/** The brand's id and version (which purchase lists it sees). */
export function brandOf(db: Executor, branderId: number) {
  return db.selectFrom("merchants").select(["id", "version"]).where("id", "=", branderId).executeTakeFirstOrThrow();
}

export function cardOf(db: Executor, cardId: number) {
  return db
    .selectFrom("onecard_cards")
    .select(["id", "customer_id", "brander_id", "currency", "product_id"])
    .where("id", "=", cardId)
    .executeTakeFirst();
}

export function orderByKey(tx: Executor, customerId: number, requestKey: string) {
  return tx
    .selectFrom("onecard_orders")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export async function insertOrder(tx: Executor, row: Insertable<OnecardOrdersTable>): Promise<number> {
  const o = await tx.insertInto("onecard_orders").values(row).returning("id").executeTakeFirstOrThrow();
  return o.id;
}

export async function setOrderNo(tx: Executor, id: number, orderNo: string): Promise<void> {
  await tx.updateTable("onecard_orders").set({ order_no: orderNo }).where("id", "=", id).execute();
}

export function orderById(db: Executor, id: number) {
  return db.selectFrom("onecard_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

export function lockOrder(tx: Executor, id: number) {
  return tx.selectFrom("onecard_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirstOrThrow();
}

/** A processing order succeeded (an order settled already stays as it is). */
export async function markSucceeded(db: Executor, id: number, now: Date): Promise<void> {
  await db
    .updateTable("onecard_orders")
    .set({ state: "success", finished_at: now })
    .where("id", "=", id)
    .where("state", "=", "processing")
    .execute();
}

export async function markFailed(
  tx: Executor,
  id: number,
  f: { now: Date; failKey: string | null; failParams: string | null; failReason: string | null },
): Promise<void> {
  await tx
    .updateTable("onecard_orders")
    .set({
      state: "failed",
      finished_at: f.now,
      fail_key: f.failKey,
      fail_params: f.failParams,
      fail_reason: f.failReason,
    })
    .where("id", "=", id)
    .execute();
}

/** Orders still processing, oldest first (all, or one customer's). */
export function openOrders(db: Executor, customerId: number | undefined, limit: number) {
  let q = db
    .selectFrom("onecard_orders")
    .select(["id", "brander_id", "order_no", "created_at"])
    .where("state", "=", "processing");
  if (customerId !== undefined) q = q.where("customer_id", "=", customerId);
  return q.orderBy("created_at").limit(limit).execute();
}

export async function orderPage(db: Executor, customerId: number, offset: number, limit: number, id?: number) {
  let base = db
    .selectFrom("onecard_orders as o")
    .innerJoin("onecard_cards as c", "c.id", "o.card_id")
    .where("o.customer_id", "=", customerId);
  if (id !== undefined) base = base.where("o.id", "=", id);
  return paginate(base.selectAll("o").select("c.sealed").orderBy("o.id", "desc"), base, { offset, limit });
}
