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
