import { sql, type RawBuilder } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import { PURCHASABLE_GOODS_COLUMNS, type PurchasableGoodsRow } from "../catalog";
import { mayBuyCondition } from "../docking";
import { agreedPriceOf } from "./agreed-price.sql";
import { dayAfter, dayStart, type ListFilter } from "./repo";
import type { OrderStateColumn } from "./tables";

/**
 * SQL of purchase orders: an order's facts and its one statement, finishing it, the order pages. Each read
 * names the merchant it is for.
 */

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
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}
