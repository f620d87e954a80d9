import type { MerchandiseQuery, ProductSearchQuery } from "@tessera/contracts";
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type SqlBool,
  type Updateable,
} from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { DB } from "../../db/schema";
import type { Executor } from "../../db/tx";
import type { CatalogBrandsTable, CatalogGoodsTable } from "./tables";

/** SQL of the catalog module. Every supplier-side query takes the tenant (merchant id) as an argument. */

export type BrandRow = Selectable<CatalogBrandsTable>;
export type GoodsRow = Selectable<CatalogGoodsTable> & { brand_name: string };

/* ---------- brands ---------- */

export function listBrands(db: Executor, merchantId: number) {
  return db
    .selectFrom("catalog_brands as b")
    .selectAll("b")
    .select((eb) =>
      eb
        .selectFrom("catalog_goods as g")
        .whereRef("g.brand_id", "=", "b.id")
        .where("g.state", "<>", "void")
        .select((e) => e.fn.countAll<number>().as("n"))
        .as("goods_count"),
    )
    .where("b.merchant_id", "=", merchantId)
    .orderBy("b.id")
    .execute();
}

export function findBrand(db: Executor, merchantId: number, brandId: number) {
  return db
    .selectFrom("catalog_brands")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", brandId)
    .executeTakeFirst();
}

export async function insertBrand(tx: Executor, row: Insertable<CatalogBrandsTable>): Promise<number> {
  return (await tx.insertInto("catalog_brands").values(row).returning("id").executeTakeFirstOrThrow()).id;
}

export async function updateBrand(
  tx: Executor,
  merchantId: number,
  brandId: number,
  patch: Updateable<CatalogBrandsTable>,
): Promise<boolean> {
  const r = await tx
    .updateTable("catalog_brands")
    .set({ ...patch, updated_at: sql`now()` })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", brandId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * A condition on a goods row `g` (catalog_goods as g): whether the reading purchaser may buy it. The
 * purchasing module owns the rule (docking, brand authorisation, whitelists); the catalog only applies it.
 */
export type Buyable = Expression<SqlBool>;

/**
 * How a purchaser sees the goods on sale: which it may buy, and its own price of each (NULL: the list
 * price), both written by the purchasing module as SQL over the goods row `g`.
 */
export interface PurchaserView {
  buyable: Buyable;
  agreedPrice: RawBuilder<number | string | null>;
}
export type OfferedGoodsRow = GoodsRow & { agreed_price: number | string | null };

/** Brands that have goods on sale the purchaser may buy, for its brand filter. */
export function brandsOnSale(db: Executor, selection: string, buyable: Buyable) {
  return db
    .selectFrom("catalog_brands as b")
    .select(["b.id", "b.name"])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("catalog_goods as g")
          .select("g.id")
          .whereRef("g.brand_id", "=", "b.id")
          .where("g.state", "=", "available")
          .where("g.selection", "=", selection)
          .where(buyable),
      ),
    )
    .orderBy("b.name")
    .limit(500)
    .execute();
}

export async function faceValuesOnSale(db: Executor, selection: string, buyable: Buyable): Promise<number[]> {
  const rows = await db
    .selectFrom("catalog_goods as g")
    .select("g.face_value")
    .distinct()
    .where("g.state", "=", "available")
    .where("g.selection", "=", selection)
    .where(buyable)
    .orderBy("g.face_value")
    .limit(200)
    .execute();
  return rows.map((r) => r.face_value);
}

/** The goods keyword rule's terms: a name pattern (LIKE specials escaped) and, for a number, an id. */
function keywordTerms(keyword: string): { like: string; byId: number | null } {
  return {
    like: `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    byId: /^\d{1,15}$/.test(keyword) ? Number(keyword) : null,
  };
}

/**
 * A condition for another module's list keyed by goods id: the goods' name contains the keyword, or its
 * code or id equals it (the same keyword rule as the supplier's goods search).
 */
export function goodsMatching(keyword: string, goodsId: Expression<unknown>): RawBuilder<boolean> {
  const { like, byId } = keywordTerms(keyword);
  return sql<boolean>`EXISTS (SELECT 1 FROM catalog_goods kg WHERE kg.id = ${goodsId}
    AND (kg.name ILIKE ${like} OR kg.code = ${keyword}${byId !== null ? sql` OR kg.id = ${byId}` : sql``}))`;
}

/* ---------- goods ---------- */

function goodsBase(db: Executor) {
  return db
    .selectFrom("catalog_goods as g")
    .innerJoin("catalog_brands as b", "b.id", "g.brand_id")
    .selectAll("g")
    .select("b.name as brand_name");
}

export function findGoods(db: Executor, merchantId: number, goodsId: number): Promise<GoodsRow | undefined> {
  return goodsBase(db).where("g.merchant_id", "=", merchantId).where("g.id", "=", goodsId).executeTakeFirst();
}

/** A goods on sale the purchaser may buy, whoever supplies it (goods selection detail). */
export function findGoodsOnSale(
  db: Executor,
  goodsId: number,
  view: PurchaserView,
): Promise<OfferedGoodsRow | undefined> {
  return goodsBase(db)
    .select(view.agreedPrice.as("agreed_price"))
    .where("g.id", "=", goodsId)
    .where("g.state", "=", "available")
    .where(view.buyable)
    .executeTakeFirst();
}

export function findGoodsByIds(db: Executor, ids: number[]): Promise<GoodsRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return goodsBase(db).where("g.id", "in", ids).execute();
}

/** Locks the goods row: stock counters change only under this lock. */
export function lockGoods(tx: Executor, goodsId: number) {
  return tx.selectFrom("catalog_goods").selectAll().where("id", "=", goodsId).forUpdate().executeTakeFirst();
}

export function peekGoods(db: Executor, goodsId: number) {
  return db.selectFrom("catalog_goods").selectAll().where("id", "=", goodsId).executeTakeFirst();
}

type GoodsCondition = (eb: ExpressionBuilder<DB & { g: CatalogGoodsTable }, "g">) => Expression<SqlBool>;

/**
 * A page of goods (newest first) and their count, under the same conditions: void goods are left out
 * unless `state` asks for them. The count runs on catalog_goods alone, without the brand join.
 */
async function goodsPage(
  db: Executor,
  conditions: GoodsCondition[],
  q: { state?: string | undefined; page: number; pageSize: number },
): Promise<{ rows: GoodsRow[]; total: number }> {
  const state: GoodsCondition = (eb) => (q.state ? eb("g.state", "=", q.state) : eb("g.state", "<>", "void"));
  let query = goodsBase(db);
  let count = db.selectFrom("catalog_goods as g");
  for (const c of [...conditions, state]) {
    query = query.where(c);
    count = count.where(c);
  }
  return paginate(query.orderBy("g.id", "desc"), count, pageWindow(q));
}

/** The supplier's goods keyword rule as a condition on `g`: the name contains it, or the code or id equals it. */
function keywordCondition(keyword: string): GoodsCondition {
  const { like, byId } = keywordTerms(keyword);
  return (eb) =>
    eb.or([eb("g.name", "ilike", like), eb("g.code", "=", keyword), ...(byId !== null ? [eb("g.id", "=", byId)] : [])]);
}

export async function searchGoods(
  db: Executor,
  merchantId: number,
  q: ProductSearchQuery,
): Promise<{ rows: GoodsRow[]; total: number }> {
  // Filters only on catalog_goods columns, so the count uses catalog_goods_merchant_count_idx when there
  // is no keyword.
  const conditions: GoodsCondition[] = [(eb) => eb("g.merchant_id", "=", merchantId)];
  if (q.keyword) conditions.push(keywordCondition(q.keyword));
  for (const [column, value] of [
    ["g.brand_id", q.brandId],
    ["g.business_type", q.businessType],
    ["g.equity_type", q.equityType],
    ["g.invoice_type", q.invoiceType],
  ] as const) {
    if (value !== undefined) conditions.push((eb) => eb(column, "=", value));
  }
  return goodsPage(db, conditions, q);
}

/** Goods selection (spec 01 §2 screen 10): goods on sale of one selection type, with the screen's filters. */
export async function selectGoods(
  db: Executor,
  q: MerchandiseQuery,
  version: "domestic" | "international",
  view: PurchaserView,
): Promise<{ rows: OfferedGoodsRow[]; total: number }> {
  const buyable = view.buyable;
  const scopes = ["all", version];
  // The filters are written against catalog_goods alone, so the count needs no join (and can be answered
  // from catalog_goods_selection_count_idx); only a keyword also looks at the brand name.
  let count = db
    .selectFrom("catalog_goods as g")
    .where("g.state", "=", "available")
    .where("g.selection", "=", q.type)
    .where("g.sales_scope", "in", scopes)
    .where(buyable);
  let query = goodsBase(db)
    .select(view.agreedPrice.as("agreed_price"))
    .where("g.state", "=", "available")
    .where("g.selection", "=", q.type)
    .where("g.sales_scope", "in", scopes)
    .where(buyable);
  if (q.keyword) {
    const { like } = keywordTerms(q.keyword);
    query = query.where((eb) => eb.or([eb("g.name", "ilike", like), eb("b.name", "ilike", like)]));
    count = count.where((eb) =>
      eb.or([
        eb("g.name", "ilike", like),
        eb.exists(
          eb
            .selectFrom("catalog_brands as b")
            .select("b.id")
            .whereRef("b.id", "=", "g.brand_id")
            .where("b.name", "ilike", like),
        ),
      ]),
    );
  }
  if (q.brandId) {
    query = query.where("g.brand_id", "=", q.brandId);
    count = count.where("g.brand_id", "=", q.brandId);
  }
  if (q.equityType) {
    query = query.where("g.equity_type", "=", q.equityType);
    count = count.where("g.equity_type", "=", q.equityType);
  }
  if (q.faceValue) {
    query = query.where("g.face_value", "=", q.faceValue);
    count = count.where("g.face_value", "=", q.faceValue);
  }
  if (q.invoiceType) {
    query = query.where("g.invoice_type", "=", q.invoiceType);
    count = count.where("g.invoice_type", "=", q.invoiceType);
  }
  const ordered =
    q.sort === "sales"
      ? query.orderBy("g.sales_index", "desc").orderBy("g.id", "desc")
      : query.orderBy("g.recommendation_index", "desc").orderBy("g.id", "desc");
  return paginate(ordered, count, pageWindow(q));
}

export async function insertGoods(tx: Executor, row: Insertable<CatalogGoodsTable>): Promise<number> {
  return (await tx.insertInto("catalog_goods").values(row).returning("id").executeTakeFirstOrThrow()).id;
}

export async function updateGoods(
  tx: Executor,
  merchantId: number,
  goodsId: number,
  patch: Updateable<CatalogGoodsTable>,
): Promise<void> {
  await tx
    .updateTable("catalog_goods")
    .set({ ...patch, updated_at: sql`now()` })
    .where("merchant_id", "=", merchantId)
    .where("id", "=", goodsId)
    .execute();
}

type Counters = { stock: number; low_stock_threshold: number; low_stock_notified_at: Date | null };
type CounterDelta = { stock?: number; sold?: number; voided?: number; expired?: number };

export function adjustCounters(tx: Executor, goodsId: number, delta: CounterDelta): Promise<Counters>;
export function adjustCounters(
  tx: Executor,
  goodsId: number,
  delta: CounterDelta,
  guard: { onlyAvailable: true },
): Promise<Counters | undefined>;
export async function adjustCounters(
  tx: Executor,
  goodsId: number,
  delta: CounterDelta,
  guard?: { onlyAvailable: true },
): Promise<Counters | undefined> {
  const q = tx
    .updateTable("catalog_goods")
    .set((eb) => ({
      stock: eb("stock", "+", delta.stock ?? 0),
      sold: eb("sold", "+", delta.sold ?? 0),
      voided: eb("voided", "+", delta.voided ?? 0),
      expired: eb("expired", "+", delta.expired ?? 0),
    }))
    .where("id", "=", goodsId)
    .$if(guard?.onlyAvailable === true, (u) => u.where("state", "=", "available"))
    .returning(["stock", "low_stock_threshold", "low_stock_notified_at"]);
  return guard ? q.executeTakeFirst() : q.executeTakeFirstOrThrow();
}

/**
 * adjustCounters for a sale with lowStockAfter's flag in the same UPDATE, as a CTE of a caller's
 * statement (see sellStockCte).
 */
export function sellCountersCte(
  name: string,
  goodsId: number,
  sold: RawBuilder<number>,
  now: Date,
): { cte: RawBuilder<unknown>; result: RawBuilder<unknown> } {
  const ref = sql.raw(name);
  return {
    // catalog_sell_counters (migration 0086) is the UPDATE this CTE ran before, as its own small
    // statement: the re-check after waiting for a concurrent order's lock on the row stays small.
    cte: sql`${ref} AS (SELECT * FROM catalog_sell_counters(${goodsId}::bigint, ${sold}, ${now}::timestamptz))`,
    result: sql`(SELECT json_build_array(stock, low_stock_threshold, sold) FROM ${ref})`,
  };
}

export async function setLowStockNotified(tx: Executor, goodsId: number, at: Date | null): Promise<void> {
  await tx.updateTable("catalog_goods").set({ low_stock_notified_at: at }).where("id", "=", goodsId).execute();
}

/* ---------- combo children ---------- */

export function listChildren(db: Executor, parentId: number) {
  return db
    .selectFrom("catalog_goods_children as c")
    .innerJoin("catalog_goods as g", "g.id", "c.child_id")
    .select(["g.id", "g.name", "g.settlement_price", "c.quantity"])
    .where("c.parent_id", "=", parentId)
    .orderBy("c.created_at")
    .execute();
}

export async function upsertChild(tx: Executor, parentId: number, childId: number, quantity: number): Promise<void> {
  await tx
    .insertInto("catalog_goods_children")
    .values({ parent_id: parentId, child_id: childId, quantity })
    .onConflict((oc) => oc.columns(["parent_id", "child_id"]).doUpdateSet({ quantity }))
    .execute();
}

/**
 * A merchant's own goods (void ones left out) as id and name, newest first, for another module's goods
 * picker: those matching the keyword (the goods search's rule), or those among `ids` (an ownership check).
 */
export function ownGoodsChoices(
  db: Executor,
  merchantId: number,
  f: { keyword?: string | undefined; ids?: number[]; limit: number },
): Promise<{ id: number; name: string }[]> {
  let q = db
    .selectFrom("catalog_goods as g")
    .select(["g.id", "g.name"])
    .where("g.merchant_id", "=", merchantId)
    .where("g.state", "<>", "void");
  if (f.keyword) q = q.where(keywordCondition(f.keyword));
  if (f.ids) {
    if (f.ids.length === 0) return Promise.resolve([]);
    q = q.where("g.id", "in", f.ids);
  }
  return q.orderBy("g.id", "desc").limit(f.limit).execute();
}

export async function goodsNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("catalog_goods")
    .select(["id", "name"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
