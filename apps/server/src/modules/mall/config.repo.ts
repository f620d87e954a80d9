import type { Insertable, Updateable } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor, Tx } from "../../db/tx";
import type { MallTables } from "./tables";

/** The back-office's SQL: the merchant's own goods, gift bags, settings and SMS packages and records. */

const like = (keyword: string) => `%${keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/* ---------- own goods (SelfSupport) ---------- */

/** The catalogue goods ids the merchant sells in the mall. */
export async function selfGoodsIds(db: Executor, merchantId: number) {
  return db.selectFrom("mall_self_goods").select("goods_id").where("merchant_id", "=", merchantId).execute();
}

/** A catalogue goods into the mall; undefined when it is in already. */
export async function insertSelfGoods(
  tx: Tx,
  merchantId: number,
  values: Omit<Insertable<MallTables["mall_self_goods"]>, "merchant_id">,
) {
  return tx
    .insertInto("mall_self_goods")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) => oc.columns(["merchant_id", "goods_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
}

/** The catalogue goods an own goods sells. */
export async function selfGoodsRef(db: Executor, merchantId: number, id: number) {
  return db
    .selectFrom("mall_self_goods")
    .select(["goods_id"])
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

export async function updateSelfGoods(
  tx: Tx,
  merchantId: number,
  id: number,
  set: Updateable<MallTables["mall_self_goods"]>,
) {
  return tx
    .updateTable("mall_self_goods")
    .set(set)
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** A page of the merchant's own goods (by sort, then newest) and how many match. */
export async function selfGoodsPage(
  db: Executor,
  merchantId: number,
  q: {
    page: number;
    pageSize: number;
    keyword?: string | undefined;
    onSale?: "true" | "false" | undefined;
    id?: number;
  },
) {
  let base = db.selectFrom("mall_self_goods").where("merchant_id", "=", merchantId);
  if (q.id !== undefined) base = base.where("id", "=", q.id);
  if (q.onSale) base = base.where("on_sale", "=", q.onSale === "true");
  if (q.keyword) base = base.where("name", "ilike", like(q.keyword));
  return paginate(base.selectAll().orderBy("sort").orderBy("id", "desc"), base, pageWindow(q));
}

/** The currencies of these own goods of the merchant (a row each found). */
export async function selfGoodsCurrencies(db: Executor, merchantId: number, ids: number[]) {
  return db
    .selectFrom("mall_self_goods")
    .select(["id", "currency"])
    .where("merchant_id", "=", merchantId)
    .where("id", "in", ids)
    .execute();
}

/* ---------- gift bags (EquityGiftBag) ---------- */

type BagValues = Omit<Insertable<MallTables["mall_gift_bags"]>, "merchant_id" | "id">;

export async function insertBag(tx: Tx, merchantId: number, values: BagValues): Promise<number> {
  return (
    await tx
      .insertInto("mall_gift_bags")
      .values({ merchant_id: merchantId, ...values })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

/** A gift bag of the merchant, locked for its update. */
export async function lockBag(tx: Tx, merchantId: number, id: number) {
  return tx
    .selectFrom("mall_gift_bags")
    .select(["id", "sold"])
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .forUpdate()
    .executeTakeFirst();
}

/** A locked bag's new values, its items cleared (the caller inserts them again). */
export async function updateBagClearItems(tx: Tx, id: number, values: BagValues): Promise<void> {
  await tx.updateTable("mall_gift_bags").set(values).where("id", "=", id).execute();
  await tx.deleteFrom("mall_gift_bag_items").where("bag_id", "=", id).execute();
}

export async function insertBagItems(
  tx: Tx,
  bagId: number,
  items: { selfGoodsId: number; quantity: number }[],
): Promise<void> {
  await tx
    .insertInto("mall_gift_bag_items")
    .values(items.map((i) => ({ bag_id: bagId, self_goods_id: i.selfGoodsId, quantity: i.quantity })))
    .execute();
}

export async function countBags(db: Executor, merchantId: number): Promise<number> {
  const total = await db
    .selectFrom("mall_gift_bags")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return Number(total.n);
}

/* ---------- settings (PrivateCodeMall, BrandShow) ---------- */

export async function upsertSettings(
  tx: Tx,
  merchantId: number,
  values: Omit<Insertable<MallTables["mall_settings"]>, "merchant_id">,
): Promise<void> {
  await tx
    .insertInto("mall_settings")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) => oc.column("merchant_id").doUpdateSet(values))
    .execute();
}

/* ---------- SMS packages and records ---------- */

/** The merchant's latest 200 SMS packages, newest first. */
export async function smsPackages(db: Executor, merchantId: number) {
  return db
    .selectFrom("mall_sms_packages")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(200)
    .execute();
}

/** A bought SMS package; undefined when this request key bought one already. */
export async function insertSmsPackage(
  tx: Tx,
  merchantId: number,
  values: Omit<Insertable<MallTables["mall_sms_packages"]>, "merchant_id">,
) {
  return tx
    .insertInto("mall_sms_packages")
    .values({ merchant_id: merchantId, ...values })
    .onConflict((oc) => oc.columns(["merchant_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
}

/** A page of the merchant's SMS records, newest first, and how many match. */
export async function smsRecordsPage(
  db: Executor,
  merchantId: number,
  q: { page: number; pageSize: number; phone?: string | undefined },
) {
  let base = db.selectFrom("mall_sms_records").where("merchant_id", "=", merchantId);
  if (q.phone) base = base.where("phone", "=", q.phone);
  return paginate(base.selectAll().orderBy("id", "desc"), base, pageWindow(q));
}
