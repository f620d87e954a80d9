import { sql } from "kysely";
import type { InvoiceType } from "@tessera/contracts";
import type { Executor } from "../../db/tx";

/**
 * Reads of orders for other modules (invoices, commission): exported through index.ts so they never
 * query the purchasing tables themselves.
 */

/**
 * What a purchaser spent per invoice type of the goods: successful orders less the successful refunds
 * of those orders (a failed top-up's automatic refund refunds an order that never counted).
 */
export async function spendByInvoiceType(
  db: Executor,
  purchaserId: number,
  currency: string,
): Promise<Map<InvoiceType, number>> {
  const rows = await sql<{ invoice_type: InvoiceType; amount: string }>`
    SELECT t.invoice_type, SUM(t.amount)::text AS amount FROM (
      SELECT g.invoice_type, o.amount
      FROM purchase_orders o JOIN catalog_goods g ON g.id = o.goods_id
      WHERE o.purchaser_merchant_id = ${purchaserId} AND o.state = 'success' AND o.currency = ${currency}
      UNION ALL
      SELECT g.invoice_type, -r.amount
      FROM refund_orders r JOIN purchase_orders o ON o.id = r.order_id JOIN catalog_goods g ON g.id = o.goods_id
      WHERE r.purchaser_merchant_id = ${purchaserId} AND r.state = 'success' AND o.state = 'success' AND r.currency = ${currency}
    ) t GROUP BY t.invoice_type`.execute(db);
  return new Map(rows.rows.map((r) => [r.invoice_type, Number(r.amount)]));
}

/**
 * The money movements of orders in [from, to), as a derived table for set-based closes (commission):
 * each successful order finished in the window (+amount, refund_id 0) and each successful refund
 * finished in the window of a successful order of any time (−amount, refund_id the refund's id).
 * Columns: order_id, refund_id, purchaser_id, supplier_id, goods_id, business_type, brand_id, currency, amount,
 * order_at (when the order was placed), at (when the movement happened).
 */
export function orderMovementsSql(from: Date, to: Date) {
  return sql`
    SELECT o.id AS order_id, 0::bigint AS refund_id, o.purchaser_merchant_id AS purchaser_id, o.supplier_merchant_id AS supplier_id,
           o.goods_id, o.business_type, g.brand_id, o.currency, o.amount, o.created_at AS order_at, COALESCE(o.finished_at, o.created_at) AS at
    FROM purchase_orders o JOIN catalog_goods g ON g.id = o.goods_id
    WHERE o.state = 'success' AND COALESCE(o.finished_at, o.created_at) >= ${from} AND COALESCE(o.finished_at, o.created_at) < ${to}
    UNION ALL
    SELECT o.id, r.id, o.purchaser_merchant_id, o.supplier_merchant_id, o.goods_id, o.business_type, g.brand_id, o.currency, -r.amount, o.created_at, r.finished_at
    FROM refund_orders r JOIN purchase_orders o ON o.id = r.order_id JOIN catalog_goods g ON g.id = o.goods_id
    WHERE r.state = 'success' AND o.state = 'success' AND r.finished_at >= ${from} AND r.finished_at < ${to}`;
}
