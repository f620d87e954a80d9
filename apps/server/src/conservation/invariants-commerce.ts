import { sql } from "kysely";
import { rows } from "./invariants";
import type { World } from "./world";

/**
 * Physical goods (commerce) of the run's brand: every order in exactly one state, with the times that state
 * implies; refunds never above what was paid: an order's refunds at most its payment, a line's at most what
 * was paid for the units its finished cases concern (all of the line only when all its units came back),
 * the freight only with the order's last units or a cancellation; what the order says it refunded is what
 * the ledger moved back to the purchaser; a completed order paid the brand its payment less its refunds,
 * an order not completed paid it nothing.
 */
export async function commerceProblems(w: World): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const brand = Number(w.supplier.merchantId);
  return (
    await rows<{ p: string }>(
      db,
      sql`WITH o AS (SELECT * FROM commerce_orders WHERE brand_id = ${brand}),
          lines AS (
            SELECT i.*, COALESCE((SELECT SUM(a.quantity) FROM commerce_aftersales a WHERE a.order_item_id = i.id
              AND a.state = 'complete'), 0) AS units_back
            FROM commerce_order_items i WHERE i.order_id IN (SELECT id FROM o)),
          money AS (
            SELECT o.id,
              COALESCE((SELECT SUM(e.amount) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                JOIN ledger_accounts a ON a.id = e.account_id
                WHERE a.merchant_id = o.purchaser_id AND a.kind = 'sup' AND t.kind = 'refund'
                  AND ((t.subject_type = 'commerce_order' AND t.subject_id = o.id::text)
                    OR (t.subject_type = 'commerce_aftersale' AND t.subject_id IN
                      (SELECT c.id::text FROM commerce_aftersales c WHERE c.order_id = o.id)))), 0) AS refunded_back,
              COALESCE((SELECT SUM(e.amount) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                JOIN ledger_accounts a ON a.id = e.account_id
                WHERE a.merchant_id = o.brand_id AND a.kind = 'income'
                  AND ((t.subject_type = 'commerce_order' AND t.subject_id = o.id::text)
                    OR (t.subject_type = 'commerce_aftersale' AND t.subject_id IN
                      (SELECT c.id::text FROM commerce_aftersales c WHERE c.order_id = o.id)))), 0) AS brand_got
            FROM o)
        SELECT 'commerce: order ' || id || ' is ' || state || ' with the times of another state' AS p FROM o WHERE NOT (
             (state = 'to_pay' AND paid_at IS NULL AND closed_at IS NULL)
          OR (state = 'to_ship' AND paid_at IS NOT NULL AND shipped_at IS NULL AND closed_at IS NULL AND completed_at IS NULL)
          OR (state = 'shipped' AND paid_at IS NOT NULL AND shipped_at IS NOT NULL AND received_at IS NULL AND closed_at IS NULL AND completed_at IS NULL)
          OR (state = 'received' AND shipped_at IS NOT NULL AND received_at IS NOT NULL AND closed_at IS NULL AND completed_at IS NULL)
          OR (state = 'completed' AND paid_at IS NOT NULL AND completed_at IS NOT NULL AND closed_at IS NULL)
          OR (state = 'closed' AND closed_at IS NOT NULL AND completed_at IS NULL))
        UNION ALL
        SELECT 'commerce: order ' || id || ' refunded ' || refunded_amount || ' of ' || pay_amount || ' paid' FROM o
          WHERE refunded_amount > pay_amount OR refunded_amount < 0 OR (paid_at IS NULL AND refunded_amount <> 0)
        UNION ALL
        SELECT 'commerce: line ' || id || ' refunded ' || refunded || ' for ' || units_back || ' of ' || quantity
            || ' units worth ' || amount FROM lines
          WHERE refunded > (CASE WHEN units_back >= quantity THEN amount ELSE (amount * units_back) / quantity END)
            OR returned_qty > quantity OR units_back > quantity
        UNION ALL
        SELECT 'commerce: order ' || o.id || ' refunded freight ' || (o.refunded_amount - l.r) || ' before its last units came back'
          FROM o JOIN (SELECT order_id, SUM(refunded) AS r, bool_and(units_back >= quantity) AS all_back FROM lines GROUP BY order_id) l
            ON l.order_id = o.id
          WHERE o.refunded_amount - l.r > 0 AND NOT l.all_back
            AND NOT (o.state = 'closed' AND o.close_reason IS DISTINCT FROM 'after-sales refund')
        UNION ALL
        SELECT 'commerce: order ' || o.id || ' says it refunded ' || o.refunded_amount || ' but the ledger gave back ' || m.refunded_back
          FROM o JOIN money m ON m.id = o.id WHERE o.refunded_amount <> m.refunded_back
        UNION ALL
        SELECT 'commerce: order ' || o.id || ' (' || o.state || ') paid the brand ' || m.brand_got || ' for '
            || o.pay_amount || ' paid and ' || o.refunded_amount || ' refunded'
          FROM o JOIN money m ON m.id = o.id
          WHERE m.brand_got <> (CASE WHEN o.state = 'completed' THEN o.pay_amount - o.refunded_amount ELSE 0 END)`,
    )
  ).map((r) => r.p);
}
