import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { HoursRuleCol, LineCol, OptionGroupCol, TakeoutStateCol } from "./tables";

/** SQL of the takeout module. Every read for a shop names its merchant. */

type Currency = "CNY" | "USD" | "HKD";

export function shopOf(db: Executor, merchantId: number) {
  return db.selectFrom("takeout_shops").selectAll().where("merchant_id", "=", merchantId).executeTakeFirst();
}
export type ShopRow = NonNullable<Awaited<ReturnType<typeof shopOf>>>;

export async function upsertShop(
  tx: Executor,
  s: {
    merchantId: number;
    name: string;
    open: boolean;
    hours: HoursRuleCol[];
    address: string;
    lat: number;
    lng: number;
    areaKind: "radius" | "polygon";
    radiusM: number;
    polygon: [number, number][];
    deliveryFee: number;
    minOrder: number;
    packingFee: number;
    tableware: boolean;
    scheduled: boolean;
    prepMinutes: number;
    currency: Currency;
    now: Date;
  },
): Promise<void> {
  const values = {
    name: s.name,
    open: s.open,
    hours: JSON.stringify(s.hours),
    address: s.address,
    lat: s.lat,
    lng: s.lng,
    area_kind: s.areaKind,
    radius_m: s.radiusM,
    polygon: JSON.stringify(s.polygon),
    delivery_fee: s.deliveryFee,
    min_order: s.minOrder,
    packing_fee: s.packingFee,
    tableware: s.tableware,
    scheduled: s.scheduled,
    prep_minutes: s.prepMinutes,
    updated_at: s.now,
  };
  await tx
    .insertInto("takeout_shops")
    .values({ merchant_id: s.merchantId, currency: s.currency, ...values })
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(values))
    .execute();
}

export function typesOf(db: Executor, merchantId: number) {
  return db
    .selectFrom("takeout_types")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("sort", "desc")
    .orderBy("id")
    .execute();
}
export async function insertType(tx: Executor, merchantId: number, name: string, sort: number): Promise<number> {
  return (
    await tx
      .insertInto("takeout_types")
      .values({ merchant_id: merchantId, name, sort })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}
export async function updateType(
  tx: Executor,
  id: number,
  merchantId: number,
  name: string,
  sort: number,
): Promise<boolean> {
  const r = await tx
    .updateTable("takeout_types")
    .set({ name, sort })
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
export async function typeInUse(db: Executor, id: number): Promise<boolean> {
  return (
    (await db.selectFrom("takeout_items").select("id").where("type_id", "=", id).limit(1).executeTakeFirst()) !==
    undefined
  );
}
export async function deleteType(tx: Executor, id: number, merchantId: number): Promise<boolean> {
  const r = await tx
    .deleteFrom("takeout_types")
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
export function typeOf(db: Executor, id: number, merchantId: number) {
  return db
    .selectFrom("takeout_types")
    .select("id")
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

export function itemsOf(db: Executor, merchantId: number, onSaleOnly = false) {
  let q = db.selectFrom("takeout_items").selectAll().where("merchant_id", "=", merchantId);
  if (onSaleOnly) q = q.where("on_sale", "=", true);
  return q.orderBy("sort", "desc").orderBy("id").execute();
}
export type ItemRow = Awaited<ReturnType<typeof itemsOf>>[number];

interface ItemValues {
  typeId: number | null;
  name: string;
  description: string;
  image: string;
  price: number;
  stock: number | null;
  options: OptionGroupCol[];
  onSale: boolean;
  sort: number;
}
const itemCols = (i: ItemValues) => ({
  type_id: i.typeId,
  name: i.name,
  description: i.description,
  image: i.image,
  price: i.price,
  stock: i.stock,
  options: JSON.stringify(i.options),
  on_sale: i.onSale,
  sort: i.sort,
});
export async function insertItem(tx: Executor, merchantId: number, i: ItemValues): Promise<number> {
  return (
    await tx
      .insertInto("takeout_items")
      .values({ merchant_id: merchantId, ...itemCols(i) })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}
export async function updateItem(tx: Executor, id: number, merchantId: number, i: ItemValues): Promise<boolean> {
  const r = await tx
    .updateTable("takeout_items")
    .set(itemCols(i))
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function packagesOf(db: Executor, merchantId: number, onSaleOnly = false) {
  let q = db.selectFrom("takeout_packages").selectAll().where("merchant_id", "=", merchantId);
  if (onSaleOnly) q = q.where("on_sale", "=", true);
  return q.orderBy("sort", "desc").orderBy("id").execute();
}
export type PackageRow = Awaited<ReturnType<typeof packagesOf>>[number];
interface PackageValues {
  name: string;
  description: string;
  price: number;
  items: { itemId: number; quantity: number }[];
  onSale: boolean;
  sort: number;
}
const packageCols = (p: PackageValues) => ({
  name: p.name,
  description: p.description,
  price: p.price,
  items: JSON.stringify(p.items),
  on_sale: p.onSale,
  sort: p.sort,
});
export async function insertPackage(tx: Executor, merchantId: number, p: PackageValues): Promise<number> {
  return (
    await tx
      .insertInto("takeout_packages")
      .values({ merchant_id: merchantId, ...packageCols(p) })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}
export async function updatePackage(tx: Executor, id: number, merchantId: number, p: PackageValues): Promise<boolean> {
  const r = await tx
    .updateTable("takeout_packages")
    .set(packageCols(p))
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

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
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
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

/** Per shop: orders placed since `since`, and paid orders waiting for the shop. */
export async function shopFigures(db: Executor, merchantIds: number[], since: Date) {
  if (merchantIds.length === 0) return [];
  return db
    .selectFrom("takeout_orders")
    .select((eb) => [
      "merchant_id",
      eb.fn.countAll<string>().filterWhere("created_at", ">=", since).as("today"),
      eb.fn.countAll<string>().filterWhere("state", "=", "to_be_accepted").as("waiting"),
      eb.fn
        .sum<string>("total")
        .filterWhere("state", "=", "completed")
        .filterWhere("completed_at", ">=", since)
        .as("completed_amount"),
    ])
    .where("merchant_id", "in", merchantIds)
    .groupBy("merchant_id")
    .execute();
}

export function shopsOf(db: Executor, merchantIds: number[]) {
  if (merchantIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("takeout_shops").selectAll().where("merchant_id", "in", merchantIds).execute();
}
