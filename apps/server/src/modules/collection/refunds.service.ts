import { ledgerReason, CODE, type Lang, type Page, type PayRefund } from "@tessera/contracts";
import { withTx, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { moneyAccounts, type SettledRefund } from "../../platform/adapters/payments";
import { balancesOf, post } from "../ledger";
import { updateOrder } from "./payments.repo";
import { presentRefund } from "./presenter";
import * as repo from "./refunds.repo";
import type { CollectionDeps } from "./service";

/**
 * The fee's share of `refunded` out of `amount`, rounded half up (all of it once everything is refunded).
 * Exact in doubles: a payment is at most 5,000,000 minor units and its fee a fraction of it.
 */
export const feeShare = (fee: number, amount: number, refunded: number) =>
  refunded >= amount ? fee : Math.floor((fee * refunded * 2 + amount) / (2 * amount));

/** Refunds of payments: never more than was paid, once per request, the fee given back in proportion. */
export class RefundsService {
  constructor(private readonly deps: CollectionDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async refunds(
    actor: Actor,
    q: { page: number; pageSize: number; orderId?: string | undefined; state?: PayRefund["state"] | undefined },
    lang: Lang,
  ): Promise<Page<PayRefund>> {
    const { total, rows } = await repo.refundPage(this.deps.db, tenantOf(actor), q);
    return { list: rows.map((r) => presentRefund(r, lang)), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * Refunds part or all of a paid order, under the order's row lock: never more than what is left; the
   * same request key returns the first refund. The refund gives back the same share of the payment's fee
   * (from the platform's fees to the payer with the rest): the fee given back after a refund is the fee's
   * share of everything refunded so far, rounded, less what earlier refunds gave back, so the refund that
   * completes the payment gives back exactly what remains of the fee. The merchant's income pays the
   * refund less that share. The local adapter answers at once: success, or failure (the income cannot
   * cover it; nothing moved).
   */
  async refund(
    actor: Actor,
    req: { orderId: string; amount: number; reason: string; requestKey: string },
    lang: Lang,
  ): Promise<PayRefund> {
    const merchantId = tenantOf(actor);
    const first = await repo.refundByRequest(this.deps.db, merchantId, req.requestKey);
    if (first) return presentRefund(first, lang);
    const id = await withTx(this.deps.db, async (tx) => {
      const o = await repo.lockOrder(tx, merchantId, Number(req.orderId));
      if (!o) throw new AppError(CODE.NOT_FOUND, "collection.orderNotFound");
      const replay = await repo.refundIdByRequest(tx, merchantId, req.requestKey);
      if (replay) return replay.id;
      if (o.state !== "SUCCESS") throw conflict("collection.notPaid");
      if (req.amount > o.amount - o.refunded) throw invalid("collection.refundTooLarge", "amount");
      const now = this.now();
      const refunded = Number(o.refunded) + req.amount;
      const feeBack = feeShare(Number(o.fee), Number(o.amount), refunded) - Number(o.fee_refunded);
      const fromIncome = req.amount - feeBack;
      const money = moneyAccounts(o.sandbox);
      const balances = await balancesOf(tx, merchantId, o.currency);
      const income = (o.sandbox ? balances.sandbox_income : balances.income).amount;
      let ok = income >= fromIncome;
      const f = await repo.insertRefund(tx, {
        merchant_id: merchantId,
        order_id: o.id,
        request_key: req.requestKey,
        amount: req.amount,
        currency: o.currency,
        reason: req.reason,
        created_by: actor.userId,
        created_at: now,
      });
      // An asynchronous provider (WeChat Pay) answers processing: the money moves now and comes back if
      // its refund notification says the refund failed (`settled`).
      let processing = false;
      if (ok) {
        const back = await this.deps.payments.refund(
          tx,
          { paymentNo: o.order_no, refundNo: `${o.order_no}R${f.id}`, amount: req.amount },
          now,
        );
        ok = back.state !== "failed" || !o.sandbox;
        processing = back.state === "processing";
      }
      if (ok) {
        await post(tx, {
          idempotencyKey: `pay-refund:${f.id}`,
          kind: "refund",
          currency: o.currency,
          reason: ledgerReason("ledgerReason.collectionRefund", { orderNo: o.order_no }),
          subject: { type: "pay_refund", id: f.id },
          createdBy: actor.userId,
          // A refund the fee's rounding gives back whole (a cent that completes a fee cent) takes nothing
          // from the income: a ledger posting is never zero.
          postings: [
            ...(fromIncome > 0 ? [{ account: money.income(merchantId), amount: -fromIncome }] : []),
            ...(feeBack > 0 ? [{ account: money.fees, amount: -feeBack }] : []),
            { account: money.clearing, amount: req.amount },
          ],
        });
        await updateOrder(tx, o.id, { refunded, fee_refunded: Number(o.fee_refunded) + feeBack });
      }
      await repo.finishRefund(tx, f.id, {
        state: processing ? "PROCESSING" : ok ? "SUCCESS" : "FAILURE",
        fee: ok ? feeBack : 0,
        fail_reason: ok ? null : "collection.refundFunds",
        finished_at: processing ? null : now,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "payOrder.refund",
        subjectType: "pay_order",
        subjectId: o.id,
        detail: { amount: req.amount, feeBack: ok ? feeBack : 0, ok },
      });
      return f.id;
    });
    const r = await repo.refundOf(this.deps.db, id);
    return presentRefund(r, lang);
  }

  /**
   * The provider settled a PROCESSING refund (the seam's handler, issue 41): SUCCESS, or FAILURE with the
   * money back where it came from (the merchant's income and the platform's fees) and the payment
   * refundable again by as much.
   */
  async settled(tx: Tx, r: SettledRefund, now: Date): Promise<void> {
    const id = Number(r.refundNo.slice(r.refundNo.lastIndexOf("R") + 1));
    const f = Number.isSafeInteger(id) ? await repo.lockRefundWithOrder(tx, id) : undefined;
    if (f?.state !== "PROCESSING" || f.order_no !== r.paymentNo) return;
    if (r.state === "success") {
      await repo.finishRefund(tx, f.id, { state: "SUCCESS", finished_at: now });
      return;
    }
    const amount = Number(f.amount);
    const feeBack = Number(f.fee);
    const money = moneyAccounts(f.sandbox);
    await post(tx, {
      idempotencyKey: `pay-refund-failed:${f.id}`,
      kind: "refund",
      currency: f.currency,
      reason: ledgerReason("ledgerReason.collectionRefund", { orderNo: f.order_no }),
      subject: { type: "pay_refund", id: f.id },
      createdBy: null,
      postings: [
        { account: money.clearing, amount: -amount },
        ...(amount - feeBack > 0 ? [{ account: money.income(Number(f.merchant_id)), amount: amount - feeBack }] : []),
        ...(feeBack > 0 ? [{ account: money.fees, amount: feeBack }] : []),
      ],
    });
    await updateOrder(tx, Number(f.order_id), {
      refunded: Number(f.refunded) - amount,
      fee_refunded: Number(f.fee_refunded) - feeBack,
    });
    await repo.finishRefund(tx, f.id, {
      state: "FAILURE",
      fee: 0,
      fail_reason: "collection.refundProvider",
      finished_at: now,
    });
  }
}
