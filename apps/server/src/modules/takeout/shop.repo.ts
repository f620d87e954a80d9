import type { Executor } from "../../db/tx";
import type { HoursRuleCol, OptionGroupCol } from "./tables";

/**
 * SQL of the takeout shops: settings, categories, items, combos and the provider's figures. Every read for a
 * shop names its merchant.
 */

export type Currency = "CNY" | "USD" | "HKD";

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

/** How far a merchant has set up takeout (the home's setup checklist): the shop, open or not, and its items. */
export async function takeoutSetup(
  db: Executor,
  merchantId: number,
): Promise<{ shop: boolean; open: boolean; items: number }> {
  const [shop, items] = await Promise.all([
    db.selectFrom("takeout_shops").select("open").where("merchant_id", "=", merchantId).executeTakeFirst(),
    db
      .selectFrom("takeout_items")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow(),
  ]);
  return { shop: shop !== undefined, open: shop?.open === true, items: Number(items.n) };
}
