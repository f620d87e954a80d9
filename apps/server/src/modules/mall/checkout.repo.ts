import { sql, type Insertable, type RawBuilder, type SqlBool } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { MallTables } from "./tables";

/** The checkout's SQL: what a cart is made of, the order and its stock, the top-ups' follow-up, an order's deliveries. */

/** The order a customer placed with this request key, if any. */
export async function orderIdByKey(db: Executor, customerId: number, requestKey: string) {
  return db
    .selectFrom("mall_orders")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

/** The same, in the order's transaction: it must be there (the insert found it). */
export async function orderIdByKeyOrThrow(tx: Tx, customerId: number, requestKey: string) {
  return tx
    .selectFrom("mall_orders")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("request_key", "=", requestKey)
    .executeTakeFirstOrThrow();
}

/* ---------- the cart ---------- */

export async function bagsOnSale(db: Executor, merchantId: number, ids: number[]) {
  return db
    .selectFrom("mall_gift_bags")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "in", ids)
    .where("on_sale", "=", true)
    .execute();
}

export async function bagItems(db: Executor, bagIds: number[]) {
  return db.selectFrom("mall_gift_bag_items").selectAll().where("bag_id", "in", bagIds).execute();
}

export async function selfGoodsByIds(db: Executor, merchantId: number, ids: number[]) {
  return db
    .selectFrom("mall_self_goods")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "in", ids)
    .execute();
}

/* ---------- the order ---------- */

/** The order; undefined when the customer's request key placed one meanwhile. */
export async function insertOrder(
  tx: Tx,
  merchantId: number,
  values: Omit<Insertable<MallTables["mall_orders"]>, "merchant_id">,
) {
  const { order_no, ...rest } = values;
  return tx
    .insertInto("mall_orders")
    .values({ order_no, merchant_id: merchantId, ...rest })
    .onConflict((oc) => oc.columns(["customer_id", "request_key"]).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Sells `quantity` more of a gift bag when its stock allows; false when it does not. */
export async function sellBag(tx: Tx, bagId: number, quantity: number): Promise<boolean> {
  const r = await tx
    .updateTable("mall_gift_bags")
    .set((eb) => ({ sold: eb("sold", "+", quantity) }))
    .where("id", "=", bagId)
    .where(sql<boolean>`sold + ${quantity} <= stock`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markSandbox(tx: Tx, orderId: number): Promise<void> {
  await tx.updateTable("mall_orders").set({ sandbox: true }).where("id", "=", orderId).execute();
}

/* ---------- top-ups ---------- */

export async function orderMerchant(db: Executor, orderId: number) {
  return db.selectFrom("mall_orders").select(["id", "merchant_id"]).where("id", "=", orderId).executeTakeFirstOrThrow();
}

/** An order's top-ups still processing, in id order. */
export async function openTopUps(db: Executor, orderId: number) {
  return db
    .selectFrom("mall_deliveries")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("kind", "=", "topup")
    .where("state", "=", "processing")
    .orderBy("id")
    .execute();
}

export async function setPurchaseNo(db: Executor, deliveryId: number, purchaseNo: string): Promise<void> {
  await db.updateTable("mall_deliveries").set({ purchase_no: purchaseNo }).where("id", "=", deliveryId).execute();
}

/** A processing delivery's end (success or failed). */
export async function endDelivery(db: Executor, deliveryId: number, state: "success" | "failed"): Promise<void> {
  await db
    .updateTable("mall_deliveries")
    .set({ state })
    .where("id", "=", deliveryId)
    .where("state", "=", "processing")
    .execute();
}

export async function setFailReason(db: Executor, orderId: number, reason: string | null): Promise<void> {
  await db.updateTable("mall_orders").set({ fail_reason: reason }).where("id", "=", orderId).execute();
}

export async function deliveryStates(db: Executor, orderId: number) {
  return db.selectFrom("mall_deliveries").select(["state"]).where("order_id", "=", orderId).execute();
}

/** A delivering order failed. */
export async function failDelivering(db: Executor, orderId: number): Promise<void> {
  await db
    .updateTable("mall_orders")
    .set({ state: "failed" })
    .where("id", "=", orderId)
    .where("state", "=", "delivering")
    .execute();
}

/** A delivering order delivered. */
export async function deliverDelivering(db: Executor, orderId: number, now: Date): Promise<void> {
  await db
    .updateTable("mall_orders")
    .set({ state: "delivered", delivered_at: now })
    .where("id", "=", orderId)
    .where("state", "=", "delivering")
    .execute();
}

/** The orders still delivering, oldest first. */
export async function deliveringOrders(db: Executor, limit: number) {
  return db
    .selectFrom("mall_orders")
    .select("id")
    .where("state", "=", "delivering")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/* ---------- reading orders ---------- */

/** The deliveries of these orders, in id order. */
export async function deliveriesOf(db: Executor, orderIds: number[]) {
  return db.selectFrom("mall_deliveries").selectAll().where("order_id", "in", orderIds).orderBy("id").execute();
}

/** A customer's order in the merchant's mall. */
export async function customerOrderRow(db: Executor, merchantId: number, customerId: number, id: number) {
  return db
    .selectFrom("mall_orders")
    .selectAll()
    .where("id", "=", id)
    .where("customer_id", "=", customerId)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** How long a checkout's own purchase keeps its codes from other checkouts (one that died lets them go then). */
export const SMART_BUY_HOLD_MS = 2 * 60_000;

/** Holds what the merchant is sold from `at` for one checkout's purchase, before it is placed. */
export async function holdSmartBuy(db: Executor, merchantId: number, holdKey: string, at: Date): Promise<void> {
  await db
    .insertInto("mall_smart_buys")
    .values({ hold_key: holdKey, merchant_id: merchantId, created_at: at })
    .onConflict((oc) => oc.column("hold_key").doNothing())
    .execute();
}

/** Narrows a hold to the purchase order placed for it. */
export async function nameSmartBuy(db: Executor, holdKey: string, purchaseOrderId: string): Promise<void> {
  await db
    .updateTable("mall_smart_buys")
    .set({ purchase_order_id: purchaseOrderId })
    .where("hold_key", "=", holdKey)
    .execute();
}

/** Lets a checkout's holds go (its codes handed on, or left over in the merchant's stock). */
export async function releaseSmartBuys(db: Executor, holdKeys: string[]): Promise<void> {
  if (holdKeys.length === 0) return;
  await db.deleteFrom("mall_smart_buys").where("hold_key", "in", holdKeys).execute();
}

/**
 * The condition, on a supply code aliased `c`, that no other checkout of the merchant holds it: not of a
 * purchase order a checkout placed for itself, nor sold since a checkout began a purchase it has not named
 * yet. For the merchant's stock count and its takes beyond a checkout's own purchases; a hold older than
 * SMART_BUY_HOLD_MS (its checkout died) holds nothing.
 */
export function notHeldForOthers(merchantId: number, now: Date): RawBuilder<SqlBool> {
  const since = new Date(now.getTime() - SMART_BUY_HOLD_MS);
  return sql<SqlBool>`NOT EXISTS (
    SELECT 1 FROM mall_smart_buys h WHERE h.merchant_id = ${merchantId} AND h.created_at > ${since}
      AND (h.purchase_order_id = c.order_id OR (h.purchase_order_id IS NULL AND c.sold_at >= h.created_at)))`;
}
