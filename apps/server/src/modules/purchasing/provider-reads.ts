import { sql, type SqlBool } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * Reads of orders for a service provider's operations pages (issue 29: OrderManagement, BrandOrder,
 * RechargeOrder, SettlementManagement, PurchaseInformation), exported through index.ts. The caller
 * names the merchants the provider serves: brands (their sales) and vendors (their purchases).
 */
export interface ServedParties {
  brandIds: readonly number[];
  vendorIds: readonly number[];
}

export interface ServedOrderFilter extends ServedParties {
  /** Only orders whose supplier is this served brand / whose purchaser is this served vendor. */
  supplierId?: number | undefined;
  purchaserId?: number | undefined;
  businessType?: string | undefined;
  state?: "processing" | "success" | "failure" | undefined;
  orderNo?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

function served(p: ServedParties) {
  const brands = p.brandIds.length
    ? sql<SqlBool>`o.supplier_merchant_id = ANY(${[...p.brandIds]}::bigint[])`
    : sql<SqlBool>`false`;
  const vendors = p.vendorIds.length
    ? sql<SqlBool>`o.purchaser_merchant_id = ANY(${[...p.vendorIds]}::bigint[])`
    : sql<SqlBool>`false`;
  return sql<SqlBool>`(${brands} OR ${vendors})`;
}

function conditions(f: ServedOrderFilter) {
  const parts = [served(f)];
  if (f.supplierId !== undefined) parts.push(sql<SqlBool>`o.supplier_merchant_id = ${f.supplierId}`);
  if (f.purchaserId !== undefined) parts.push(sql<SqlBool>`o.purchaser_merchant_id = ${f.purchaserId}`);
  if (f.businessType) parts.push(sql<SqlBool>`o.business_type = ${f.businessType}`);
  if (f.state) parts.push(sql<SqlBool>`o.state = ${f.state}`);
  if (f.orderNo) parts.push(sql<SqlBool>`o.order_no = ${f.orderNo}`);
  if (f.from) parts.push(sql<SqlBool>`o.created_at >= ${f.from}`);
  if (f.to) parts.push(sql<SqlBool>`o.created_at < ${f.to}`);
  return sql.join(parts, sql` AND `);
}

export interface ServedOrderRow {
  id: number;
  order_no: string;
  purchaser_merchant_id: number;
  supplier_merchant_id: number;
  goods_id: number;
  goods_name: string;
  brand_id: number;
  brand_name: string;
  business_type: string;
  quantity: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  state: "processing" | "success" | "failure";
  top_up_account: string | null;
  refunded: boolean;
  created_at: Date;
  finished_at: Date | null;
}

/** A page of the served merchants' orders, newest first. */
export async function servedOrders(
  db: Executor,
  f: ServedOrderFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: ServedOrderRow[]; total: number }> {
  const where = conditions(f);
  const [rows, count] = await Promise.all([
    sql<ServedOrderRow>`
      SELECT o.id, o.order_no, o.purchaser_merchant_id, o.supplier_merchant_id, o.goods_id, o.goods_name, g.brand_id, b.name AS brand_name,
             o.business_type, o.quantity, o.amount, o.currency, o.state, o.top_up_account, o.refunded, o.created_at, o.finished_at
      FROM purchase_orders o JOIN catalog_goods g ON g.id = o.goods_id JOIN catalog_brands b ON b.id = g.brand_id
      WHERE ${where} ORDER BY o.id DESC OFFSET ${page.offset} LIMIT ${page.limit}`.execute(db),
    sql<{ n: string }>`SELECT COUNT(*)::text AS n FROM purchase_orders o WHERE ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}

/** Per platform day in [from, to): orders, their amount and the refunds of that day, for the served merchants. */
export async function servedDailyFigures(db: Executor, f: ServedParties & { from: Date; to: Date }) {
  const r = await sql<{ day: string; orders: string; amount: string; refunds: string; buyers: string }>`
    WITH o AS (
      SELECT o.* FROM purchase_orders o WHERE ${served(f)} AND o.state = 'success' AND o.created_at >= ${f.from} AND o.created_at < ${f.to}
    ), r AS (
      SELECT r.amount, r.finished_at FROM refund_orders r JOIN purchase_orders o ON o.id = r.order_id
      WHERE ${served(f)} AND r.state = 'success' AND r.finished_at >= ${f.from} AND r.finished_at < ${f.to}
    ), days AS (
      SELECT to_char(created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day, COUNT(*) AS orders, SUM(amount) AS amount, COUNT(DISTINCT purchaser_merchant_id) AS buyers, 0::bigint AS refunds FROM o GROUP BY 1
      UNION ALL
      SELECT to_char(finished_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD'), 0, 0, 0, SUM(amount) FROM r GROUP BY 1
    )
    SELECT day, SUM(orders)::text AS orders, SUM(amount)::text AS amount, SUM(refunds)::text AS refunds, SUM(buyers)::text AS buyers
    FROM days GROUP BY day ORDER BY day`.execute(db);
  return r.rows.map((x) => ({
    day: x.day,
    orders: Number(x.orders),
    amount: Number(x.amount),
    refunds: Number(x.refunds),
    buyers: Number(x.buyers),
  }));
}

/** Per served brand (supplier) and platform month in [from, to): orders, sales, refunds and net. */
export async function servedSettlements(db: Executor, f: { brandIds: readonly number[]; from: Date; to: Date }) {
  if (f.brandIds.length === 0) return [];
  const ids = [...f.brandIds];
  const r = await sql<{
    supplier_id: number;
    month: string;
    currency: "CNY" | "USD" | "HKD";
    orders: string;
    sales: string;
    refunds: string;
  }>`
    WITH rows AS (
      SELECT o.supplier_merchant_id AS supplier_id, to_char(o.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM') AS month, o.currency, 1 AS orders, o.amount AS sales, 0::bigint AS refunds
      FROM purchase_orders o WHERE o.supplier_merchant_id = ANY(${ids}::bigint[]) AND o.state = 'success' AND o.created_at >= ${f.from} AND o.created_at < ${f.to}
      UNION ALL
      SELECT r.supplier_merchant_id, to_char(r.finished_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM'), r.currency, 0, 0, r.amount
      FROM refund_orders r WHERE r.supplier_merchant_id = ANY(${ids}::bigint[]) AND r.state = 'success' AND r.finished_at >= ${f.from} AND r.finished_at < ${f.to}
    )
    SELECT supplier_id, month, currency, SUM(orders)::text AS orders, SUM(sales)::text AS sales, SUM(refunds)::text AS refunds
    FROM rows GROUP BY supplier_id, month, currency ORDER BY month DESC, supplier_id`.execute(db);
  return r.rows.map((x) => ({
    supplierId: x.supplier_id,
    month: x.month,
    currency: x.currency,
    orders: Number(x.orders),
    sales: Number(x.sales),
    refunds: Number(x.refunds),
  }));
}

/**
 * LinkData: per platform day in [from, to), the served merchants' successful orders, their amount and the
 * dockings approved that day (new trading links: a served brand's new purchasers, a served vendor's new
 * suppliers); and the same per served merchant (a brand by its sales, a vendor by its purchases).
 */
export async function servedLinkFigures(db: Executor, f: ServedParties & { from: Date; to: Date }) {
  const brands = [...f.brandIds];
  const vendors = [...f.vendorIds];
  const dockedServed = sql<SqlBool>`(d.supplier_merchant_id = ANY(${brands}::bigint[]) OR d.purchaser_merchant_id = ANY(${vendors}::bigint[]))`;
  const days = await sql<{ day: string; orders: string; amount: string; dockings: string }>`
    WITH o AS (
      SELECT to_char(o.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day, COUNT(*) AS orders, SUM(o.amount) AS amount, 0::bigint AS dockings
      FROM purchase_orders o WHERE ${served(f)} AND o.state = 'success' AND o.created_at >= ${f.from} AND o.created_at < ${f.to} GROUP BY 1
    ), d AS (
      SELECT to_char(d.decided_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day, 0::bigint AS orders, 0::bigint AS amount, COUNT(*) AS dockings
      FROM dockings d WHERE ${dockedServed} AND d.status = 'approved' AND d.decided_at >= ${f.from} AND d.decided_at < ${f.to} GROUP BY 1
    )
    SELECT day, SUM(orders)::text AS orders, SUM(amount)::text AS amount, SUM(dockings)::text AS dockings
    FROM (SELECT * FROM o UNION ALL SELECT * FROM d) x GROUP BY day ORDER BY day`.execute(db);
  const merchants = await sql<{
    merchant_id: number;
    role: "brand" | "vendor";
    orders: string;
    amount: string;
    dockings: string;
  }>`
    WITH o AS (
      SELECT o.supplier_merchant_id AS merchant_id, 'brand' AS role, COUNT(*) AS orders, SUM(o.amount) AS amount, 0::bigint AS dockings
      FROM purchase_orders o WHERE o.supplier_merchant_id = ANY(${brands}::bigint[]) AND o.state = 'success' AND o.created_at >= ${f.from} AND o.created_at < ${f.to} GROUP BY 1
      UNION ALL
      SELECT o.purchaser_merchant_id, 'vendor', COUNT(*), SUM(o.amount), 0
      FROM purchase_orders o WHERE o.purchaser_merchant_id = ANY(${vendors}::bigint[]) AND o.state = 'success' AND o.created_at >= ${f.from} AND o.created_at < ${f.to} GROUP BY 1
      UNION ALL
      SELECT d.supplier_merchant_id, 'brand', 0, 0, COUNT(*)
      FROM dockings d WHERE d.supplier_merchant_id = ANY(${brands}::bigint[]) AND d.status = 'approved' AND d.decided_at >= ${f.from} AND d.decided_at < ${f.to} GROUP BY 1
      UNION ALL
      SELECT d.purchaser_merchant_id, 'vendor', 0, 0, COUNT(*)
      FROM dockings d WHERE d.purchaser_merchant_id = ANY(${vendors}::bigint[]) AND d.status = 'approved' AND d.decided_at >= ${f.from} AND d.decided_at < ${f.to} GROUP BY 1
    )
    SELECT merchant_id, role, SUM(orders)::text AS orders, SUM(amount)::text AS amount, SUM(dockings)::text AS dockings
    FROM o GROUP BY merchant_id, role ORDER BY SUM(amount) DESC, merchant_id`.execute(db);
  return {
    days: days.rows.map((x) => ({
      day: x.day,
      orders: Number(x.orders),
      amount: Number(x.amount),
      newDockings: Number(x.dockings),
    })),
    merchants: merchants.rows.map((x) => ({
      merchantId: Number(x.merchant_id),
      role: x.role,
      orders: Number(x.orders),
      amount: Number(x.amount),
      newDockings: Number(x.dockings),
    })),
  };
}
