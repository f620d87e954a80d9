import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import { anyId, type Currency } from "./repo";
import type { OrderStateCol } from "./tables";

/** SQL of orders and their lines: stock taken and given back, the order in one statement, pages and timers. */

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
  // Newest first by time (then id): the (merchant, state, created_at, id) indexes serve the date range and the order (0109).
  // The order names the table's columns: a bare created_at would be the ISO text of the select list
  // (PostgreSQL matches output names first), sorted as text, without the index.
  return paginate(
    q
      .select(ORDER_LIST_COLUMNS)
      .select(isoText<string, "created_at">("created_at"))
      .select(
        (["paid_at", "shipped_at", "received_at", "completed_at", "closed_at"] as const).map((c) =>
          isoText<string | null>(c),
        ),
      )
      .orderBy("commerce_orders.created_at", "desc")
      .orderBy("commerce_orders.id", "desc"),
    q,
    f,
  );
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

export function itemsOfOrder(db: Executor, orderId: number) {
  return db
    .selectFrom("commerce_order_items")
    .select(["id", "quantity", "returned_qty"])
    .where("order_id", "=", orderId)
    .execute();
}
