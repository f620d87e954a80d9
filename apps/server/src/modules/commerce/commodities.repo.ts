import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { Currency } from "./repo";
import type { SpecGroup } from "./tables";

/** SQL of commodities, their SKUs and purchasers' resale picks. Every read for a merchant names it. */

export async function insertCommodity(
  tx: Executor,
  c: {
    merchantId: number;
    kind: "physical" | "virtual";
    name: string;
    category: string;
    description: string;
    images: string[];
    videoId: number | null;
    specGroups: SpecGroup[];
    sort: number;
    weightG: number;
    freightFirst: number;
    freightExtra: number;
    freeOver: number | null;
    currency: Currency;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("commerce_commodities")
    .values({
      merchant_id: c.merchantId,
      kind: c.kind,
      name: c.name,
      category: c.category,
      description: c.description,
      images: JSON.stringify(c.images),
      video_id: c.videoId,
      spec_groups: JSON.stringify(c.specGroups),
      sort: c.sort,
      weight_g: c.weightG,
      freight_first: c.freightFirst,
      freight_extra: c.freightExtra,
      free_over: c.freeOver,
      currency: c.currency,
      created_at: c.now,
      updated_at: c.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCommodity(
  tx: Executor,
  id: number,
  merchantId: number,
  c: Partial<{
    name: string;
    category: string;
    description: string;
    images: string[];
    videoId: number | null;
    specGroups: SpecGroup[];
    sort: number;
    onShelf: boolean;
    weightG: number;
    freightFirst: number;
    freightExtra: number;
    freeOver: number | null;
  }> & { now: Date },
): Promise<boolean> {
  const res = await tx
    .updateTable("commerce_commodities")
    .set({
      ...(c.name !== undefined && { name: c.name }),
      ...(c.category !== undefined && { category: c.category }),
      ...(c.description !== undefined && { description: c.description }),
      ...(c.images !== undefined && { images: JSON.stringify(c.images) }),
      ...(c.videoId !== undefined && { video_id: c.videoId }),
      ...(c.specGroups !== undefined && { spec_groups: JSON.stringify(c.specGroups) }),
      ...(c.sort !== undefined && { sort: c.sort }),
      ...(c.onShelf !== undefined && { on_shelf: c.onShelf }),
      ...(c.weightG !== undefined && { weight_g: c.weightG }),
      ...(c.freightFirst !== undefined && { freight_first: c.freightFirst }),
      ...(c.freightExtra !== undefined && { freight_extra: c.freightExtra }),
      ...(c.freeOver !== undefined && { free_over: c.freeOver }),
      updated_at: c.now,
    })
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export function commodityOf(db: Executor, id: number, merchantId?: number) {
  let q = db.selectFrom("commerce_commodities").selectAll().where("id", "=", id);
  if (merchantId !== undefined) q = q.where("merchant_id", "=", merchantId);
  return q.executeTakeFirst();
}
export type CommodityRow = NonNullable<Awaited<ReturnType<typeof commodityOf>>>;

export function lockCommodity(tx: Executor, id: number, merchantId: number) {
  return tx
    .selectFrom("commerce_commodities")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .forUpdate()
    .executeTakeFirst();
}

export function skusOf(db: Executor, commodityIds: number[]) {
  if (commodityIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("commerce_skus")
    .selectAll()
    .where("commodity_id", "in", commodityIds)
    .where("active", "=", true)
    .orderBy("id")
    .execute();
}
export type SkuRow = Awaited<ReturnType<typeof skusOf>>[number];

export function allSkusOf(db: Executor, commodityId: number) {
  return db.selectFrom("commerce_skus").selectAll().where("commodity_id", "=", commodityId).orderBy("id").execute();
}

export async function insertSku(
  tx: Executor,
  s: { commodityId: number; merchantId: number; specs: string[]; price: number; stock: number; code: string },
): Promise<void> {
  await tx
    .insertInto("commerce_skus")
    .values({
      commodity_id: s.commodityId,
      merchant_id: s.merchantId,
      specs: JSON.stringify(s.specs),
      price: s.price,
      stock: s.stock,
      code: s.code,
    })
    .execute();
}

export async function updateSku(
  tx: Executor,
  id: number,
  s: { specs: string[]; price: number; stock: number; code: string; active: boolean },
): Promise<void> {
  await tx
    .updateTable("commerce_skus")
    .set({ specs: JSON.stringify(s.specs), price: s.price, stock: s.stock, code: s.code, active: s.active })
    .where("id", "=", id)
    .execute();
}

export async function deleteSku(tx: Executor, id: number): Promise<void> {
  await tx.deleteFrom("commerce_skus").where("id", "=", id).execute();
}

export async function skuHasOrders(db: Executor, skuId: number): Promise<boolean> {
  return (
    (await db
      .selectFrom("commerce_order_items")
      .select("id")
      .where("sku_id", "=", skuId)
      .limit(1)
      .executeTakeFirst()) !== undefined
  );
}

export async function commodityPage(
  db: Executor,
  f: {
    merchantId?: number;
    kind?: "physical" | "virtual" | undefined;
    name?: string | undefined;
    onShelf?: boolean | undefined;
    pickedBy?: { purchaserId: number; picked: boolean } | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("commerce_commodities as c");
  if (f.merchantId !== undefined) q = q.where("c.merchant_id", "=", f.merchantId);
  if (f.kind) q = q.where("c.kind", "=", f.kind);
  if (f.onShelf !== undefined) q = q.where("c.on_shelf", "=", f.onShelf);
  if (f.name) q = q.where("c.name", "like", `%${f.name.replace(/[\\%_]/g, "\\$&")}%`);
  if (f.pickedBy) {
    const purchaserId = f.pickedBy.purchaserId;
    const picked = sql<boolean>`EXISTS (SELECT 1 FROM commerce_resales r WHERE r.commodity_id = c.id AND r.purchaser_id = ${purchaserId})`;
    q = q.where(f.pickedBy.picked ? picked : sql<boolean>`NOT ${picked}`);
  }
  return paginate(q.selectAll("c").orderBy("c.sort", "desc").orderBy("c.id", "desc"), q, f);
}

export async function pickedIds(db: Executor, purchaserId: number, commodityIds: number[]): Promise<Set<number>> {
  if (commodityIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("commerce_resales")
    .select("commodity_id")
    .where("purchaser_id", "=", purchaserId)
    .where("commodity_id", "in", commodityIds)
    .execute();
  return new Set(rows.map((r) => r.commodity_id));
}

export async function upsertResale(
  tx: Executor,
  purchaserId: number,
  commodityId: number,
  retailPrice: number | null,
  now: Date,
): Promise<void> {
  await tx
    .insertInto("commerce_resales")
    .values({ purchaser_id: purchaserId, commodity_id: commodityId, retail_price: retailPrice, created_at: now })
    .onConflict((oc) => oc.columns(["purchaser_id", "commodity_id"]).doUpdateSet({ retail_price: retailPrice }))
    .execute();
}

export async function deleteResale(tx: Executor, purchaserId: number, commodityId: number): Promise<boolean> {
  const res = await tx
    .deleteFrom("commerce_resales")
    .where("purchaser_id", "=", purchaserId)
    .where("commodity_id", "=", commodityId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
