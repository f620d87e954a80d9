import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import { PLATFORM_UTC_OFFSET } from "../../platform/clock";

/** SQL of the statistics and settlement pages, over purchase and refund orders. Each names its merchant. */

const start = (day: string) => `${day}T00:00:00${PLATFORM_UTC_OFFSET}`;
type Currency = "CNY" | "USD" | "HKD";

/** A purchaser's purchases per goods or per supplier: non-failed orders, successful refunds. */
export async function salesStats(
  db: Executor,
  f: { purchaserId: number; dimension: "goods" | "supplier"; from: string; to: string; offset: number; limit: number },
) {
  const key = f.dimension === "goods" ? sql`o.goods_id` : sql`o.supplier_merchant_id`;
  const base = sql`
    FROM purchase_orders o
    LEFT JOIN (
      SELECT order_id, sum(quantity) AS quantity, sum(amount) AS amount FROM refund_orders
      WHERE purchaser_merchant_id = ${f.purchaserId} AND state = 'success' GROUP BY order_id
    ) r ON r.order_id = o.id
    WHERE o.purchaser_merchant_id = ${f.purchaserId} AND o.state <> 'failure'
      AND o.created_at >= ${start(f.from)}::timestamptz AND o.created_at < ${start(f.to)}::timestamptz + interval '1 day'`;
  const rows = await sql<{
    key: number;
    name: string;
    supplier_id: number;
    currency: Currency;
    orders: string;
    quantity: string;
    face: string;
    amount: string;
    r_quantity: string;
    r_amount: string;
  }>`
    SELECT ${key} AS key, max(o.goods_name) AS name, max(o.supplier_merchant_id) AS supplier_id, o.currency,
           count(*)::text AS orders, sum(o.quantity)::text AS quantity, sum(o.face_value * o.quantity)::text AS face, sum(o.amount)::text AS amount,
           COALESCE(sum(r.quantity), 0)::text AS r_quantity, COALESCE(sum(r.amount), 0)::text AS r_amount
    ${base}
    GROUP BY 1, o.currency ORDER BY sum(o.amount) DESC, 1 LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db);
  const count = await sql<{
    n: string;
  }>`SELECT count(*)::text AS n FROM (SELECT ${key}, o.currency ${base} GROUP BY 1, 2) g`.execute(db);
  return { rows: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}

/**
 * A purchaser's payments (every order, by order time: a failed top-up was paid too) and refunds
 * (successful, by refund time, the automatic refund of a failed top-up included) per period, so the
 * figures settle against the SUP account's ledger.
 */
export async function purchaseTotals(
  db: Executor,
  f: { purchaserId: number; unit: "day" | "month"; from: string; to: string },
) {
  const fmt = f.unit === "day" ? "YYYY-MM-DD" : "YYYY-MM";
  const res = await sql<{ period: string; currency: Currency; orders: string; purchase: string; refund: string }>`
    SELECT period, currency, sum(orders)::text AS orders, sum(purchase)::text AS purchase, sum(refund)::text AS refund FROM (
      SELECT to_char(date_trunc(${f.unit}, created_at AT TIME ZONE 'Asia/Shanghai'), ${fmt}) AS period, currency, 1 AS orders, amount AS purchase, 0 AS refund
      FROM purchase_orders
      WHERE purchaser_merchant_id = ${f.purchaserId}
        AND created_at >= ${start(f.from)}::timestamptz AND created_at < ${start(f.to)}::timestamptz + interval '1 day'
      UNION ALL
      SELECT to_char(date_trunc(${f.unit}, finished_at AT TIME ZONE 'Asia/Shanghai'), ${fmt}), currency, 0, 0, amount
      FROM refund_orders
      WHERE purchaser_merchant_id = ${f.purchaserId} AND state = 'success'
        AND finished_at >= ${start(f.from)}::timestamptz AND finished_at < ${start(f.to)}::timestamptz + interval '1 day'
    ) x GROUP BY 1, 2 ORDER BY 1 DESC`.execute(db);
  return res.rows;
}

/**
 * A supplier's sales per day as the orders say: settled orders (paid to its income: stock orders when
 * placed, top-ups when reported successful, i.e. at finished_at), successful refunds, and what is still
 * held in escrow (processing top-ups, by order day).
 */
export async function supplyTotals(db: Executor, f: { supplierId: number; from: string; to: string }) {
  const res = await sql<{
    day: string;
    currency: Currency;
    settled: string;
    settled_amount: string;
    refunds: string;
    refund_amount: string;
    escrow: string;
    escrow_amount: string;
  }>`
    SELECT day, currency, sum(settled)::text AS settled, sum(settled_amount)::text AS settled_amount, sum(refunds)::text AS refunds,
           sum(refund_amount)::text AS refund_amount, sum(escrow)::text AS escrow, sum(escrow_amount)::text AS escrow_amount FROM (
      SELECT to_char(finished_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day, currency, 1 AS settled, amount AS settled_amount, 0 AS refunds, 0 AS refund_amount, 0 AS escrow, 0 AS escrow_amount
      FROM purchase_orders
      WHERE supplier_merchant_id = ${f.supplierId} AND state = 'success'
        AND finished_at >= ${start(f.from)}::timestamptz AND finished_at < ${start(f.to)}::timestamptz + interval '1 day'
      UNION ALL
      -- Refunds of codes, paid back from the supplier's income (a failed top-up's refund never reached it).
      SELECT to_char(r.finished_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD'), r.currency, 0, 0, 1, r.amount, 0, 0
      FROM refund_orders r JOIN purchase_orders o ON o.id = r.order_id
      WHERE r.supplier_merchant_id = ${f.supplierId} AND r.state = 'success' AND o.state = 'success'
        AND r.finished_at >= ${start(f.from)}::timestamptz AND r.finished_at < ${start(f.to)}::timestamptz + interval '1 day'
      UNION ALL
      SELECT to_char(created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD'), currency, 0, 0, 0, 0, 1, amount
      FROM purchase_orders
      WHERE supplier_merchant_id = ${f.supplierId} AND state = 'processing'
        AND created_at >= ${start(f.from)}::timestamptz AND created_at < ${start(f.to)}::timestamptz + interval '1 day'
    ) x GROUP BY 1, 2 ORDER BY 1 DESC`.execute(db);
  return res.rows;
}

/** A supplier's orders with their successful refunds, and where the money is now. */
export async function supOrders(
  db: Executor,
  f: {
    supplierId: number;
    settlement?: "escrow" | "settled" | "partly_refunded" | "refunded" | undefined;
    orderNo?: string | undefined;
    purchaserId?: number | undefined;
    from?: string | undefined;
    to?: string | undefined;
    offset: number;
    limit: number;
  },
) {
  const settlement = sql`CASE WHEN o.state = 'processing' THEN 'escrow'
      WHEN o.state = 'failure' OR COALESCE(r.amount, 0) >= o.amount THEN 'refunded'
      WHEN COALESCE(r.amount, 0) > 0 THEN 'partly_refunded' ELSE 'settled' END`;
  const where = [sql`o.supplier_merchant_id = ${f.supplierId}`];
  if (f.orderNo) where.push(sql`o.order_no = ${f.orderNo}`);
  if (f.purchaserId !== undefined) where.push(sql`o.purchaser_merchant_id = ${f.purchaserId}`);
  if (f.from) where.push(sql`o.created_at >= ${start(f.from)}::timestamptz`);
  if (f.to) where.push(sql`o.created_at < ${start(f.to)}::timestamptz + interval '1 day'`);
  const base = sql`
    FROM purchase_orders o
    LEFT JOIN (
      SELECT order_id, sum(quantity) AS quantity, sum(amount) AS amount FROM refund_orders
      WHERE supplier_merchant_id = ${f.supplierId} AND state = 'success' GROUP BY order_id
    ) r ON r.order_id = o.id
    WHERE ${sql.join(where, sql` AND `)}`;
  const filtered = f.settlement
    ? sql`SELECT * FROM (SELECT o.*, COALESCE(r.quantity, 0) AS r_quantity, COALESCE(r.amount, 0) AS r_amount, ${settlement} AS settlement ${base}) s WHERE settlement = ${f.settlement}`
    : sql`SELECT o.*, COALESCE(r.quantity, 0) AS r_quantity, COALESCE(r.amount, 0) AS r_amount, ${settlement} AS settlement ${base}`;
  const rows = await sql<{
    id: number;
    order_no: string;
    created_at: Date;
    purchaser_merchant_id: number;
    goods_id: number;
    goods_name: string;
    quantity: number;
    amount: number;
    r_quantity: string;
    r_amount: string;
    settlement: "escrow" | "settled" | "partly_refunded" | "refunded";
    currency: Currency;
    state: string;
  }>`
    SELECT * FROM (${filtered}) q ORDER BY id DESC LIMIT ${f.limit} OFFSET ${f.offset}`.execute(db);
  const count = await sql<{ n: string }>`SELECT count(*)::text AS n FROM (${filtered}) q`.execute(db);
  return { rows: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}
