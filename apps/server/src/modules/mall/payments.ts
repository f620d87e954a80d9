import { randomUUID } from "node:crypto";
import type { Tx } from "../../db/tx";

/**
 * The customer's wallet payment (a social platform's pay, or a bank's): an adapter. The local one pays at
 * once and keeps what it would have sent to the provider (`mall_payments`), so the flow, its states and
 * its money move work end to end offline; the back-office shows the request.
 */
export interface WalletPayment {
  orderId: number;
  orderNo: string;
  amount: number;
  currency: string;
  description: string;
  payer: string;
  appId: string;
}
export interface PaymentAdapter {
  readonly name: string;
  /** Takes the payment in the order's transaction; throws when the provider refuses. */
  pay(tx: Tx, p: WalletPayment, now: Date): Promise<{ transactionId: string }>;
}

export class LocalWallet implements PaymentAdapter {
  readonly name = "local-wallet";
  async pay(tx: Tx, p: WalletPayment, now: Date): Promise<{ transactionId: string }> {
    const transactionId = `LW${randomUUID().replace(/-/g, "").slice(0, 24)}`;
    // The unified-order request a real provider would get (WeChat Pay v3 JSAPI shape).
    const request = {
      appid: p.appId,
      description: p.description.slice(0, 127),
      out_trade_no: p.orderNo,
      amount: { total: p.amount, currency: p.currency },
      payer: { openid: `local-${p.payer}` },
      transaction_id: transactionId,
    };
    await tx.insertInto("mall_payments").values({ order_id: p.orderId, provider: this.name, request: JSON.stringify(request), created_at: now }).execute();
    return { transactionId };
  }
}
