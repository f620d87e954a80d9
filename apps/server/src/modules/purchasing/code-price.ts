import { sql, type RawBuilder } from "kysely";
import type { Currency } from "@tessera/contracts";
import type { Executor } from "../../db/tx";

/**
 * What one code of a purchase order cost its buyer (`price`, the order's unit price) and how much of it
 * the order escrow still holds for the supplier (`held`: the price for store vouchers, paid to the brand
 * when the code is redeemed and settled; 0 for codes paid to the supplier at sale), as SQL over the code's
 * order id, so a redemption writes both in its own statement. `fallback` prices a code without an order.
 */
export function codePriceSql(
  orderId: string | null,
  fallback: number,
): { price: RawBuilder<number>; held: RawBuilder<number> } {
  if (orderId === null || !/^\d+$/.test(orderId)) {
    return { price: sql<number>`${fallback}::bigint`, held: sql<number>`0::bigint` };
  }
  return {
    price: sql<number>`coalesce((SELECT o.unit_price FROM purchase_orders o WHERE o.id = ${orderId}::bigint), ${fallback}::bigint)`,
    held: sql<number>`coalesce((SELECT o.unit_price FROM purchase_orders o WHERE o.id = ${orderId}::bigint AND o.held_until_redeemed), 0::bigint)`,
  };
}

/**
 * What a supplier's store vouchers sold in one currency brought into the order escrow, less what was
 * refunded of them: the money the platform holds for the brand until the codes are redeemed and settled
 * (the redemptions' `held_amount` is taken off by the caller).
 */
export async function heldVoucherSales(db: Executor, supplierId: number, currency: Currency): Promise<number> {
  const r = await sql<{ held: string }>`
    SELECT coalesce(sum(o.amount), 0) - coalesce((
      SELECT sum(f.amount) FROM refund_orders f JOIN purchase_orders p ON p.id = f.order_id
      WHERE p.supplier_merchant_id = ${supplierId} AND p.held_until_redeemed AND p.currency = ${currency} AND f.state = 'success'), 0) AS held
    FROM purchase_orders o
    WHERE o.supplier_merchant_id = ${supplierId} AND o.held_until_redeemed AND o.currency = ${currency} AND o.state = 'success'`.execute(
    db,
  );
  return Number(r.rows[0]?.held ?? 0);
}
