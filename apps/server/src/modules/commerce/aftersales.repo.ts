import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { Currency } from "./repo";
import type { AfterSaleStateCol } from "./tables";

/** SQL of after-sales cases. */

export async function insertAftersale(
  tx: Executor,
  a: {
    orderId: number;
    orderItemId: number;
    purchaserId: number;
    brandId: number;
    way: "refund" | "return_and_refund";
    quantity: number;
    amount: number;
    currency: Currency;
    reason: string;
    requestKey: string;
    now: Date;
  },
): Promise<number | null> {
  const row = await tx
    .insertInto("commerce_aftersales")
    .values({
      order_id: a.orderId,
      order_item_id: a.orderItemId,
      purchaser_id: a.purchaserId,
      brand_id: a.brandId,
      way: a.way,
      state: "apply",
      quantity: a.quantity,
      amount: a.amount,
      currency: a.currency,
      reason: a.reason,
      request_key: a.requestKey,
      created_at: a.now,
      updated_at: a.now,
    })
    .onConflict((oc) => oc.columns(["purchaser_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function aftersaleByRequestKey(db: Executor, purchaserId: number, requestKey: string) {
  return db
    .selectFrom("commerce_aftersales")
    .selectAll()
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function liveAftersaleOfItem(db: Executor, orderItemId: number) {
  return db
    .selectFrom("commerce_aftersales")
    .select("id")
    .where("order_item_id", "=", orderItemId)
    .where("state", "not in", ["buyer_cancel", "seller_disagree", "seller_refuse"])
    .executeTakeFirst();
}

export function lockAftersale(tx: Executor, id: number) {
  return tx.selectFrom("commerce_aftersales").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}
export type AftersaleRow = NonNullable<Awaited<ReturnType<typeof lockAftersale>>>;

export async function setAftersale(
  tx: Executor,
  id: number,
  c: {
    state: AfterSaleStateCol;
    sellerReason?: string;
    returnCompany?: string;
    returnWaybill?: string;
    returnAddress?: string;
    refundedAt?: Date;
    now: Date;
  },
): Promise<void> {
  await tx
    .updateTable("commerce_aftersales")
    .set({
      state: c.state,
      ...(c.sellerReason !== undefined && { seller_reason: c.sellerReason }),
      ...(c.returnCompany !== undefined && { return_company: c.returnCompany }),
      ...(c.returnWaybill !== undefined && { return_waybill: c.returnWaybill }),
      ...(c.returnAddress !== undefined && { return_address: c.returnAddress }),
      ...(c.refundedAt !== undefined && { refunded_at: c.refundedAt }),
      updated_at: c.now,
    })
    .where("id", "=", id)
    .execute();
}

export async function aftersalePage(
  db: Executor,
  f: {
    side: "purchaser" | "brand";
    merchantId: number;
    state?: AfterSaleStateCol | undefined;
    orderNo?: string | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db
    .selectFrom("commerce_aftersales as a")
    .innerJoin("commerce_orders as o", "o.id", "a.order_id")
    .where(f.side === "purchaser" ? "a.purchaser_id" : "a.brand_id", "=", f.merchantId);
  if (f.state) q = q.where("a.state", "=", f.state);
  if (f.orderNo) q = q.where("o.order_no", "=", f.orderNo);
  return paginate(q.selectAll("a").select("o.order_no").orderBy("a.id", "desc"), q, f);
}

export function aftersaleWithOrderNo(db: Executor, id: number) {
  return db
    .selectFrom("commerce_aftersales as a")
    .innerJoin("commerce_orders as o", "o.id", "a.order_id")
    .selectAll("a")
    .select("o.order_no")
    .where("a.id", "=", id)
    .executeTakeFirst();
}
export type AftersaleListRow = NonNullable<Awaited<ReturnType<typeof aftersaleWithOrderNo>>>;

export function itemsById(db: Executor, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("commerce_order_items").selectAll().where("id", "in", ids).execute();
}
