import { sql } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * SQL the commerce module's features share (each feature's own is in commodities.repo, orders.repo,
 * shipping.repo and aftersales.repo): the id-list fragment, the shop's counts and the invariants. Every read
 * for a merchant names it.
 */

export type Currency = "CNY" | "USD" | "HKD";

/** `= ANY($1::bigint[])`: a list of ids as one parameter, so the statement text (and its prepared plan) is one. */
export const anyId = (ids: number[]) => sql<number>`ANY(${ids}::bigint[])`;

export async function shopCounts(db: Executor, merchantId: number) {
  const r = await sql<{ commodities: string; on_shelf: string; orders: string; to_ship: string; aftersales: string }>`
    SELECT (SELECT COUNT(*) FROM commerce_commodities WHERE merchant_id = ${merchantId})::text AS commodities,
           (SELECT COUNT(*) FROM commerce_commodities WHERE merchant_id = ${merchantId} AND on_shelf)::text AS on_shelf,
           (SELECT COUNT(*) FROM commerce_orders WHERE brand_id = ${merchantId})::text AS orders,
           (SELECT COUNT(*) FROM commerce_orders WHERE brand_id = ${merchantId} AND state = 'to_ship')::text AS to_ship,
           (SELECT COUNT(*) FROM commerce_aftersales WHERE brand_id = ${merchantId} AND state IN ('apply', 'buyer_delivery'))::text AS aftersales`.execute(
    db,
  );
  const row = r.rows[0];
  return {
    commodities: Number(row?.commodities ?? 0),
    onShelf: Number(row?.on_shelf ?? 0),
    orders: Number(row?.orders ?? 0),
    toShip: Number(row?.to_ship ?? 0),
    aftersales: Number(row?.aftersales ?? 0),
  };
}

/** Invariants for the tests: stock never below zero, refunds never above what was paid. */
export async function invariantProblems(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const neg = await db.selectFrom("commerce_skus").select("id").where("stock", "<", 0).execute();
  for (const r of neg) problems.push(`sku ${r.id} below zero`);
  const over = await sql<{
    id: number;
  }>`SELECT o.id FROM commerce_orders o WHERE o.refunded_amount < (SELECT COALESCE(SUM(refunded), 0) FROM commerce_order_items i WHERE i.order_id = o.id)`.execute(
    db,
  );
  for (const r of over.rows) problems.push(`order ${r.id} refunds less than its lines`);
  return problems;
}
