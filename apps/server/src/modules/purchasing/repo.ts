import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import { PLATFORM_UTC_OFFSET } from "../../platform/clock";

/**
 * SQL the purchasing module's features share (each feature's own is in orders.repo, applications.repo and
 * refunds.repo): the lists' filter and day range, and the purchase and refund report.
 */

/** Who a list is for (a purchaser, a supplier, or both sides named) and its UTC+8 day range. */
export interface ListFilter {
  purchaserId?: number | undefined;
  supplierId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}
export const dayStart = (day: string) => new Date(`${day}T00:00:00${PLATFORM_UTC_OFFSET}`);
export const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

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
