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
import { isUniqueViolation, withTx } from "../../db/tx";
import { AppError } from "../../platform/http/errors";
import { moneyText } from "../../platform/money-text";
import { moneyAccounts } from "../../platform/adapters/payments";
import { post } from "../ledger";
import { getMerchant } from "../merchants";
import { currentApplication } from "./applications.repo";
import { liveCodeByToken } from "./codes.repo";
import * as repo from "./payments.repo";
import { presentOrder } from "./presenter";
import type { CollectionDeps } from "./service";

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
  async pay(token: string, req: { amount: number; note: string; requestKey: string }): Promise<PayOrder> {
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
    const first = await repo.orderByRequest(this.deps.db, c.id, req.requestKey);
    if (first) return this.orderView(c.merchant_id, first.id);
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
        // Credited only on the payments seam's confirmation; test money goes to the sandbox accounts.
        const paid = await this.deps.payments.create(
          tx,
          {
            merchantId: c.merchant_id,
            subject: { type: "pay_order", id: o.id },
            paymentNo: orderNo,
            amount: req.amount,
            currency,
            description: c.name,
            payer: "payer",
          },
          now,
        );
        if (paid.state !== "paid") return o.id;
        const money = moneyAccounts(paid.sandbox);
        await post(tx, {
          idempotencyKey: `pay-order:${o.id}`,
          kind: "collection_payment",
          currency,
          reason: ledgerReason("ledgerReason.collection", { name: c.name }),
          subject: { type: "pay_order", id: o.id },
          createdBy: null,
          postings: [
            { account: money.clearing, amount: -req.amount },
            { account: money.income(c.merchant_id), amount: req.amount - fee },
            ...(fee > 0 ? [{ account: money.fees, amount: fee }] : []),
          ],
        });
        await repo.updateOrder(tx, o.id, { state: "SUCCESS", paid_at: now, sandbox: paid.sandbox });
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

  private async orderView(merchantId: number, id: number): Promise<PayOrder> {
    const r = await repo.orderOf(this.deps.db, merchantId, id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.orderNotFound");
    return presentOrder(r);
  }

  async orderList(merchantIds: number[], q: PayOrderQuery): Promise<Page<PayOrder>> {
    const { total, rows } = await repo.orderPage(this.deps.db, merchantIds, q);
    return { list: rows.map((r) => presentOrder(r)), total, page: q.page, pageSize: q.pageSize };
  }
}
