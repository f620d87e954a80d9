import { sql } from "kysely";
import type { InvoiceType } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { tradeFactsSql } from "../ledger";

/**
 * Reads of orders for other modules (invoices, commission): exported through index.ts so they never
 * query the purchasing tables themselves.
 */

/**
 * What a purchaser spent on digital goods per invoice type of the goods, from the ledger's trade facts (the
 * entries its fund sheet lists): orders paid less their refunds, once an order is no longer processing (a
 * failed top-up's automatic refund cancels its payment; an order still processing is not invoiceable yet).
 */
export async function spendByInvoiceType(
  db: Executor,
  purchaserId: number,
  currency: string,
): Promise<Map<InvoiceType, number>> {
  const facts = tradeFactsSql({ buyers: [purchaserId], sellers: [], currency });
  const rows = await sql<{ invoice_type: InvoiceType; amount: string }>`
    SELECT g.invoice_type, SUM(CASE WHEN f.refund THEN -f.amount ELSE f.amount END)::text AS amount
    FROM (${facts}) f
    JOIN purchase_orders o ON o.id = CASE WHEN f.subject_type = 'purchase_order' THEN f.subject_id::bigint
                                          ELSE (SELECT r.order_id FROM refund_orders r WHERE r.id = f.subject_id::bigint) END
    JOIN catalog_goods g ON g.id = o.goods_id
    WHERE f.category = 'goods' AND o.state <> 'processing'
    GROUP BY g.invoice_type`.execute(db);
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
