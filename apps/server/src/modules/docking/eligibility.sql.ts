import { sql, type Expression, type RawBuilder } from "kysely";

/**
 * Who may buy what (spec 01 §3 Docking record; issue #6/#7): a purchaser may buy a supplier's goods when
 * the two are docked (approved and signed by both), when the supplier (as a brand) has a live
 * authorisation for the purchaser, or when the supplier whitelisted the purchaser, for all its goods or
 * for that one goods. One definition, used by order placement (in `orderFacts`) and, as a condition on the
 * goods row, by the goods-selection lists, so a list never shows a goods an order refuses.
 */
export function mayBuyCondition(
  purchaserId: number,
  day: string,
  supplier: Expression<unknown> | number,
  goods: Expression<unknown> | number,
): RawBuilder<boolean> {
  // Written as uncorrelated IN lists (the purchaser's few suppliers and goods, each from an index on the
  // purchaser), so a goods list evaluates them once and probes a hash per row instead of running three
  // correlated subqueries for every goods; an order asks the same question for one goods.
  return sql<boolean>`(
    ${supplier} IN (
      SELECT d.supplier_merchant_id FROM dockings d
      WHERE d.purchaser_merchant_id = ${purchaserId} AND d.status = 'approved' AND d.purchaser_signed_at IS NOT NULL AND d.supplier_signed_at IS NOT NULL
      UNION ALL
      SELECT a.brand_merchant_id FROM brand_auths a
      WHERE a.grantee_merchant_id = ${purchaserId} AND a.active AND (a.valid_until IS NULL OR a.valid_until >= ${day}::date)
      UNION ALL
      SELECT w.supplier_merchant_id FROM purchase_whitelists w
      WHERE w.purchaser_merchant_id = ${purchaserId} AND w.removed_at IS NULL AND w.goods_id IS NULL)
    OR (${supplier}, ${goods}) IN (
      SELECT w.supplier_merchant_id, w.goods_id FROM purchase_whitelists w
      WHERE w.purchaser_merchant_id = ${purchaserId} AND w.removed_at IS NULL AND w.goods_id IS NOT NULL)
  )`;
}
