import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { Currency } from "./shop.repo";
import type { LineCol, TakeoutStateCol } from "./tables";

/**
 * SQL of takeout orders and the counted items' stock they take and give back. Every read names its customer
 * or shop.
 */

/** Takes stock of a counted item if it has that much; items without a count always succeed. */
export async function takeItemStock(tx: Executor, itemId: number, quantity: number): Promise<boolean> {
  const row = await tx
    .updateTable("takeout_items")
    .set((eb) => ({ stock: eb("stock", "-", quantity), sold: eb("sold", "+", quantity) }))
    .where("id", "=", itemId)
    .where((eb) => eb.or([eb("stock", "is", null), eb("stock", ">=", quantity)]))
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}
export async function giveItemStock(tx: Executor, itemId: number, quantity: number): Promise<void> {
  await tx
    .updateTable("takeout_items")
    .set((eb) => ({
      stock: sql<number | null>`CASE WHEN stock IS NULL THEN NULL ELSE stock + ${quantity} END`,
      sold: eb("sold", "-", quantity),
    }))
    .where("id", "=", itemId)
    .execute();
}

export async function insertOrder(
  tx: Executor,
  o: {
    orderNo: string;
    merchantId: number;
    customerId: number;
    lines: LineCol[];
    goods: number;
    packingFee: number;
    deliveryFee: number;
    currency: Currency;
    contactName: string;
    contactPhone: string;
    address: string;
    lat: number;
    lng: number;
    tableware: number;
    scheduledAt: Date | null;
    remark: string;
    requestKey: string;
    now: Date;
  },
): Promise<number | null> {
  const row = await tx
    .insertInto("takeout_orders")
    .values({
      order_no: o.orderNo,
      merchant_id: o.merchantId,
      customer_id: o.customerId,
      state: "pending_payment",
      lines: JSON.stringify(o.lines),
      goods_amount: o.goods,
      packing_fee: o.packingFee,
      delivery_fee: o.deliveryFee,
      total: o.goods + o.packingFee + o.deliveryFee,
      currency: o.currency,
      contact_name: o.contactName,
      contact_phone: o.contactPhone,
      address: o.address,
      lat: o.lat,
      lng: o.lng,
      tableware: o.tableware,
      scheduled_at: o.scheduledAt,
      remark: o.remark,
      request_key: o.requestKey,
      created_at: o.now,
    })
    .onConflict((oc) => oc.columns(["customer_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function orderByKey(db: Executor, customerId: number, requestKey: string) {
  return db
    .selectFrom("takeout_orders")
    .selectAll()
    .where("customer_id", "=", customerId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}
export function orderOf(db: Executor, id: number) {
  return db.selectFrom("takeout_orders").selectAll().where("id", "=", id).executeTakeFirst();
}
export type OrderRow = NonNullable<Awaited<ReturnType<typeof orderOf>>>;
export function lockOrder(tx: Executor, id: number) {
  return tx.selectFrom("takeout_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function setOrder(
  tx: Executor,
  id: number,
  c: {
    state: TakeoutStateCol;
    paidAt?: Date;
    sandbox?: boolean;
    acceptedAt?: Date;
    deliveringAt?: Date;
    completedAt?: Date;
    cancelledAt?: Date;
    cancelReason?: string;
    cancelledBy?: "customer" | "shop" | "system";
    refunded?: number;
  },
): Promise<void> {
  await tx
    .updateTable("takeout_orders")
    .set({
      state: c.state,
      ...(c.paidAt && { paid_at: c.paidAt }),
      ...(c.sandbox !== undefined && { sandbox: c.sandbox }),
      ...(c.acceptedAt && { accepted_at: c.acceptedAt }),
      ...(c.deliveringAt && { delivering_at: c.deliveringAt }),
      ...(c.completedAt && { completed_at: c.completedAt }),
      ...(c.cancelledAt && { cancelled_at: c.cancelledAt }),
      ...(c.cancelReason !== undefined && { cancel_reason: c.cancelReason }),
      ...(c.cancelledBy && { cancelled_by: c.cancelledBy }),
      ...(c.refunded !== undefined && { refunded: c.refunded }),
    })
    .where("id", "=", id)
    .execute();
}

export async function orderPage(
  db: Executor,
  f: {
    merchantId?: number;
    customerId?: number;
    state?: TakeoutStateCol | undefined;
    afterId?: number | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("takeout_orders");
  if (f.merchantId !== undefined) q = q.where("merchant_id", "=", f.merchantId);
  if (f.customerId !== undefined) q = q.where("customer_id", "=", f.customerId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.afterId) q = q.where("id", ">", f.afterId);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

export function unpaidBefore(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom("takeout_orders")
    .select("id")
    .where("state", "=", "pending_payment")
    .where("created_at", "<", before)
    .orderBy("created_at")
    .limit(limit)
    .execute();
}
