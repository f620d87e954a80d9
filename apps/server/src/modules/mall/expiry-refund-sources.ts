import type { Currency } from "@tessera/contracts";
import type { Tx } from "../../db/tx";
import { moneyAccounts } from "../../platform/adapters/payments";
import { balancesOf, type Posting } from "../ledger";
import { RetryLater } from "../purchasing";

/**
 * Where a customer's expiry refund is paid from: the merchant's income first, then what it lacks from the
 * account the purchase price was refunded to, when that is the same merchant's (never for test money).
 */
export async function expiryRefundSources(
  tx: Tx,
  o: { merchant_id: number; currency: string; sandbox: boolean; order_no: string },
  amount: number,
  refundedTo: { merchantId: number; kind: "sup" | "rebate" } | undefined,
): Promise<Posting[]> {
  const income = moneyAccounts(o.sandbox).income(o.merchant_id);
  const balances = await balancesOf(tx, o.merchant_id, o.currency as Currency);
  const held = balances[income.kind].amount;
  if (held >= amount) return [{ account: income, amount: -amount }];
  const rest = amount - Math.max(held, 0);
  if (o.sandbox || !refundedTo || refundedTo.merchantId !== o.merchant_id || balances[refundedTo.kind].amount < rest) {
    throw new RetryLater(`mall order ${o.order_no}: the merchant's income cannot pay its expiry refund`);
  }
  return [
    ...(held > 0 ? [{ account: income, amount: -held }] : []),
    { account: { merchantId: o.merchant_id, kind: refundedTo.kind }, amount: -rest },
  ];
}
