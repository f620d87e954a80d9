import { randomBytes } from "node:crypto";
import {
  ledgerReason,
  CODE,
  type Currency,
  type Page,
  type PayCodeInfo,
  type PayOrder,
  type PayOrderQuery,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Tx } from "../../db/tx";
import { AppError } from "../../platform/http/errors";
import { moneyText } from "../../platform/money-text";
import { moneyAccounts, pendingAction, type PaymentChannel } from "../../platform/adapters/payments";
import { post } from "../ledger";
import { getMerchant } from "../merchants";
import { currentApplication } from "./applications.repo";
import { liveCodeByToken } from "./codes.repo";
import * as repo from "./payments.repo";
import { presentOrder } from "./presenter";
import type { CollectionDeps } from "./service";

/** A payment through a code left unpaid this long closes (an asynchronous provider's; WeChat Pay's H5 lasts longer). */
export const UNPAID_CLOSE_MINUTES = 15;

/**
 * Payments through a code (the local adapter's simulated wallet pays at once): a payment credits the
 * merchant's income less the fee of its industry, the fee to the platform.
 */
export class PaymentsService {
  constructor(private readonly deps: CollectionDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private async liveCode(token: string) {
    const c = await liveCodeByToken(this.deps.db, token);
    if (!c) throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    return c;
  }

  async codeInfo(token: string): Promise<PayCodeInfo> {
    const c = await this.liveCode(token);
    const m = await getMerchant(this.deps.db, c.merchant_id);
    const app = await currentApplication(this.deps.db, c.merchant_id);
    return {
      merchantName: m?.name ?? "",
      codeName: c.name,
      currency: m?.currency ?? "CNY",
      amount: c.amount,
      limit: app?.per_payment_limit ?? 0,
    };
  }

  /**
   * The payer pays through a code with the local adapter's simulated wallet: the order is made and paid
   * in one transaction (the same request key returns the first order): the merchant's income gets the
   * amount less the fee, the platform the fee.
   */
  async pay(
    token: string,
    req: { amount: number; note: string; requestKey: string },
    payer: { channel?: PaymentChannel; ip?: string } = {},
  ): Promise<PayOrder> {
    const c = await this.liveCode(token);
    const app = await currentApplication(this.deps.db, c.merchant_id);
    if (!app || app.state !== "FINISHED") throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    const m = await getMerchant(this.deps.db, c.merchant_id);
    const currency: Currency = m?.currency ?? "CNY";
    // Bounded amounts: the code's own amount when it fixes one, else within the account's per-payment limit.
    if (c.amount !== null && req.amount !== c.amount) {
      throw new AppError(
        CODE.INVALID_PARAMETER,
        "collection.amountFixed",
        { amount: moneyText(c.amount, currency) },
        "amount",
      );
    }
    if (req.amount > app.per_payment_limit) {
      throw new AppError(
        CODE.INVALID_PARAMETER,
        "collection.overLimit",
        { limit: moneyText(app.per_payment_limit, currency) },
        "amount",
      );
    }
    const first = await repo.orderStateByRequest(this.deps.db, c.id, req.requestKey);
    if (first) {
      // The same request again is the payer's poll: an asynchronous provider is asked when its notice is late.
      if (first.state === "NOTPAY" && this.deps.payments.sync) {
        await this.deps.payments.sync(this.deps.db, first.order_no, this.now());
      }
      return this.orderView(c.merchant_id, first.id);
    }
    const fee = Math.round((req.amount * app.fee_bps) / 10_000);
    const now = this.now();
    const orderNo = `PAY${now.getTime()}${randomBytes(3).toString("hex").toUpperCase()}`;
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const o = await repo.insertOrder(tx, {
          merchant_id: c.merchant_id,
          code_id: c.id,
          order_no: orderNo,
          request_key: req.requestKey,
          amount: req.amount,
          fee,
          currency,
          note: req.note,
          created_at: now,
        });
        // Credited only on the payments seam's confirmation; test money goes to the sandbox accounts. An
        // asynchronous provider (WeChat Pay) answers pending: the order stays NOTPAY with its payAction.
        const paid = await this.deps.payments.create(
          tx,
          {
            merchantId: c.merchant_id,
            subject: { type: "pay_order", id: o.id },
            paymentNo: orderNo,
            amount: req.amount,
            currency,
            description: `${m?.name ?? ""} ${c.name}`.trim(),
            payer: "payer",
            channel: payer.channel,
            payerIp: payer.ip,
          },
          now,
        );
        if (paid.state === "paid") {
          await this.credit(
            tx,
            { id: o.id, merchant_id: c.merchant_id, amount: req.amount, fee, currency, code_name: c.name },
            paid.sandbox,
            now,
          );
        }
        return o.id;
      });
      return await this.orderView(c.merchant_id, id);
    } catch (err) {
      if (isUniqueViolation(err)) {
        const again = await repo.orderByRequest(this.deps.db, c.id, req.requestKey);
        if (again) return this.orderView(c.merchant_id, again.id);
      }
      throw err;
    }
  }

  /** The payment's money arrives: the merchant's income less the fee, the platform the fee; NOTPAY → SUCCESS. */
  private async credit(
    tx: Tx,
    o: { id: number; merchant_id: number; amount: number; fee: number; currency: Currency; code_name: string },
    sandbox: boolean,
    now: Date,
  ): Promise<void> {
    const money = moneyAccounts(sandbox);
    await post(tx, {
      idempotencyKey: `pay-order:${o.id}`,
      kind: "collection_payment",
      currency: o.currency,
      reason: ledgerReason("ledgerReason.collection", { name: o.code_name }),
      subject: { type: "pay_order", id: o.id },
      createdBy: null,
      postings: [
        { account: money.clearing, amount: -o.amount },
        { account: money.income(o.merchant_id), amount: o.amount - o.fee },
        ...(o.fee > 0 ? [{ account: money.fees, amount: o.fee }] : []),
      ],
    });
    await repo.updateOrder(tx, o.id, { state: "SUCCESS", paid_at: now, sandbox });
  }

  /** The seam's handler (issue 41): a notification confirmed this payment; false when it closed meanwhile. */
  async paidByNotice(tx: Tx, id: number, sandbox: boolean, now: Date): Promise<boolean> {
    const o = await repo.lockOrderForCredit(tx, id);
    if (o?.state !== "NOTPAY") return false;
    await this.credit(
      tx,
      { ...o, amount: Number(o.amount), fee: Number(o.fee), merchant_id: Number(o.merchant_id) },
      sandbox,
      now,
    );
    return true;
  }

  /** Payments left NOTPAY for UNPAID_CLOSE_MINUTES close, at the provider too; one paid later is refunded. */
  async closeUnpaid(limit = 200): Promise<number> {
    let n = 0;
    const before = new Date(this.now().getTime() - UNPAID_CLOSE_MINUTES * 60_000);
    for (const o of await repo.unpaidBefore(this.deps.db, before, limit)) {
      const closed = await withTx(this.deps.db, async (tx) => {
        if (!(await repo.closeUnpaidOrder(tx, o.id))) return false;
        await this.deps.payments.close(tx, o.order_no);
        return true;
      });
      if (closed) n++;
    }
    return n;
  }

  private async orderView(merchantId: number, id: number): Promise<PayOrder> {
    const r = await repo.orderOf(this.deps.db, merchantId, id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.orderNotFound");
    const action = r.state === "NOTPAY" ? await pendingAction(this.deps.db, r.order_no) : undefined;
    return { ...presentOrder(r), ...(action && { payAction: action }) };
  }

  async orderList(merchantIds: number[], q: PayOrderQuery): Promise<Page<PayOrder>> {
    const { total, rows } = await repo.orderPage(this.deps.db, merchantIds, q);
    return { list: rows.map((r) => presentOrder(r)), total, page: q.page, pageSize: q.pageSize };
  }
}
