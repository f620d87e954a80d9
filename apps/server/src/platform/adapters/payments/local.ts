import { randomUUID } from "node:crypto";
import type { Executor, Tx } from "../../../db/tx";
import type { PaymentConfirmation, PaymentIntent, PaymentsAdapter, RefundRequest } from "./index";
import * as repo from "./payments.repo";

/**
 * The sandbox payment adapter: it collects nothing. It records the request a real provider would have got
 * (WeChat Pay v3's unified order shape) and confirms at once, as test money (`sandbox: true`), so every
 * flow, its states and its money moves work end to end offline while nothing it "collects" can be paid
 * out. Refunds succeed at once for what the payment still holds.
 */
export class LocalPayments implements PaymentsAdapter {
  readonly name = "local";
  readonly sandbox = true;

  async create(tx: Tx, p: PaymentIntent, now: Date): Promise<PaymentConfirmation> {
    const providerTxnId = `SANDBOX${randomUUID().replace(/-/g, "").slice(0, 24)}`;
    const request = {
      ...(p.appId !== undefined && { appid: p.appId }),
      description: p.description.slice(0, 127),
      out_trade_no: p.paymentNo,
      amount: { total: p.amount, currency: p.currency },
      payer: { id: p.payer },
    };
    await repo.insertPayment(tx, {
      payment_no: p.paymentNo,
      provider: this.name,
      sandbox: true,
      merchant_id: p.merchantId,
      subject_type: p.subject.type,
      subject_id: p.subject.id,
      amount: p.amount,
      currency: p.currency,
      state: "paid",
      provider_txn_id: providerTxnId,
      request: JSON.stringify(request),
      created_at: now,
      paid_at: now,
    });
    return { state: "paid", providerTxnId, sandbox: true };
  }

  async query(db: Executor, paymentNo: string): Promise<PaymentConfirmation | null> {
    const r = await repo.paymentState(db, paymentNo);
    if (!r || r.state === "closed") return null;
    return { state: r.state, providerTxnId: r.provider_txn_id, sandbox: true };
  }

  async refund(tx: Tx, req: RefundRequest, now: Date): Promise<{ state: "success" | "failed" }> {
    // The payment's refunded total grows only while it stays within what was paid (the column's check and
    // this condition): a refund beyond it fails, as a provider would refuse it.
    const paymentId = await repo.addRefunded(tx, req.paymentNo, req.amount);
    if (paymentId === undefined) return { state: "failed" };
    await repo.insertRefund(tx, { paymentId, refundNo: req.refundNo, amount: req.amount, now });
    return { state: "success" };
  }

  async close(tx: Tx, paymentNo: string): Promise<void> {
    await repo.closePending(tx, paymentNo);
  }
}
