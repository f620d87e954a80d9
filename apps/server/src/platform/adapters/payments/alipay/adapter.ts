import { readFileSync } from "node:fs";
import { AlipaySdk, type AlipaySdkCommonResult } from "alipay-sdk";
import { CODE } from "@tessera/contracts";
import { ALIPAY_LOCAL_PATH, type AlipayConfig } from "../../../../config";
import type { Db, Executor, Tx } from "../../../../db/tx";
import { AppError } from "../../../http/errors";
import type {
  PaymentAction,
  PaymentConfirmation,
  PaymentHandlers,
  PaymentIntent,
  PaymentsAdapter,
  RefundRequest,
} from "../index";
import * as repo from "../payments.repo";
import { ensureAlipayLocalKeys } from "../alipay-local/keys";
import { fenOf, yuanOf } from "./signing";
import { syncAlipayPayment } from "./settle";

export { fenOf, yuanOf };

/** A trade as alipay.trade.query and the async notification describe it (the fields used here). */
export interface AlipayTrade {
  app_id?: string;
  out_trade_no: string;
  trade_no?: string;
  trade_status?: string;
  total_amount?: string;
}

const PAID = new Set(["TRADE_SUCCESS", "TRADE_FINISHED"]);

/**
 * Alipay (issue 41) through the official alipay-sdk: `create` signs a wap pay (phones) or page pay
 * (desktops) request into the cashier URL the payer is sent to (`redirect`) and answers `pending`; the
 * money is credited only by the verified async notification (settle.ts) or a query. Every call to the
 * gateway is signed with the application's private key (RSA2) and every answer verified with Alipay's
 * public key. Refunds are synchronous (success or failed), idempotent by out_request_no = our refund
 * number. Against the local platform (sandbox) what it collects is test money.
 */
export class AlipayAdapter implements PaymentsAdapter {
  readonly name = "alipay";
  readonly sandbox: boolean;
  readonly sdk: AlipaySdk;

  constructor(
    readonly config: AlipayConfig,
    keys: { appPrivateKey: string; alipayPublicKey: string },
    readonly handlers: PaymentHandlers,
    readonly log: (line: string) => void,
  ) {
    this.sandbox = config.local || new URL(config.gateway).pathname.startsWith(ALIPAY_LOCAL_PATH);
    this.sdk = new AlipaySdk({
      appId: config.appId,
      privateKey: keys.appPrivateKey,
      keyType: /BEGIN RSA PRIVATE KEY/.test(keys.appPrivateKey) ? "PKCS1" : "PKCS8",
      alipayPublicKey: keys.alipayPublicKey,
      gateway: config.gateway,
      signType: "RSA2",
      camelcase: false,
      timeout: 10_000,
    });
  }

  private unavailable(what: string, detail: string): AppError {
    this.log(`alipay ${what} failed: ${detail}`);
    return new AppError(CODE.CONFLICT, "payments.providerUnavailable");
  }

  /** One gateway call, its answer's signature verified; a transport or signature failure throws. */
  private async call(method: string, bizContent: Record<string, unknown>): Promise<AlipaySdkCommonResult> {
    try {
      return await this.sdk.exec(method, { bizContent }, { validateSign: true });
    } catch (err) {
      throw this.unavailable(method, (err as Error).message);
    }
  }

  async create(tx: Tx, p: PaymentIntent, now: Date): Promise<PaymentConfirmation> {
    if (p.currency !== "CNY") throw new AppError(CODE.CONFLICT, "payments.notEnabled");
    const existing = await repo.paymentByNo(tx, p.paymentNo);
    if (existing?.state === "paid") {
      return { state: "paid", providerTxnId: existing.provider_txn_id, sandbox: existing.sandbox };
    }
    if (existing?.state === "pending" && existing.action) {
      return {
        state: "pending",
        providerTxnId: null,
        sandbox: existing.sandbox,
        action: existing.action as unknown as PaymentAction,
      };
    }
    if (existing) throw new AppError(CODE.CONFLICT, "payments.closed");
    // Phones (and anything but a desktop's QR code) pay through the wap cashier, desktops through the page one.
    const wap = p.channel !== "native";
    const method = wap ? "alipay.trade.wap.pay" : "alipay.trade.page.pay";
    const bizContent = {
      out_trade_no: p.paymentNo,
      total_amount: yuanOf(p.amount),
      subject: (p.description || p.paymentNo).slice(0, 256),
      product_code: wap ? "QUICK_WAP_WAY" : "FAST_INSTANT_TRADE_PAY",
      // Settled trades keep the merchant for the reconciliation; the notification says it back.
      passback_params: `m${p.merchantId}`,
      timeout_express: "30m",
    };
    const url = this.sdk.pageExec(method, "GET", {
      bizContent,
      notifyUrl: this.config.notifyUrl,
      ...(p.returnUrl && /^https?:\/\//.test(p.returnUrl) && { returnUrl: p.returnUrl }),
    });
    const action: PaymentAction = { kind: "redirect", url };
    await repo.insertPayment(tx, {
      payment_no: p.paymentNo,
      provider: this.name,
      sandbox: this.sandbox,
      merchant_id: p.merchantId,
      subject_type: p.subject.type,
      subject_id: p.subject.id,
      amount: p.amount,
      currency: p.currency,
      state: "pending",
      provider_txn_id: null,
      request: JSON.stringify({ method, biz_content: bizContent }),
      action: JSON.stringify(action),
      created_at: now,
      paid_at: null,
    });
    return { state: "pending", providerTxnId: null, sandbox: this.sandbox, action };
  }

  /** Alipay's trade (null when it does not know it: the payer has not opened the cashier yet). */
  async trade(paymentNo: string): Promise<AlipayTrade | null> {
    const r = await this.call("alipay.trade.query", { out_trade_no: paymentNo });
    if (r.code === "10000") return r as unknown as AlipayTrade;
    if (r.sub_code === "ACQ.TRADE_NOT_EXIST") return null;
    throw this.unavailable(`query ${paymentNo}`, `${r.code} ${r.sub_code ?? ""} ${r.sub_msg ?? r.msg}`);
  }

  async query(_db: Executor, paymentNo: string): Promise<PaymentConfirmation | null> {
    const t = await this.trade(paymentNo);
    if (!t) return null;
    if (PAID.has(t.trade_status ?? "")) {
      return { state: "paid", providerTxnId: t.trade_no ?? null, sandbox: this.sandbox };
    }
    if (t.trade_status === "WAIT_BUYER_PAY") return { state: "pending", providerTxnId: null, sandbox: this.sandbox };
    return null;
  }

  async refund(tx: Tx, req: RefundRequest, now: Date): Promise<{ state: "success" | "failed" }> {
    // A retried refund (same number) answers what the first one became, without asking again.
    const had = await repo.refundStateOf(tx, req.refundNo);
    if (had) return { state: had === "success" ? "success" : "failed" };
    const paymentId = await repo.addRefunded(tx, req.paymentNo, req.amount);
    if (paymentId === undefined) return { state: "failed" };
    const r = await this.call("alipay.trade.refund", {
      out_trade_no: req.paymentNo,
      refund_amount: yuanOf(req.amount),
      out_request_no: req.refundNo,
    });
    if (r.code === "20000" || r.sub_code === "ACQ.SYSTEM_ERROR") {
      // Unknown outcome: nothing is recorded (the caller's transaction rolls back) and the same refund
      // number asked again later is the same refund at Alipay.
      throw this.unavailable(`refund ${req.refundNo}`, `${r.code} ${r.sub_code ?? ""} ${r.sub_msg ?? r.msg}`);
    }
    if (r.code !== "10000") {
      this.log(
        `alipay refund ${req.refundNo} of ${req.paymentNo} refused: ${r.code} ${r.sub_code ?? ""} ${r.sub_msg ?? r.msg}`,
      );
      await repo.releaseRefunded(tx, paymentId, req.amount);
      return { state: "failed" };
    }
    await repo.insertRefund(tx, { paymentId, refundNo: req.refundNo, amount: req.amount, now });
    return { state: "success" };
  }

  async sync(db: Db, paymentNo: string, now: Date): Promise<void> {
    await syncAlipayPayment({ db, adapter: this, handlers: this.handlers, log: this.log }, paymentNo, now);
  }

  async close(tx: Tx, paymentNo: string): Promise<void> {
    const p = await repo.paymentByNo(tx, paymentNo);
    if (p?.state !== "pending") return;
    const r = await this.call("alipay.trade.close", { out_trade_no: paymentNo });
    // Never opened (no trade at Alipay yet) or paid meanwhile (its notification then finds the payment
    // closed and gives the money back, settle.ts): closed here all the same.
    if (r.code !== "10000") {
      this.log(`alipay close ${paymentNo}: ${r.code} ${r.sub_code ?? ""} ${r.sub_msg ?? r.msg}`);
      if (r.sub_code !== "ACQ.TRADE_NOT_EXIST" && r.sub_code !== "ACQ.TRADE_STATUS_ERROR") {
        throw this.unavailable(`close ${paymentNo}`, `${r.code} ${r.sub_code ?? ""}`);
      }
    }
    await repo.closePending(tx, paymentNo);
  }
}

/** The adapter from its settings: key files read (the local platform's made on first start). */
export function createAlipay(
  config: AlipayConfig,
  dataDir: string,
  handlers: PaymentHandlers,
  log: (line: string) => void,
): AlipayAdapter {
  if (config.local) ensureAlipayLocalKeys(dataDir);
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      throw new Error(`Alipay: cannot read ${what} ${file}`);
    }
  };
  return new AlipayAdapter(
    config,
    {
      appPrivateKey: read(config.privateKeyFile, "ALIPAY_PRIVATE_KEY_FILE"),
      alipayPublicKey: read(config.alipayPublicKeyFile, "ALIPAY_PUBLIC_KEY_FILE"),
    },
    handlers,
    log,
  );
}
