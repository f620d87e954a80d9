import { sql, type Expression, type RawBuilder } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * Who may buy what (spec 01 §3 Docking record; issue #6/#7): a purchaser may buy a supplier's goods when
 * the two are docked (approved and signed by both), when the supplier (as a brand) has a live
 * authorisation for the purchaser, or when the supplier whitelisted the purchaser, for all its goods or
 * for that one goods. One definition, used by order placement (`mayBuy`) and, as a condition on the goods
 * row, by the goods-selection lists (`mayBuyCondition`), so a list never shows a goods an order refuses.
 */
export function mayBuyCondition(purchaserId: number, day: string, supplier: Expression<unknown> | number, goods: Expression<unknown> | number): RawBuilder<boolean> {
  return sql<boolean>`(
    EXISTS (SELECT 1 FROM dockings d
            WHERE d.purchaser_merchant_id = ${purchaserId} AND d.supplier_merchant_id = ${supplier}
              AND d.status = 'approved' AND d.purchaser_signed_at IS NOT NULL AND d.supplier_signed_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM brand_auths a
               WHERE a.brand_merchant_id = ${supplier} AND a.grantee_merchant_id = ${purchaserId} AND a.active
                 AND (a.valid_until IS NULL OR a.valid_until >= ${day}::date))
    OR EXISTS (SELECT 1 FROM purchase_whitelists w
               WHERE w.supplier_merchant_id = ${supplier} AND w.purchaser_merchant_id = ${purchaserId} AND w.removed_at IS NULL
                 AND (w.goods_id IS NULL OR w.goods_id = ${goods}))
  )`;
}

/** Whether the purchaser may buy this goods of the supplier on `day` (YYYY-MM-DD, platform day): one query. */
export async function mayBuy(db: Executor, q: { purchaserId: number; supplierId: number; goodsId: number; day: string }): Promise<boolean> {
  const cond = mayBuyCondition(q.purchaserId, q.day, sql`${q.supplierId}::bigint`, sql`${q.goodsId}::bigint`);
  const row = await sql<{ ok: boolean }>`SELECT ${cond} AS ok`.execute(db);
  return row.rows[0]?.ok === true;
}
