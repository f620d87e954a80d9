import { sql } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * The brands of merchants a provider serves, with their goods counts (brandManagement, issue 29);
 * exported through index.ts.
 */
export async function brandsOfMerchants(db: Executor, merchantIds: readonly number[]) {
  if (merchantIds.length === 0) return [];
  const r = await sql<{
    id: number;
    merchant_id: number;
    name: string;
    created_at: Date;
    goods: string;
    on_sale: string;
  }>`
    SELECT b.id, b.merchant_id, b.name, b.created_at,
           COUNT(g.id)::text AS goods, COUNT(g.id) FILTER (WHERE g.state = 'available')::text AS on_sale
    FROM catalog_brands b LEFT JOIN catalog_goods g ON g.brand_id = b.id
    WHERE b.merchant_id = ANY(${[...merchantIds]}::bigint[])
    GROUP BY b.id ORDER BY b.merchant_id, b.id`.execute(db);
  return r.rows.map((x) => ({
    id: x.id,
    merchantId: x.merchant_id,
    name: x.name,
    createdAt: new Date(x.created_at).toISOString(),
    goods: Number(x.goods),
    onSale: Number(x.on_sale),
  }));
}
