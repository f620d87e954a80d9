import { sql, type Expression, type RawBuilder } from "kysely";

/**
 * A purchaser's own unit price of a goods (spec 01 §3 purchase application): the secret price of its
 * approved application, else that application's price; NULL when it has none and pays the list price.
 * One definition for what orders charge and what the purchaser is shown before buying.
 */
export function agreedPriceOf(
  purchaser: Expression<unknown> | number,
  goods: Expression<unknown> | number,
): RawBuilder<number | string | null> {
  return sql<number | string | null>`(SELECT coalesce(a.secret_price, a.price) FROM purchase_applications a
    WHERE a.purchaser_merchant_id = ${purchaser} AND a.goods_id = ${goods} AND a.state = 'purchasing' LIMIT 1)`;
}
