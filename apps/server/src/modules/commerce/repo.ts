import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { AfterSaleStateCol, OrderStateCol, SpecGroup } from "./tables";

/** SQL of the commerce module. Every read for a merchant names it. */

type Currency = "CNY" | "USD" | "HKD";

/** `= ANY($1::bigint[])`: a list of ids as one parameter, so the statement text (and its prepared plan) is one. */
const anyId = (ids: number[]) => sql<number>`ANY(${ids}::bigint[])`;

// ---- commodities and SKUs

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
  const [rows, count] = await Promise.all([
    q.selectAll("c").orderBy("c.sort", "desc").orderBy("c.id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
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

// ---- orders

/**
 * SKUs an order names, with their commodity and its brand's name, in one read; each row also carries the
 * id of the purchaser's order under `requestKey` when there is one (a replay).
 */
export function skusForOrder(db: Executor, skuIds: number[], replayOf?: { purchaserId: number; requestKey: string }) {
  return db
    .selectFrom("commerce_skus as s")
    .innerJoin("commerce_commodities as c", "c.id", "s.commodity_id")
    .innerJoin("merchants as m", "m.id", "c.merchant_id")
    .select((eb) => [
      "m.name as brand_name",
      replayOf
        ? eb
            .selectFrom("commerce_orders as o")
            .select("o.id")
            .where("o.purchaser_id", "=", replayOf.purchaserId)
            .where("o.request_key", "=", replayOf.requestKey)
            .as("replay_id")
        : sql<number | null>`NULL::bigint`.as("replay_id"),
    ])
    .select([
      "s.id",
      "s.specs",
      "s.price",
      "s.stock",
      "s.active",
      "c.id as commodity_id",
      "c.merchant_id",
      "c.kind",
      "c.name",
      "c.on_shelf",
      "c.currency",
      "c.weight_g",
      "c.freight_first",
      "c.freight_extra",
      "c.free_over",
    ])
    .where("s.id", "in", skuIds)
    .execute();
}

/** Takes `quantity` from a SKU's stock if it has that much; false (nothing changed) if not. */
export async function takeStock(tx: Executor, skuId: number, quantity: number): Promise<boolean> {
  const row = await tx
    .updateTable("commerce_skus")
    .set((eb) => ({ stock: eb("stock", "-", quantity), sold: eb("sold", "+", quantity) }))
    .where("id", "=", skuId)
    .where("stock", ">=", quantity)
    .where("active", "=", true)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function giveStock(tx: Executor, skuId: number, quantity: number): Promise<void> {
  await tx
    .updateTable("commerce_skus")
    .set((eb) => ({ stock: eb("stock", "+", quantity), sold: sql<number>`GREATEST(sold - ${quantity}, 0)` }))
    .where("id", "=", skuId)
    .execute();
}

/** The SQLSTATE of refuse_if (migration 0082): the statement refused itself and wrote nothing. */
export const REFUSED = "TS409";

export interface NewOrder {
  orderNo: string;
  purchaserId: number;
  brandId: number;
  kind: "physical" | "virtual";
  goodsAmount: number;
  freight: number;
  currency: Currency;
  consignee: {
    name: string;
    phone: string;
    provinceCode: string;
    cityCode: string;
    countyCode: string;
    regionNames: string;
    address: string;
  } | null;
  remark: string;
  requestKey: string;
  createdBy: number;
  now: Date;
}
export interface NewOrderLine {
  skuId: number;
  commodityId: number;
  name: string;
  specs: string[];
  unitPrice: number;
  quantity: number;
}

/**
 * An order in one statement, and so in one transaction of its own: the order row, its lines, its audit
 * row and the stock of each SKU, every one of them only when the order row went in (a replayed request
 * key writes nothing and returns null). The SKU rows are locked in id order, so two orders never wait on
 * each other crosswise, and only while the statement runs and commits. A SKU short of stock (or retired)
 * makes the statement refuse itself through refuse_if with the message `commerce.outOfStock:<sku id>`
 * (SQLSTATE REFUSED), and nothing it wrote stays. Returns the order's id and its lines' ids by SKU.
 */
export async function placeOrder(
  db: Executor,
  o: NewOrder,
  lines: NewOrderLine[],
  audit: { actorUserId: number; detail: Record<string, unknown> },
): Promise<{ id: number; itemIds: Map<number, number> } | null> {
  const c = o.consignee;
  const values = sql.join(
    lines.map(
      (l) =>
        sql`(${l.skuId}::bigint, ${l.commodityId}::bigint, ${l.name}::text, ${JSON.stringify(l.specs)}::jsonb, ${l.unitPrice}::bigint, ${l.quantity}::integer)`,
    ),
  );
  const r = await sql<{ id: number | string | null; items: [number, number][] | null; checked: boolean | null }>`
    WITH ins AS (
      INSERT INTO commerce_orders (order_no, purchaser_id, brand_id, kind, state, goods_amount, freight, pay_amount, currency,
        consignee_name, consignee_phone, province_code, city_code, county_code, region_names, address, remark, request_key, created_by, created_at, updated_at)
      VALUES (${o.orderNo}, ${o.purchaserId}, ${o.brandId}, ${o.kind}, 'to_pay', ${o.goodsAmount}, ${o.freight}, ${o.goodsAmount + o.freight}, ${o.currency},
        ${c?.name ?? ""}, ${c?.phone ?? ""}, ${c?.provinceCode ?? ""}, ${c?.cityCode ?? ""}, ${c?.countyCode ?? ""}, ${c?.regionNames ?? ""}, ${c?.address ?? ""},
        ${o.remark}, ${o.requestKey}, ${o.createdBy}, ${o.now}::timestamptz, ${o.now}::timestamptz)
      ON CONFLICT (purchaser_id, request_key) DO NOTHING
      RETURNING id
    ), lines (sku_id, commodity_id, name, specs, unit_price, quantity) AS (
      VALUES ${values}
    ), items AS (
      INSERT INTO commerce_order_items (order_id, sku_id, commodity_id, name, specs, unit_price, quantity, amount)
      SELECT ins.id, l.sku_id, l.commodity_id, l.name, l.specs, l.unit_price, l.quantity, l.unit_price * l.quantity FROM ins, lines l ORDER BY l.sku_id
      RETURNING id, sku_id
    ), audited AS (
      INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, detail)
      SELECT ${audit.actorUserId}::bigint, 'commerce.order.place', 'commerce_order', id::text, ${JSON.stringify(audit.detail)}::jsonb FROM ins
    ), locked AS (
      SELECT s.id FROM commerce_skus s WHERE s.id IN (SELECT sku_id FROM lines) AND EXISTS (SELECT 1 FROM ins) ORDER BY s.id FOR UPDATE
    ), taken AS (
      UPDATE commerce_skus s SET stock = s.stock - l.quantity, sold = s.sold + l.quantity
        FROM lines l
       WHERE s.id = l.sku_id AND s.id IN (SELECT id FROM locked) AND s.stock >= l.quantity AND s.active
      RETURNING s.id
    )
    SELECT (SELECT id FROM ins) AS id,
           (SELECT json_agg(json_build_array(id, sku_id)) FROM items) AS items,
           CASE WHEN EXISTS (SELECT 1 FROM ins) THEN refuse_if(
             (SELECT 'commerce.outOfStock:' || l.sku_id FROM lines l WHERE l.sku_id NOT IN (SELECT id FROM taken) ORDER BY l.sku_id LIMIT 1)
           ) END AS checked`.execute(db);
  const row = r.rows[0];
  if (!row || row.id === null) return null;
  return { id: Number(row.id), itemIds: new Map((row.items ?? []).map(([id, skuId]) => [Number(skuId), Number(id)])) };
}

export function orderByRequestKey(db: Executor, purchaserId: number, requestKey: string) {
  return db
    .selectFrom("commerce_orders")
    .selectAll()
    .where("purchaser_id", "=", purchaserId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function lockOrder(tx: Executor, id: number) {
  return tx.selectFrom("commerce_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}
export function orderOf(db: Executor, id: number) {
  return db.selectFrom("commerce_orders").selectAll().where("id", "=", id).executeTakeFirst();
}
export type OrderRow = NonNullable<Awaited<ReturnType<typeof orderOf>>>;

export async function setOrder(
  tx: Executor,
  id: number,
  c: {
    state?: OrderStateCol;
    refundedDelta?: number;
    closeReason?: string;
    paidAt?: Date;
    shippedAt?: Date;
    receivedAt?: Date;
    completedAt?: Date;
    closedAt?: Date;
    now: Date;
  },
): Promise<void> {
  await tx
    .updateTable("commerce_orders")
    .set((eb) => ({
      ...(c.state !== undefined && { state: c.state }),
      ...(c.refundedDelta !== undefined && { refunded_amount: eb("refunded_amount", "+", c.refundedDelta) }),
      ...(c.closeReason !== undefined && { close_reason: c.closeReason }),
      ...(c.paidAt !== undefined && { paid_at: c.paidAt }),
      ...(c.shippedAt !== undefined && { shipped_at: c.shippedAt }),
      ...(c.receivedAt !== undefined && { received_at: c.receivedAt }),
      ...(c.completedAt !== undefined && { completed_at: c.completedAt }),
      ...(c.closedAt !== undefined && { closed_at: c.closedAt }),
      updated_at: c.now,
    }))
    .where("id", "=", id)
    .execute();
}

export function itemsOf(db: Executor, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  // One array parameter rather than an IN list: one prepared statement whatever the page's length.
  return db
    .selectFrom("commerce_order_items")
    .selectAll()
    .where("order_id", "=", anyId(orderIds))
    .orderBy("id")
    .execute();
}
export type ItemRow = Awaited<ReturnType<typeof itemsOf>>[number];

export function lockItem(tx: Executor, id: number) {
  return tx.selectFrom("commerce_order_items").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function refundItem(tx: Executor, id: number, amount: number, returnedQty: number): Promise<void> {
  await tx
    .updateTable("commerce_order_items")
    .set((eb) => ({ refunded: eb("refunded", "+", amount), returned_qty: eb("returned_qty", "+", returnedQty) }))
    .where("id", "=", id)
    .execute();
}

/** The columns an order reply shows (not its request key, creator or update time): less to read and parse for a page of 1,000. */
const ORDER_LIST_COLUMNS = [
  "id",
  "order_no",
  "purchaser_id",
  "brand_id",
  "kind",
  "state",
  "goods_amount",
  "freight",
  "pay_amount",
  "refunded_amount",
  "currency",
  "consignee_name",
  "consignee_phone",
  "province_code",
  "city_code",
  "county_code",
  "region_names",
  "address",
  "remark",
  "close_reason",
] as const;
type OrderTime = "created_at" | "paid_at" | "shipped_at" | "received_at" | "completed_at" | "closed_at";
/**
 * An order as its reply needs it, its times already as the reply's ISO text (UTC, milliseconds, "Z"):
 * the database writes them, so a page of 1,000 makes no Date objects only to print them again.
 */
export type OrderListRow = Pick<OrderRow, (typeof ORDER_LIST_COLUMNS)[number]> & { created_at: string } & {
  [K in Exclude<OrderTime, "created_at">]: string | null;
};

/**
 * A timestamp as JavaScript's toISOString prints it. Both cut (not round) to the millisecond: pg's date
 * parser hands JavaScript the microseconds as a fraction of a millisecond, which Date drops.
 */
const isoText = <T extends string | null, C extends OrderTime = OrderTime>(column: C) =>
  sql<T>`to_char(${sql.ref(`commerce_orders.${column}`)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
    column,
  );

/** An order read whole, in the list's shape (one order's reply goes through the same presenter). */
export function asListRow(o: Pick<OrderRow, (typeof ORDER_LIST_COLUMNS)[number] | OrderTime>): OrderListRow {
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    ...o,
    created_at: new Date(o.created_at).toISOString(),
    paid_at: iso(o.paid_at),
    shipped_at: iso(o.shipped_at),
    received_at: iso(o.received_at),
    completed_at: iso(o.completed_at),
    closed_at: iso(o.closed_at),
  };
}

export async function orderPage(
  db: Executor,
  f: {
    side: "purchaser" | "brand";
    merchantId: number;
    state?: OrderStateCol | undefined;
    kind?: "physical" | "virtual" | undefined;
    orderNo?: string | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db
    .selectFrom("commerce_orders")
    .where(f.side === "purchaser" ? "purchaser_id" : "brand_id", "=", f.merchantId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.kind) q = q.where("kind", "=", f.kind);
  if (f.orderNo) q = q.where("order_no", "=", f.orderNo);
  if (f.from) q = q.where("created_at", ">=", f.from);
  if (f.to) q = q.where("created_at", "<", f.to);
  const [rows, count] = await Promise.all([
    // Newest first by time (then id): the (merchant, state, created_at, id) indexes serve the date range and the order (0109).
    // The order names the table's columns: a bare created_at would be the ISO text of the select list
    // (PostgreSQL matches output names first), sorted as text, without the index.
    q
      .select(ORDER_LIST_COLUMNS)
      .select(isoText<string, "created_at">("created_at"))
      .select(
        (["paid_at", "shipped_at", "received_at", "completed_at", "closed_at"] as const).map((c) =>
          isoText<string | null>(c),
        ),
      )
      .orderBy("commerce_orders.created_at", "desc")
      .orderBy("commerce_orders.id", "desc")
      .offset(f.offset)
      .limit(f.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Unpaid orders older than `before`, oldest first. */
export function unpaidBefore(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom("commerce_orders")
    .select("id")
    .where("state", "=", "to_pay")
    .where("created_at", "<", before)
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/** Shipped or received orders shipped before `before` with no after-sales case still open. */
export function dueForConfirmation(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom("commerce_orders as o")
    .select("o.id")
    .where("o.state", "in", ["shipped", "received"])
    .where("o.shipped_at", "<", before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("commerce_aftersales as a")
            .select("a.id")
            .whereRef("a.order_id", "=", "o.id")
            .where("a.state", "in", ["apply", "seller_agree", "buyer_delivery", "wait_refund"]),
        ),
      ),
    )
    .orderBy("o.shipped_at")
    .limit(limit)
    .execute();
}

// ---- express

export function companies(db: Executor, name?: string) {
  let q = db.selectFrom("commerce_express_companies").selectAll().orderBy("sort").orderBy("code");
  if (name) q = q.where("name", "like", `%${name.replace(/[\\%_]/g, "\\$&")}%`);
  return q.execute();
}

/** Couriers' names by code (中通快递 for zhongtong), for replies that show a courier. */
export async function companyNames(db: Executor, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom("commerce_express_companies")
    .select(["code", "name"])
    .where("code", "in", [...new Set(codes)])
    .execute();
  return new Map(rows.map((r) => [r.code, r.name]));
}

export function itemsOfOrder(db: Executor, orderId: number) {
  return db
    .selectFrom("commerce_order_items")
    .select(["id", "quantity", "returned_qty"])
    .where("order_id", "=", orderId)
    .execute();
}

export function companyOf(db: Executor, code: string) {
  return db.selectFrom("commerce_express_companies").selectAll().where("code", "=", code).executeTakeFirst();
}

export async function insertShipment(
  tx: Executor,
  s: {
    orderId: number;
    brandId: number;
    purchaserId: number;
    aftersaleId: number | null;
    companyCode: string;
    waybillNo: string;
    courier: "local" | "kuaidi100" | "manual";
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("commerce_shipments")
    .values({
      order_id: s.orderId,
      brand_id: s.brandId,
      purchaser_id: s.purchaserId,
      aftersale_id: s.aftersaleId,
      company_code: s.companyCode,
      waybill_no: s.waybillNo,
      courier: s.courier,
      created_at: s.now,
      updated_at: s.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function shipmentsOfOrders(db: Executor, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("commerce_shipments")
    .selectAll()
    .where("order_id", "=", anyId(orderIds))
    .where("aftersale_id", "is", null)
    .execute();
}
export type ShipmentRow = Awaited<ReturnType<typeof shipmentsOfOrders>>[number];

export function shipmentByWaybill(db: Executor, companyCode: string, waybillNo: string) {
  return db
    .selectFrom("commerce_shipments")
    .selectAll()
    .where("company_code", "=", companyCode)
    .where("waybill_no", "=", waybillNo)
    .forUpdate()
    .executeTakeFirst();
}

export function lockShipment(tx: Executor, id: number, brandId: number) {
  return tx
    .selectFrom("commerce_shipments")
    .selectAll()
    .where("id", "=", id)
    .where("brand_id", "=", brandId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setShipment(
  tx: Executor,
  id: number,
  c: { state?: number; signedAt?: Date; companyCode?: string; waybillNo?: string; remark?: string; now: Date },
): Promise<void> {
  await tx
    .updateTable("commerce_shipments")
    .set({
      ...(c.state !== undefined && { state: c.state }),
      ...(c.signedAt !== undefined && { signed_at: c.signedAt }),
      ...(c.companyCode !== undefined && { company_code: c.companyCode }),
      ...(c.waybillNo !== undefined && { waybill_no: c.waybillNo }),
      ...(c.remark !== undefined && { remark: c.remark }),
      updated_at: c.now,
    })
    .where("id", "=", id)
    .execute();
}

export async function shipmentPage(
  db: Executor,
  f: { brandId: number; waybillNo?: string | undefined; signed?: boolean | undefined; offset: number; limit: number },
) {
  let q = db.selectFrom("commerce_shipments").where("brand_id", "=", f.brandId);
  if (f.waybillNo) q = q.where("waybill_no", "=", f.waybillNo);
  if (f.signed !== undefined) q = q.where("signed_at", f.signed ? "is not" : "is", null);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Stores events once: a replayed push adds nothing. Returns how many were new. */
export async function insertEvents(
  tx: Executor,
  shipmentId: number,
  events: { at: Date; state: number; context: string; area: string }[],
  now: Date,
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await tx
    .insertInto("commerce_tracking_events")
    .values(
      events.map((e) => ({
        shipment_id: shipmentId,
        at: e.at,
        state: e.state,
        context: e.context,
        area: e.area,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(["shipment_id", "at", "state", "context"]).doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

/**
 * A push of in-transit events in one statement (no transaction of its own): the waybill's shipment row
 * locked, the events stored once, its state set to the newest event's (stored or new). `found` false for
 * an unknown waybill. Pushes that sign, refuse or correct the company take the transaction in the service.
 */
export async function ingestPlainEvents(
  db: Executor,
  companyCode: string,
  waybillNo: string,
  events: { at: Date; state: number; context: string; area: string }[],
  now: Date,
): Promise<{ found: boolean; added: number }> {
  if (events.length === 0) {
    const s = await db
      .selectFrom("commerce_shipments")
      .select("id")
      .where("company_code", "=", companyCode)
      .where("waybill_no", "=", waybillNo)
      .executeTakeFirst();
    return { found: s !== undefined, added: 0 };
  }
  const values = sql.join(
    events.map((e) => sql`(${e.at}::timestamptz, ${e.state}::integer, ${e.context}::text, ${e.area}::text)`),
  );
  const r = await sql<{ found: string; added: string }>`
    WITH s AS (
      SELECT id FROM commerce_shipments WHERE company_code = ${companyCode} AND waybill_no = ${waybillNo} FOR UPDATE
    ), ins AS (
      INSERT INTO commerce_tracking_events (shipment_id, at, state, context, area, created_at)
      SELECT s.id, v.at, v.state, v.context, v.area, ${now}::timestamptz FROM s, (VALUES ${values}) AS v (at, state, context, area)
      ON CONFLICT (shipment_id, at, state, context) DO NOTHING
      RETURNING id, at, state
    ), upd AS (
      -- The newest new event sets the state when nothing stored is newer (a later id wins a tie, as in the
      -- tracking list); a replay or an older event changes nothing. The stored events read here are the
      -- ones before this statement: its own inserts are not visible to it.
      UPDATE commerce_shipments sh
         SET state = n.state, updated_at = ${now}::timestamptz
        FROM s, (SELECT at, state FROM ins ORDER BY at DESC, id DESC LIMIT 1) n
       WHERE sh.id = s.id
         AND n.at >= COALESCE((SELECT max(e.at) FROM commerce_tracking_events e WHERE e.shipment_id = s.id), '-infinity'::timestamptz)
      RETURNING sh.id
    )
    SELECT (SELECT count(*) FROM s) AS found, (SELECT count(*) FROM ins) AS added`.execute(db);
  const row = r.rows[0];
  return { found: Number(row?.found ?? 0) > 0, added: Number(row?.added ?? 0) };
}

export function eventsOf(db: Executor, shipmentIds: number[]) {
  if (shipmentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("commerce_tracking_events")
    .selectAll()
    .where("shipment_id", "=", anyId(shipmentIds))
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .execute();
}

export async function insertSim(
  tx: Executor,
  s: {
    waybillNo: string;
    companyCode: string;
    outcome: "signed" | "refused" | "returned";
    stepSeconds: number;
    now: Date;
  },
): Promise<void> {
  await tx
    .insertInto("commerce_courier_sim")
    .values({
      waybill_no: s.waybillNo,
      company_code: s.companyCode,
      outcome: s.outcome,
      step_seconds: s.stepSeconds,
      created_at: s.now,
    })
    .onConflict((oc) => oc.column("waybill_no").doNothing())
    .execute();
}

export function openSims(db: Executor, limit: number) {
  return db
    .selectFrom("commerce_courier_sim")
    .selectAll()
    .where("done", "=", false)
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/** Moves a simulated waybill from `from` pushed steps to `to`; false when another process did it first. */
export async function advanceSim(
  tx: Executor,
  waybillNo: string,
  from: number,
  to: number,
  done: boolean,
): Promise<boolean> {
  const row = await tx
    .updateTable("commerce_courier_sim")
    .set({ pushed: to, done })
    .where("waybill_no", "=", waybillNo)
    .where("pushed", "=", from)
    .returning("waybill_no")
    .executeTakeFirst();
  return row !== undefined;
}

// ---- after-sales

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
  const [rows, count] = await Promise.all([
    q.selectAll("a").select("o.order_no").orderBy("a.id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
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

export async function shopCounts(db: Executor, merchantId: number) {
  const r = await sql<{ commodities: string; on_shelf: string; orders: string; to_ship: string; aftersales: string }>`
    SELECT (SELECT COUNT(*) FROM commerce_commodities WHERE merchant_id = ${merchantId})::text AS commodities,
           (SELECT COUNT(*) FROM commerce_commodities WHERE merchant_id = ${merchantId} AND on_shelf)::text AS on_shelf,
           (SELECT COUNT(*) FROM commerce_orders WHERE brand_id = ${merchantId})::text AS orders,
           (SELECT COUNT(*) FROM commerce_orders WHERE brand_id = ${merchantId} AND state = 'to_ship')::text AS to_ship,
           (SELECT COUNT(*) FROM commerce_aftersales WHERE brand_id = ${merchantId} AND state IN ('apply', 'buyer_delivery'))::text AS aftersales`.execute(
    db,
  );
  const row = r.rows[0];
  return {
    commodities: Number(row?.commodities ?? 0),
    onShelf: Number(row?.on_shelf ?? 0),
    orders: Number(row?.orders ?? 0),
    toShip: Number(row?.to_ship ?? 0),
    aftersales: Number(row?.aftersales ?? 0),
  };
}

/** Invariants for the tests: stock never below zero, refunds never above what was paid. */
export async function invariantProblems(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const neg = await db.selectFrom("commerce_skus").select("id").where("stock", "<", 0).execute();
  for (const r of neg) problems.push(`sku ${r.id} below zero`);
  const over = await sql<{
    id: number;
  }>`SELECT o.id FROM commerce_orders o WHERE o.refunded_amount < (SELECT COALESCE(SUM(refunded), 0) FROM commerce_order_items i WHERE i.order_id = o.id)`.execute(
    db,
  );
  for (const r of over.rows) problems.push(`order ${r.id} refunds less than its lines`);
  return problems;
}
