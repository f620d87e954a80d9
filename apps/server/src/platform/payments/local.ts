import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { PaymentConfirmation, PaymentIntent, PaymentsAdapter, RefundRequest } from "./index";

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
    await tx
      .insertInto("payments")
      .values({
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
      })
      .execute();
    return { state: "paid", providerTxnId, sandbox: true };
  }

  async query(db: Executor, paymentNo: string): Promise<PaymentConfirmation | null> {
    const r = await db
      .selectFrom("payments")
      .select(["state", "provider_txn_id"])
      .where("payment_no", "=", paymentNo)
      .executeTakeFirst();
    if (!r || r.state === "closed") return null;
    return { state: r.state, providerTxnId: r.provider_txn_id, sandbox: true };
  }

  async refund(tx: Tx, req: RefundRequest, now: Date): Promise<{ state: "success" | "failed" }> {
    // The payment's refunded total grows only while it stays within what was paid (the column's check and
    // this condition): a refund beyond it fails, as a provider would refuse it.
    const r = await tx
      .updateTable("payments")
      .set({ refunded: sql`refunded + ${req.amount}` })
      .where("payment_no", "=", req.paymentNo)
      .where("state", "=", "paid")
      .where(sql<boolean>`refunded + ${req.amount} <= amount`)
      .returning("id")
      .executeTakeFirst();
    if (!r) return { state: "failed" };
    await tx
      .insertInto("payment_refunds")
      .values({ payment_id: r.id, refund_no: req.refundNo, amount: req.amount, state: "success", created_at: now })
      .execute();
    return { state: "success" };
  }

  async close(tx: Tx, paymentNo: string): Promise<void> {
    await tx
      .updateTable("payments")
      .set({ state: "closed" })
      .where("payment_no", "=", paymentNo)
      .where("state", "=", "pending")
      .execute();
  }
}
