import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../../db/tx";
import { PLATFORM_UTC_OFFSET } from "../../platform/clock";
import { PURCHASABLE_GOODS_COLUMNS, type PurchasableGoodsRow } from "../catalog";
import { mayBuyCondition } from "../docking";
import { agreedPriceOf } from "./agreed-price.sql";
import type { OrderStateColumn, RefundCause, RefundStateColumn } from "./tables";

/** SQL of the purchasing module: purchase orders, applications and refunds. Each read names the merchant it is for. */

export interface NewOrder {
  orderNo: string;
  purchaserId: number;
  supplierId: number;
  goodsId: number;
  goodsName: string;
  businessType: string;
  quantity: number;
  unitPrice: number;
  faceValue: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  state: OrderStateColumn;
  topUpAccount: string | null;
  /** The purchaser's account that pays. */
  paidFrom: "sup" | "rebate";
  /** Store vouchers: paid into the order escrow, released to the supplier as codes are redeemed and settled. */
  heldUntilRedeemed: boolean;
  digest: string;
  createdBy: number | null;
  /** Set for an order finished as it is placed (codes from stock). */
  finishedAt?: Date;
}

/**
 * Everything an order checks before its transaction, in one statement: the purchaser (name, version,
 * currency), an order it already placed under this number, the goods and its supplier's name, whether
 * the purchaser may buy it (mayBuyCondition), the price an approved application agreed, and the id the
 * new order will take (drawn now so the order's result callback can be written with the order's insert;
 * an id drawn for an order that is refused is skipped, like any rolled-back sequence value).
 * Undefined when the purchaser does not exist.
 */
export async function orderFacts(
  db: Executor,
  q: {
    purchaserId: number;
    goodsId: number;
    orderNo: string;
    day: string;
    /** false for a quote: no order follows, so no id is drawn (nextId is 0). */ drawId?: boolean;
  },
): Promise<OrderFacts | undefined> {
  const r = await sql<FactsRow>`
    SELECT m.name AS purchaser_name, m.version AS purchaser_version, m.currency AS purchaser_currency, m.real_name_state AS purchaser_real_name_state,
      o.id AS existing_id, o.request_digest AS existing_digest,
      ${sql.join(PURCHASABLE_GOODS_COLUMNS.map((c) => sql.ref(`g.${c}`)))},
      s.name AS supplier_name,
      g.id IS NOT NULL AND ${mayBuyCondition(q.purchaserId, q.day, sql.ref("g.merchant_id"), sql.ref("g.id"))} AS may_buy,
      ${agreedPriceOf(sql.ref("m.id"), sql.ref("g.id"))} AS agreed_price,
      ${q.drawId === false ? sql`0` : sql`nextval('purchase_orders_id_seq')`} AS next_id
    FROM merchants m
    LEFT JOIN purchase_orders o ON o.purchaser_merchant_id = m.id AND o.order_no = ${q.orderNo}
    LEFT JOIN catalog_goods g ON g.id = ${q.goodsId}
    LEFT JOIN merchants s ON s.id = g.merchant_id
    WHERE m.id = ${q.purchaserId}`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    purchaser: {
      id: q.purchaserId,
      name: row.purchaser_name,
      version: row.purchaser_version,
      currency: row.purchaser_currency,
      realNameState: row.purchaser_real_name_state,
    },
    existing: row.existing_id === null ? null : { id: row.existing_id, digest: row.existing_digest ?? "" },
    goods: row.id === null ? null : (row as PurchasableGoodsRow),
    supplierName: row.supplier_name ?? "",
    mayBuy: row.may_buy === true,
    agreedPrice: row.agreed_price === null ? null : Number(row.agreed_price),
    nextId: Number(row.next_id),
  };
}

type FactsRow = { [K in keyof PurchasableGoodsRow]: PurchasableGoodsRow[K] | null } & {
  purchaser_name: string;
  purchaser_version: "domestic" | "international";
  purchaser_currency: "CNY" | "USD" | "HKD";
  purchaser_real_name_state: "not_verified" | "verified" | "expired";
  existing_id: number | null;
  existing_digest: string | null;
  supplier_name: string | null;
  may_buy: boolean | null;
  agreed_price: number | string | null;
  next_id: number | string;
};

export interface OrderFacts {
  purchaser: {
    id: number;
    name: string;
    version: "domestic" | "international";
    currency: "CNY" | "USD" | "HKD";
    realNameState: "not_verified" | "verified" | "expired";
  };
  /** An order the purchaser already placed under this number. */
  existing: { id: number; digest: string } | null;
  goods: PurchasableGoodsRow | null;
  supplierName: string;
  mayBuy: boolean;
  /** The purchaser's own price from an approved purchase application (its secret price first). */
  agreedPrice: number | null;
  nextId: number;
}

/** Another module's share of an order's statement (its codes, its ledger movement, its result callback). */
export interface OrderPart {
  /** CTEs ("name AS (...)", comma-separated) that write only when `inserted` (a query) returns a row. */
  ctes(inserted: RawBuilder<unknown>): RawBuilder<unknown>;
  /** An expression over the part's CTEs, returned (as JSON) to the part's owner. */
  result?: RawBuilder<unknown>;
  /** Why the statement must be refused (a message key), or NULL: see refuse_if (migration 0082). */
  refusal?: RawBuilder<string | null>;
}

/** The SQLSTATE of refuse_if: the statement refused itself and wrote nothing. */
export const REFUSED = "TS409";

/**
 * An order in one statement, and so in one transaction of its own: the order row under the id
 * orderFacts drew, its audit row, and each part's writes, every one of them only when the order row
 * went in. When a part's refusal names a reason the statement raises it (SQLSTATE REFUSED, the reason
 * as message) and nothing it wrote stays. The parts run in the order given (their results and refusals
 * are read in that order), so every order locks the contended rows in the same order, and holds those
 * locks only while the statement runs and commits. Undefined when the purchaser already used the
 * order number (nothing written); otherwise the row and each part's result, by index (null for a part
 * that is absent or has none).
 */
export async function placeOrder(
  db: Executor,
  o: NewOrder & { id: number },
  audit: { actorUserId: number | null; detail: Record<string, unknown> },
  parts: (OrderPart | undefined)[],
): Promise<{ order: OrderRow; results: unknown[] } | undefined> {
  const finishedAt = o.finishedAt ?? null;
  const inserted = sql`SELECT 1 FROM ins`;
  const ctes = parts.flatMap((p) => (p ? [sql`, ${p.ctes(inserted)}`] : []));
  const results =
    parts.length === 0 ? sql`'[]'::json` : sql`json_build_array(${sql.join(parts.map((p) => p?.result ?? sql`NULL`))})`;
  const refusals = sql.join([...parts.flatMap((p) => (p?.refusal ? [p.refusal] : [])), sql`NULL::text`]);
  const r = await sql<{ created_at: Date | null; results: unknown[] }>`
    WITH ins AS (
      INSERT INTO purchase_orders (id, order_no, purchaser_merchant_id, supplier_merchant_id, goods_id, goods_name, business_type, quantity,
        unit_price, face_value, amount, currency, state, top_up_account, paid_from, held_until_redeemed, request_digest, created_by, finished_at)
      VALUES (${o.id}, ${o.orderNo}, ${o.purchaserId}, ${o.supplierId}, ${o.goodsId}, ${o.goodsName}, ${o.businessType}, ${o.quantity},
        ${o.unitPrice}, ${o.faceValue}, ${o.amount}, ${o.currency}, ${o.state}, ${o.topUpAccount}, ${o.paidFrom}, ${o.heldUntilRedeemed}, ${o.digest}, ${o.createdBy}, ${finishedAt}::timestamptz)
      ON CONFLICT (purchaser_merchant_id, order_no) DO NOTHING
      RETURNING id, created_at),
    audited AS (
      INSERT INTO audit_log (actor_user_id, action, subject_type, subject_id, detail)
      SELECT ${audit.actorUserId}::bigint, 'order.create', 'purchase_order', id::text, ${JSON.stringify(audit.detail)}::jsonb FROM ins)${sql.join(ctes, sql``)}
    SELECT (SELECT created_at FROM ins) AS created_at, ${results} AS results,
      CASE WHEN EXISTS (SELECT 1 FROM ins) THEN refuse_if(coalesce(${refusals})) END AS checked`.execute(db);
  const row = r.rows[0];
  if (!row?.created_at) return undefined;
  return {
    results: row.results,
    order: {
      id: o.id,
      order_no: o.orderNo,
      purchaser_merchant_id: o.purchaserId,
      supplier_merchant_id: o.supplierId,
      goods_id: o.goodsId,
      goods_name: o.goodsName,
      business_type: o.businessType,
      quantity: o.quantity,
      unit_price: o.unitPrice,
      face_value: o.faceValue,
      amount: o.amount,
      currency: o.currency,
      state: o.state,
      top_up_account: o.topUpAccount,
      paid_from: o.paidFrom,
      held_until_redeemed: o.heldUntilRedeemed,
      upstream_channel_id: null,
      fail_reason: null,
      refunded: false,
      request_digest: o.digest,
      created_by: o.createdBy,
      created_at: row.created_at,
      finished_at: finishedAt,
    },
  };
}

export function findOrderByNo(db: Executor, purchaserId: number, orderNo: string) {
  return db
    .selectFrom("purchase_orders")
    .selectAll()
    .where("purchaser_merchant_id", "=", purchaserId)
    .where("order_no", "=", orderNo)
    .executeTakeFirst();
}

export function findOrder(db: Executor, id: number) {
  return db.selectFrom("purchase_orders").selectAll().where("id", "=", id).executeTakeFirst();
}

export function lockOrder(tx: Executor, id: number) {
  return tx.selectFrom("purchase_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export type OrderRow = NonNullable<Awaited<ReturnType<typeof findOrder>>>;

export async function finishOrder(
  tx: Executor,
  id: number,
  c: { state: "success" | "failure"; upstreamChannelId?: string; failReason?: string; refunded?: boolean; at: Date },
): Promise<void> {
  await tx
    .updateTable("purchase_orders")
    .set({
      state: c.state,
      finished_at: c.at,
      ...(c.upstreamChannelId !== undefined && { upstream_channel_id: c.upstreamChannelId }),
      ...(c.failReason !== undefined && { fail_reason: c.failReason }),
      ...(c.refunded !== undefined && { refunded: c.refunded }),
    })
    .where("id", "=", id)
    .execute();
}

/** Who a list is for (a purchaser, a supplier, or both sides named) and its UTC+8 day range. */
export interface ListFilter {
  purchaserId?: number | undefined;
  supplierId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}
const dayStart = (day: string) => new Date(`${day}T00:00:00${PLATFORM_UTC_OFFSET}`);
const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

export async function orderPage(
  db: Executor,
  f: ListFilter & {
    state?: OrderStateColumn | undefined;
    orderNo?: string | undefined;
    goodsId?: number | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("purchase_orders");
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.supplierId !== undefined) q = q.where("supplier_merchant_id", "=", f.supplierId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.orderNo) q = q.where("order_no", "=", f.orderNo);
  if (f.goodsId !== undefined) q = q.where("goods_id", "=", f.goodsId);
  if (f.from) q = q.where("created_at", ">=", dayStart(f.from));
  if (f.to) q = q.where("created_at", "<", dayAfter(f.to));
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/* ---------- refunds ---------- */

export async function insertRefund(
  tx: Executor,
  r: {
    orderId: number;
    purchaserId: number;
    supplierId: number;
    quantity: number;
    amount: number;
    currency: "CNY" | "USD" | "HKD";
    reason: string;
    state: RefundStateColumn;
    requestedBy: number | null;
    at?: Date;
    cause?: RefundCause;
  },
): Promise<number> {
  const row = await tx
    .insertInto("refund_orders")
    .values({
      order_id: r.orderId,
      purchaser_merchant_id: r.purchaserId,
      supplier_merchant_id: r.supplierId,
      quantity: r.quantity,
      amount: r.amount,
      currency: r.currency,
      reason: r.reason,
      state: r.state,
      requested_by: r.requestedBy,
      ...(r.at && { finished_at: r.at }),
      ...(r.cause && { cause: r.cause }),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function lockRefund(tx: Executor, id: number) {
  return tx.selectFrom("refund_orders").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export function findRefund(db: Executor, id: number) {
  return db.selectFrom("refund_orders").selectAll().where("id", "=", id).executeTakeFirst();
}

export type RefundRow = NonNullable<Awaited<ReturnType<typeof findRefund>>>;

export async function settleRefund(
  tx: Executor,
  id: number,
  c: { state: RefundStateColumn; failReason?: string | null; decidedBy: number; at: Date | null },
): Promise<void> {
  await tx
    .updateTable("refund_orders")
    .set({
      state: c.state,
      decided_by: c.decidedBy,
      finished_at: c.at,
      ...(c.failReason !== undefined && { fail_reason: c.failReason }),
    })
    .where("id", "=", id)
    .execute();
}

/** Codes of an order already refunded (or being refunded), so a refund never exceeds what was bought. */
export async function refundedQuantity(tx: Executor, orderId: number): Promise<number> {
  const row = await tx
    .selectFrom("refund_orders")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("quantity"), sql<string>`'0'`).as("n"))
    .where("order_id", "=", orderId)
    .where("state", "in", ["processing", "abnormal", "success"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether an order has a refund waiting for the supplier (at most one: refund_orders_open). */
export async function hasOpenRefund(tx: Executor, orderId: number): Promise<boolean> {
  const row = await tx
    .selectFrom("refund_orders")
    .select("id")
    .where("order_id", "=", orderId)
    .where("state", "in", ["processing", "abnormal"])
    .executeTakeFirst();
  return row !== undefined;
}

export async function refundPage(
  db: Executor,
  f: ListFilter & {
    state?: RefundStateColumn | undefined;
    orderNo?: string | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("refund_orders");
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.supplierId !== undefined) q = q.where("supplier_merchant_id", "=", f.supplierId);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.orderNo) {
    const orderNo = f.orderNo;
    q = q.where("order_id", "in", (eb) =>
      eb.selectFrom("purchase_orders").select("id").where("order_no", "=", orderNo),
    );
  }
  if (f.from) q = q.where("created_at", ">=", dayStart(f.from));
  if (f.to) q = q.where("created_at", "<", dayAfter(f.to));
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/* ---------- reports ---------- */

/**
 * Purchase or refund totals per period (UTC+8 day, ISO week, month) and supplier for one purchaser
 * (or one supplier's sales when `side` is supplier). Failed orders are not purchases; refunds count
 * when they succeeded.
 */
export async function reportRows(
  db: Executor,
  f: {
    merchantId: number;
    side: "purchaser" | "supplier";
    kind: "purchase" | "refund";
    unit: "day" | "week" | "month";
    from: string;
    to: string;
  },
) {
  const fmt = f.unit === "month" ? "YYYY-MM" : f.unit === "week" ? 'IYYY-"W"IW' : "YYYY-MM-DD";
  const who = f.side === "purchaser" ? sql.ref("o.purchaser_merchant_id") : sql.ref("o.supplier_merchant_id");
  const from = `${f.from}T00:00:00${PLATFORM_UTC_OFFSET}`;
  const to = `${f.to}T00:00:00${PLATFORM_UTC_OFFSET}`;
  const rows =
    f.kind === "purchase"
      ? await sql<{
          period: string;
          supplier_id: number;
          currency: string;
          orders: string;
          quantity: string;
          face: string;
          amount: string;
        }>`
          SELECT to_char(date_trunc(${f.unit}, o.created_at AT TIME ZONE 'Asia/Shanghai'), ${fmt}) AS period, o.supplier_merchant_id AS supplier_id, o.currency,
                 count(*)::text AS orders, sum(o.quantity)::text AS quantity, sum(o.face_value * o.quantity)::text AS face, sum(o.amount)::text AS amount
          FROM purchase_orders o
          WHERE ${who} = ${f.merchantId} AND o.state <> 'failure'
            AND o.created_at >= ${from}::timestamptz AND o.created_at < ${to}::timestamptz + interval '1 day'
          GROUP BY 1, 2, 3 ORDER BY 1 DESC, 2`.execute(db)
      : await sql<{
          period: string;
          supplier_id: number;
          currency: string;
          orders: string;
          quantity: string;
          face: string;
          amount: string;
        }>`
          SELECT to_char(date_trunc(${f.unit}, r.finished_at AT TIME ZONE 'Asia/Shanghai'), ${fmt}) AS period, o.supplier_merchant_id AS supplier_id, r.currency,
                 count(*)::text AS orders, sum(r.quantity)::text AS quantity, sum(o.face_value * r.quantity)::text AS face, sum(r.amount)::text AS amount
          FROM refund_orders r JOIN purchase_orders o ON o.id = r.order_id
          WHERE ${who} = ${f.merchantId} AND r.state = 'success'
            AND r.finished_at >= ${from}::timestamptz AND r.finished_at < ${to}::timestamptz + interval '1 day'
          GROUP BY 1, 2, 3 ORDER BY 1 DESC, 2`.execute(db);
  return rows.rows;
}

/* ---------- purchase applications ---------- */

export async function insertApplication(
  tx: Executor,
  a: { purchaserId: number; supplierId: number; goodsId: number; remark: string; createdBy: number },
): Promise<number> {
  const row = await tx
    .insertInto("purchase_applications")
    .values({
      purchaser_merchant_id: a.purchaserId,
      supplier_merchant_id: a.supplierId,
      goods_id: a.goodsId,
      remark: a.remark,
      created_by: a.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findApplication(db: Executor, id: number) {
  return db.selectFrom("purchase_applications").selectAll().where("id", "=", id).executeTakeFirst();
}

export type ApplicationRow = NonNullable<Awaited<ReturnType<typeof findApplication>>>;

export async function decideApplication(
  tx: Executor,
  id: number,
  supplierId: number,
  d: {
    state: "rejected" | "purchasing";
    price: number | null;
    secretPrice: number | null;
    reason: string | null;
    at: Date;
  },
): Promise<boolean> {
  const res = await tx
    .updateTable("purchase_applications")
    .set({ state: d.state, price: d.price, secret_price: d.secretPrice, reject_reason: d.reason, decided_at: d.at })
    .where("id", "=", id)
    .where("supplier_merchant_id", "=", supplierId)
    .where("state", "=", "pending_review")
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function applicationPage(
  db: Executor,
  f: {
    purchaserId?: number;
    supplierId?: number;
    state?: "pending_review" | "rejected" | "purchasing" | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("purchase_applications");
  if (f.purchaserId !== undefined) q = q.where("purchaser_merchant_id", "=", f.purchaserId);
  if (f.supplierId !== undefined) q = q.where("supplier_merchant_id", "=", f.supplierId);
  if (f.state) q = q.where("state", "=", f.state);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
