import type { Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import { conflict } from "../../platform/http/errors";
import { moneyAccounts, type PaymentsAdapter } from "../../platform/adapters/payments";
import { post } from "../ledger";
import { expiryRefundSources } from "./expiry-refund-sources";
import { creditCard } from "../onecard";
import { RetryLater } from "../purchasing";
import * as orders from "./orders.repo";

/**
 * Pays the mall customer back for codes that expired unused (issue 37): the daily voucher-expiry job
 * refunds the purchaser its price out of the escrow and, in the same transaction, calls this with the codes
 * it expired. Each mall order that delivered any of them (not refunded, the codes not yet paid back) gives
 * its customer what those units cost them, the way the mall's own refund does: onto the one-card card it
 * was paid with, or back through the payments seam with the ledger movement from the merchant's income
 * (test money from the sandbox income). The deliveries are marked paid back and the order records the
 * amount; an order with nothing left is refunded. Once per code: a code paid back is never found again,
 * and the money is keyed by the order and its first delivery paid back.
 *
 * The merchant may have withdrawn its income since the sale: what the income no longer holds comes from the
 * account the codes' purchase price was just refunded to (`refundedTo`, real money only). When both together
 * cannot cover it, the order's expiry waits (RetryLater) and the job goes on with the other orders.
 */
export async function refundExpiredCodes(
  tx: Tx,
  payments: PaymentsAdapter,
  cardIds: number[],
  now: Date,
  refundedTo?: { merchantId: number; kind: "sup" | "rebate" },
): Promise<void> {
  if (cardIds.length === 0) return;
  for (const orderId of await orders.ordersOfUnpaidCodes(tx, cardIds)) {
    // A mall refund locks its order before the purchase orders, this job the other way round: an order
    // locked now is left, and the purchase order's expiry with it, for a later run.
    const o = await orders.lockAnyOrderNow(tx, orderId);
    if (!o) throw new RetryLater(`mall order ${orderId} is busy`);
    if (o.state === "refunded") continue;
    const { codes, units } = await orders.unpaidCodesOfOrder(tx, o.id, cardIds);
    const first = codes[0];
    if (!first) continue;
    // What each unit cost (deliveries from before prices were kept: the order's amount shared by its units).
    const cost = codes.reduce((a, d) => a + (d.price ?? Math.floor(o.amount / Math.max(units, 1))), 0);
    const amount = Math.min(o.amount - o.refunded, cost);
    const key = `mall:expiry:${o.id}:${first.id}`;
    const reason = `${o.order_no} expired unused`;
    if (amount > 0) {
      if (o.pay_method === "card") {
        if (o.card_id === null) throw conflict("mall.orderState");
        await creditCard(
          tx,
          { cardId: o.card_id, amount, requestKey: key, debitKey: `mall:${o.id}`, note: reason },
          now,
        );
      } else {
        const money = moneyAccounts(o.sandbox);
        const sources = await expiryRefundSources(tx, o, amount, refundedTo);
        const back = await payments.refund(
          tx,
          { paymentNo: o.order_no, refundNo: `${o.order_no}E${first.id}`, amount },
          now,
        );
        if (back.state === "failed" && o.sandbox) throw conflict("payments.refundFailed");
        await post(tx, {
          idempotencyKey: key,
          kind: "refund",
          currency: o.currency,
          reason,
          subject: { type: "mall_order", id: o.id },
          createdBy: null,
          postings: [...sources, { account: money.clearing, amount }],
        });
      }
    }
    await orders.markCodesPaidBack(
      tx,
      o.id,
      codes.map((d) => d.id),
      { amount, whole: o.refunded + amount >= o.amount, now },
    );
    await audit(tx, {
      actorUserId: null,
      action: "mall.order.expiryRefund",
      subjectType: "mall_order",
      subjectId: o.id,
      detail: { amount, deliveries: codes.map((d) => d.id), payMethod: o.pay_method },
    });
  }
}
