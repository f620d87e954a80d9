import { readFileSync } from "node:fs";
import type { KeyObject } from "node:crypto";
import { CODE } from "@tessera/contracts";
import { Wechatpay } from "wechatpay-axios-plugin";
import { WECHATPAY_LOCAL_PATH, type WechatpayConfig } from "../../../../config";
import type { Db, Executor, Tx } from "../../../../db/tx";
import { AppError } from "../../../http/errors";
import type {
  PaymentAction,
  PaymentConfirmation,
  PaymentHandlers,
  PaymentIntent,
  PaymentsAdapter,
  ProviderBillLine,
  RefundRequest,
} from "../index";
import { billHashMatches, parseTradeBill } from "./bills";
import { ensureLocalKeys, localKeyFiles, readApiv3Key } from "../wechatpay-local/keys";
import { jsapiParams, Rsa } from "./signing";
import { syncPayment } from "./settle";
import * as repo from "./wechatpay.repo";

/** The keys the adapter works with: its own to sign, the platform's to verify, the APIv3 key to decrypt. */
export interface WechatPayKeys {
  merchantPrivateKey: KeyObject;
  platformPublicKey: KeyObject;
  apiv3Key: string;
}

/** A transaction as WeChat Pay's query and payment notification describe it (the fields used here). */
export interface WechatTransaction {
  mchid: string;
  appid?: string;
  out_trade_no: string;
  transaction_id?: string;
  trade_state: string;
  success_time?: string;
  amount?: { total: number; currency?: string };
}

interface VendorError {
  response?: { status?: number; data?: unknown };
  message?: string;
}

function vendorError(err: unknown): { status: number; code: string; message: string } {
  const e = err as VendorError;
  const data = (e.response?.data ?? {}) as { code?: string; message?: string };
  return {
    status: e.response?.status ?? 0,
    code: data.code ?? "NETWORK",
    message: data.message ?? e.message ?? String(err),
  };
}

/**
 * WeChat Pay API v3 (issue 41) through wechatpay-axios-plugin: it signs every request with the merchant
 * key (the Authorization header) and verifies every answer's Wechatpay-Signature with the platform public
 * key. `create` asks for a prepay (JSAPI, H5 or Native by the intent's channel) and answers `pending` with
 * what the payer does next; the money is credited only by the verified notification (settle.ts). Refunds
 * answer `processing` until their notification or a query says otherwise. Against the local platform
 * (sandbox) what it collects is test money.
 */
export class WechatPayAdapter implements PaymentsAdapter {
  readonly name = "wechatpay";
  readonly sandbox: boolean;
  readonly client: Wechatpay;

  constructor(
    readonly config: WechatpayConfig,
    readonly keys: WechatPayKeys,
    /** The subjects' handlers the notifications and polls settle through (registered by the modules). */
    readonly handlers: PaymentHandlers,
    readonly log: (line: string) => void,
  ) {
    this.sandbox = config.local || new URL(config.baseUrl).pathname.startsWith(WECHATPAY_LOCAL_PATH);
    this.client = new Wechatpay({
      mchid: config.mchid,
      serial: config.serial,
      privateKey: keys.merchantPrivateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      certs: { [config.platformPublicKeyId]: keys.platformPublicKey },
      baseURL: config.baseUrl,
      timeout: 10_000,
    });
  }

  private fail(what: string, err: unknown): AppError {
    const v = vendorError(err);
    this.log(`wechatpay ${what} failed: HTTP ${v.status} ${v.code} ${v.message}`);
    return new AppError(CODE.CONFLICT, "payments.providerUnavailable");
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
    const channel = p.channel ?? (p.openid ? "jsapi" : "h5");
    const appid = p.appId ?? this.config.appid;
    const body = {
      appid,
      mchid: this.config.mchid,
      description: p.description.slice(0, 127) || p.paymentNo,
      out_trade_no: p.paymentNo,
      // Settled orders keep the merchant for the reconciliation; the notification says it back.
      attach: `m${p.merchantId}`,
      notify_url: this.config.notifyUrl,
      amount: { total: p.amount, currency: "CNY" },
      ...(channel === "jsapi" && { payer: { openid: p.openid ?? "" } }),
      ...(channel === "h5" && { scene_info: { payer_client_ip: p.payerIp ?? "127.0.0.1", h5_info: { type: "Wap" } } }),
    };
    let data: { prepay_id?: string; h5_url?: string; code_url?: string };
    try {
      data = (await this.client.chain(`v3/pay/transactions/${channel}`).post(body)).data as typeof data;
    } catch (err) {
      throw this.fail(`prepay ${p.paymentNo}`, err);
    }
    const action: PaymentAction | null =
      channel === "jsapi" && data.prepay_id
        ? {
            kind: "jsapi",
            params: jsapiParams(appid, data.prepay_id, this.keys.merchantPrivateKey, Math.floor(now.getTime() / 1000)),
          }
        : channel === "h5" && data.h5_url
          ? { kind: "h5", url: data.h5_url }
          : channel === "native" && data.code_url
            ? { kind: "native", codeUrl: data.code_url }
            : null;
    if (!action) throw this.fail(`prepay ${p.paymentNo}`, new Error(`no payer step in ${JSON.stringify(data)}`));
    await repo.insertPending(tx, {
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
      request: JSON.stringify(body),
      action: JSON.stringify(action),
      created_at: now,
      paid_at: null,
    });
    return { state: "pending", providerTxnId: null, sandbox: this.sandbox, action };
  }

  /** The provider's transaction (null when it does not know it). */
  async transaction(paymentNo: string): Promise<WechatTransaction | null> {
    try {
      const res = await this.client
        .chain(`v3/pay/transactions/out-trade-no/${encodeURIComponent(paymentNo)}`)
        .get({ params: { mchid: this.config.mchid } });
      return res.data as WechatTransaction;
    } catch (err) {
      const v = vendorError(err);
      if (v.status === 404 || v.code === "ORDER_NOT_EXIST") return null;
      throw this.fail(`query ${paymentNo}`, err);
    }
  }

  async query(_db: Executor, paymentNo: string): Promise<PaymentConfirmation | null> {
    const t = await this.transaction(paymentNo);
    if (!t) return null;
    if (t.trade_state === "SUCCESS" || t.trade_state === "REFUND") {
      return { state: "paid", providerTxnId: t.transaction_id ?? null, sandbox: this.sandbox };
    }
    if (t.trade_state === "NOTPAY" || t.trade_state === "USERPAYING") {
      return { state: "pending", providerTxnId: null, sandbox: this.sandbox };
    }
    return null;
  }

  async refund(tx: Tx, req: RefundRequest, now: Date): Promise<{ state: "success" | "processing" | "failed" }> {
    const payment = await repo.paymentByNo(tx, req.paymentNo);
    const paymentId = payment ? await repo.addRefunded(tx, req.paymentNo, req.amount) : undefined;
    if (!payment || paymentId === undefined) return { state: "failed" };
    let status: string;
    let refundId: string | null;
    try {
      const res = await this.client.chain("v3/refund/domestic/refunds").post({
        out_trade_no: req.paymentNo,
        out_refund_no: req.refundNo,
        notify_url: this.config.notifyUrl,
        amount: { refund: req.amount, total: payment.amount, currency: "CNY" },
      });
      const data = res.data as { status?: string; refund_id?: string };
      status = data.status ?? "PROCESSING";
      refundId = data.refund_id ?? null;
    } catch (err) {
      const v = vendorError(err);
      this.log(`wechatpay refund ${req.refundNo} of ${req.paymentNo} refused: HTTP ${v.status} ${v.code} ${v.message}`);
      await repo.releaseRefunded(tx, paymentId, req.amount);
      return { state: "failed" };
    }
    const state = status === "SUCCESS" ? "success" : status === "PROCESSING" ? "processing" : "failed";
    if (state === "failed") await repo.releaseRefunded(tx, paymentId, req.amount);
    await repo.insertRefund(tx, { paymentId, refundNo: req.refundNo, amount: req.amount, state, now });
    if (refundId) await repo.setRefundProviderId(tx, req.refundNo, refundId);
    return { state };
  }

  /** The refund as the provider sees it now: SUCCESS, PROCESSING, ABNORMAL or CLOSED (null: unknown). */
  async refundStatus(refundNo: string): Promise<{ status: string; refund_id?: string } | null> {
    try {
      const res = await this.client.chain(`v3/refund/domestic/refunds/${encodeURIComponent(refundNo)}`).get();
      return res.data as { status: string; refund_id?: string };
    } catch (err) {
      const v = vendorError(err);
      if (v.status === 404) return null;
      throw this.fail(`refund query ${refundNo}`, err);
    }
  }

  async sync(db: Db, paymentNo: string, now: Date): Promise<void> {
    await syncPayment({ db, adapter: this, handlers: this.handlers, log: this.log }, paymentNo, now);
  }

  /**
   * The day's trade bill (bill_type ALL: the payments and the refunds started that day): asks for it,
   * downloads the file from its download_url with a signed request (the vendor does not sign the file:
   * its SHA1 from the first answer is checked instead) and parses it. No bill for a day without trade
   * (NO_STATEMENT_EXIST) is an empty day.
   */
  async bill(day: string): Promise<ProviderBillLine[]> {
    let meta: { download_url?: string; hash_type?: string; hash_value?: string };
    try {
      meta = (await this.client.chain("v3/bill/tradebill").get({ params: { bill_date: day, bill_type: "ALL" } }))
        .data as typeof meta;
    } catch (err) {
      if (vendorError(err).code === "NO_STATEMENT_EXIST") return [];
      throw this.fail(`trade bill ${day}`, err);
    }
    if (!meta.download_url) throw this.fail(`trade bill ${day}`, new Error("no download_url"));
    // Relative to the configured base (the vendor's, or the local platform's under its path).
    const url = new URL(meta.download_url);
    const base = new URL(this.config.baseUrl);
    const basePath = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
    const rel = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname.slice(1);
    let file: Buffer;
    try {
      const res = await this.client.chain(rel).get({
        params: Object.fromEntries(url.searchParams),
        responseType: "arraybuffer",
      });
      file = Buffer.from(res.data as ArrayBuffer);
    } catch (err) {
      throw this.fail(`trade bill ${day} download`, err);
    }
    if (!billHashMatches(file, meta.hash_type ?? "", meta.hash_value ?? "")) {
      this.log(`wechatpay trade bill ${day}: the file's ${meta.hash_type} is not ${meta.hash_value}`);
      throw new AppError(CODE.CONFLICT, "payments.billHashMismatch");
    }
    return parseTradeBill(file.toString("utf8")).lines.map((l) => {
      const m = /^m(\d+)$/.exec(l.attach);
      return {
        kind: l.kind,
        paymentNo: l.paymentNo,
        refundNo: l.refundNo,
        providerRef: l.providerRef,
        amount: l.amount,
        merchantId: m ? Number(m[1]) : null,
      };
    });
  }

  async close(tx: Tx, paymentNo: string): Promise<void> {
    const p = await repo.paymentByNo(tx, paymentNo);
    if (p?.state !== "pending") return;
    try {
      await this.client
        .chain(`v3/pay/transactions/out-trade-no/${encodeURIComponent(paymentNo)}/close`)
        .post({ mchid: this.config.mchid });
    } catch (err) {
      // Paid meanwhile (ORDERPAID): closed here all the same; its notification finds the payment closed and
      // gives the money back (settle.ts).
      const v = vendorError(err);
      this.log(`wechatpay close ${paymentNo}: HTTP ${v.status} ${v.code} ${v.message}`);
      if (v.code !== "ORDERPAID" && v.code !== "ORDER_CLOSED" && v.code !== "ORDER_NOT_EXIST") {
        throw this.fail(`close ${paymentNo}`, err);
      }
    }
    await repo.closePending(tx, paymentNo);
  }
}

/** The adapter from its settings: key files read (the local platform's made on first start). */
export function createWechatPay(
  config: WechatpayConfig,
  dataDir: string,
  handlers: PaymentHandlers,
  log: (line: string) => void,
): WechatPayAdapter {
  let apiv3Key = config.apiv3Key;
  if (config.local) {
    const files = ensureLocalKeys(dataDir);
    apiv3Key = readApiv3Key(files);
  }
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      throw new Error(`WeChat Pay: cannot read ${what} ${file}`);
    }
  };
  return new WechatPayAdapter(
    config,
    {
      merchantPrivateKey: Rsa.from(read(config.privateKeyFile, "WECHATPAY_PRIVATE_KEY_FILE"), Rsa.KEY_TYPE_PRIVATE),
      platformPublicKey: Rsa.from(
        read(config.platformPublicKeyFile, "WECHATPAY_PLATFORM_PUBLIC_KEY_FILE"),
        Rsa.KEY_TYPE_PUBLIC,
      ),
      apiv3Key,
    },
    handlers,
    log,
  );
}

export { localKeyFiles };
