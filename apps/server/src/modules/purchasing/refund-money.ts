import type { Tx } from "../../db/tx";
import { post } from "../ledger";
import type { OrderRow } from "./orders.repo";
import type { RefundRow } from "./refunds.repo";

/**
 * Moves a refund's money once (the ledger key is the refund's): back into the purchaser's account that
 * paid for the order, out of the order escrow while the order's store vouchers wait for redemption, else
 * out of the supplier's income, which received the price at sale.
 */
export async function postRefund(
  tx: Tx,
  o: OrderRow,
  r: Pick<RefundRow, "id" | "amount" | "reason">,
  createdBy: number | null,
): Promise<void> {
  // A refund's parties and currency are its order's.
  await post(tx, {
    idempotencyKey: `refund:${r.id}`,
    kind: "refund",
    currency: o.currency,
    reason: `${o.order_no} ${r.reason}`.trim(),
    subject: { type: "refund_order", id: r.id },
    createdBy,
    postings: [
      o.held_until_redeemed
        ? { account: { platform: "order_escrow" }, amount: -r.amount }
        : { account: { merchantId: o.supplier_merchant_id, kind: "income" }, amount: -r.amount },
      { account: { merchantId: o.purchaser_merchant_id, kind: o.paid_from }, amount: r.amount },
    ],
  });
}
