import {
  ALIPAY_LOCAL_PATH,
  ALIPAY_VENDOR_GATEWAY,
  WECHATPAY_LOCAL_PATH,
  WECHATPAY_VENDOR_URL,
  type Config,
  type PaymentProviderName,
} from "../../../config";
import type { Db, Executor, Tx } from "../../../db/tx";
import * as repo from "./payments.repo";
import { AppError } from "../../http/errors";
import { CODE } from "@tessera/contracts";
import { LocalPayments } from "./local";
import { createWechatPay } from "./wechatpay/adapter";
import { createAlipay } from "./alipay/adapter";

export type { PaymentProviderName };

/**
 * The one payments seam (issue 37). Every place that takes a customer's money (the mall's wallet pay,
 * takeout, the collection payer page, anything later) asks the adapter to collect and credits money only
 * on its confirmation. Built in the context beside mail and SMS; configuration picks the adapter.
 *
 * The local adapter collects nothing: it confirms at once and says `sandbox`, and the flows then post to
 * the sandbox accounts (see `moneyAccounts`), which never feed withdrawals or the automatic payout. A live
 * deployment refuses to start with it (`refuseSandboxPaymentsWhenLive`).
 */
export type PaymentSubjectType = "mall_order" | "takeout_order" | "pay_order";

export interface PaymentIntent {
  merchantId: number;
  subject: { type: PaymentSubjectType; id: number };
  /** Our reference, unique: the provider's out_trade_no. */
  paymentNo: string;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  description: string;
  /** Who pays: the customer's phone or the payer page's anonymous payer. */
  payer: string;
  /** The mini-program or official account the payment is made in, when there is one. */
  appId?: string | undefined;
  /**
   * How the payer pays with an asynchronous provider (WeChat Pay): `jsapi` inside WeChat with the payer's
   * openid, `h5` in a phone's browser, `native` (a QR code) on a desktop. Default `h5`.
   */
  channel?: PaymentChannel | undefined;
  /** The payer's openid in `appId`, for `jsapi`. */
  openid?: string | undefined;
  /** The payer's address (H5's scene_info.payer_client_ip). */
  payerIp?: string | undefined;
  /**
   * Which provider takes it when the deployment offers several (PAYMENT_ADAPTER=wechatpay,alipay): the
   * payer's choice; default the first configured. The payment's row records the one that took it.
   */
  provider?: PaymentProviderName | undefined;
  /** Where the provider's cashier sends the payer back when done (Alipay's return_url): our order page. */
  returnUrl?: string | undefined;
}

export type PaymentChannel = "jsapi" | "h5" | "native";

/**
 * The channel a browser pays with when the payer has no openid: H5 (WeChat's cashier page) on a phone,
 * Native (a QR code to scan) on a desktop. JSAPI needs the payer's openid in a mini-program or official account.
 */
export function channelForUserAgent(userAgent: string | undefined): PaymentChannel {
  return /Mobile|Android|iPhone|iPad|MicroMessenger|HarmonyOS/i.test(userAgent ?? "") ? "h5" : "native";
}

/**
 * What the client needs to pay a pending payment: WeChat's signed JSAPI parameters, the H5 page, the QR
 * code's URL, or (Alipay's wap and page pay) the signed cashier URL to send the browser to.
 */
export type PaymentAction =
  | {
      kind: "jsapi";
      params: { appId: string; timeStamp: string; nonceStr: string; package: string; signType: "RSA"; paySign: string };
    }
  | { kind: "h5"; url: string }
  | { kind: "native"; codeUrl: string }
  | { kind: "redirect"; url: string };

export interface PaymentConfirmation {
  /** `paid`: the provider confirmed the money; `pending`: it will say so later (asynchronous notification). */
  state: "paid" | "pending";
  providerTxnId: string | null;
  /** Test money: nothing was collected. */
  sandbox: boolean;
  /** A pending payment: what the payer does next. */
  action?: PaymentAction | undefined;
}

/** A payment the provider confirmed, as the subject's handler gets it. */
export interface SettledPayment {
  paymentNo: string;
  subjectId: number;
  merchantId: number;
  amount: number;
  sandbox: boolean;
  providerTxnId: string;
}

/** A refund the provider settled (after it answered `processing`). */
export interface SettledRefund {
  paymentNo: string;
  refundNo: string;
  subjectId: number;
  amount: number;
  sandbox: boolean;
  state: "success" | "failed";
}

/**
 * What a subject (a takeout order, a payer-page order…) does when an asynchronous provider confirms its
 * payment or settles its refund, in the transaction that records it. `paid` answers false when the subject
 * can no longer take the money (the order closed meanwhile): the payment is then refunded in full.
 * Modules register theirs at start; `platform/` never imports `modules/`.
 */
export interface PaymentHandler {
  paid(tx: Tx, p: SettledPayment, now: Date): Promise<boolean>;
  refundSettled?(tx: Tx, r: SettledRefund, now: Date): Promise<void>;
}

export class PaymentHandlers {
  readonly #bySubject = new Map<PaymentSubjectType, PaymentHandler>();
  register(subject: PaymentSubjectType, handler: PaymentHandler): void {
    this.#bySubject.set(subject, handler);
  }
  of(subject: PaymentSubjectType): PaymentHandler | undefined {
    return this.#bySubject.get(subject);
  }
}

export interface RefundRequest {
  paymentNo: string;
  refundNo: string;
  amount: number;
}

export interface PaymentsAdapter {
  readonly name: string;
  /** Whether what this adapter collects is test money (never paid out). */
  readonly sandbox: boolean;
  /** Asks the provider to collect the intent, recorded in the caller's transaction. */
  create(tx: Tx, intent: PaymentIntent, now: Date): Promise<PaymentConfirmation>;
  /** The provider's current word on a payment (null when it does not know it). */
  query(db: Executor, paymentNo: string): Promise<PaymentConfirmation | null>;
  /** Gives back part or all of a confirmed payment, recorded in the caller's transaction. */
  refund(tx: Tx, req: RefundRequest, now: Date): Promise<{ state: "success" | "processing" | "failed" }>;
  /** Closes an unpaid payment at the provider. */
  close(tx: Tx, paymentNo: string): Promise<void>;
  /**
   * Asynchronous adapters: asks the provider about a pending payment whose notification has not come and
   * settles it as the notification would have (the client's poll calls it). Outside any transaction.
   */
  sync?(db: Db, paymentNo: string, now: Date): Promise<void>;
  /**
   * Providers that publish daily bills (WeChat Pay): the payments and refunds of a platform day
   * (YYYY-MM-DD, Asia/Shanghai) as the provider's bill has them, for the reconciliation.
   */
  bill?(day: string): Promise<ProviderBillLine[]>;
}

/** One line of a provider's daily bill, in the seam's terms. */
export interface ProviderBillLine {
  kind: "payment" | "refund";
  paymentNo: string;
  refundNo: string | null;
  /** The provider's own reference (transaction or refund id). */
  providerRef: string;
  /** Minor units (fen). */
  amount: number;
  /** The merchant the payment was made for, as the adapter told the provider (null: unknown). */
  merchantId: number | null;
}

/** A pending payment's next step for the payer (what `create` answered), or undefined when it is not pending. */
export async function pendingAction(db: Executor, paymentNo: string): Promise<PaymentAction | undefined> {
  const r = await repo.pendingAction(db, paymentNo);
  return r?.state === "pending" && r.action ? (r.action as unknown as PaymentAction) : undefined;
}

/** No customer payments: a live deployment that has not configured a real provider yet. */
export class NoPayments implements PaymentsAdapter {
  readonly name = "none";
  readonly sandbox = false;
  create(): Promise<PaymentConfirmation> {
    return Promise.reject(new AppError(CODE.CONFLICT, "payments.notEnabled"));
  }
  query(): Promise<PaymentConfirmation | null> {
    return Promise.resolve(null);
  }
  refund(): Promise<{ state: "failed" }> {
    return Promise.resolve({ state: "failed" });
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

export function createPayments(
  config: Pick<Config, "paymentAdapter" | "paymentProviders" | "wechatpay" | "alipay" | "mode" | "dataDir">,
  log: (line: string) => void = () => undefined,
  handlers: PaymentHandlers = new PaymentHandlers(),
): PaymentsAdapter {
  const adapters: PaymentsAdapter[] = [];
  for (const name of config.paymentProviders) {
    if (name === "wechatpay" && config.wechatpay) {
      adapters.push(createWechatPay(config.wechatpay, config.dataDir, handlers, log));
    }
    if (name === "alipay" && config.alipay) adapters.push(createAlipay(config.alipay, config.dataDir, handlers, log));
  }
  const [first] = adapters;
  if (first) return adapters.length === 1 ? first : new ProviderPayments(adapters);
  return config.paymentAdapter === "local" ? new LocalPayments() : new NoPayments();
}

/**
 * Several real providers in one deployment (PAYMENT_ADAPTER=wechatpay,alipay): a payment goes to the
 * provider its intent names (default the first configured), and everything later about it (query,
 * refund, close, sync) to the provider its row recorded. Bills are each provider's own: the
 * reconciliation takes the providers one by one (`providersOf`).
 */
export class ProviderPayments implements PaymentsAdapter {
  readonly name: string;
  readonly sandbox: boolean;

  constructor(readonly providers: PaymentsAdapter[]) {
    this.name = providers.map((p) => p.name).join(",");
    this.sandbox = providers.some((p) => p.sandbox);
  }

  /** The provider of that name, if the deployment offers it. */
  provider(name: string): PaymentsAdapter | undefined {
    return this.providers.find((p) => p.name === name);
  }

  private async of(db: Executor, paymentNo: string): Promise<PaymentsAdapter> {
    const name = await repo.providerOf(db, paymentNo);
    const found = name === undefined ? undefined : this.provider(name);
    return found ?? (this.providers[0] as PaymentsAdapter);
  }

  create(tx: Tx, intent: PaymentIntent, now: Date): Promise<PaymentConfirmation> {
    const chosen = intent.provider === undefined ? this.providers[0] : this.provider(intent.provider);
    if (!chosen) return Promise.reject(new AppError(CODE.CONFLICT, "payments.notEnabled"));
    return chosen.create(tx, intent, now);
  }
  async query(db: Executor, paymentNo: string): Promise<PaymentConfirmation | null> {
    return (await this.of(db, paymentNo)).query(db, paymentNo);
  }
  async refund(tx: Tx, req: RefundRequest, now: Date): Promise<{ state: "success" | "processing" | "failed" }> {
    return (await this.of(tx, req.paymentNo)).refund(tx, req, now);
  }
  async close(tx: Tx, paymentNo: string): Promise<void> {
    await (await this.of(tx, paymentNo)).close(tx, paymentNo);
  }
  async sync(db: Db, paymentNo: string, now: Date): Promise<void> {
    await (await this.of(db, paymentNo)).sync?.(db, paymentNo, now);
  }
}

/** The providers behind an adapter: each of a multi-provider deployment's, or the adapter itself. */
export function providersOf(adapter: PaymentsAdapter): PaymentsAdapter[] {
  return adapter instanceof ProviderPayments ? adapter.providers : [adapter];
}

/** The names of the real providers a customer can choose from (empty for local and none). */
export function offeredProviders(adapter: PaymentsAdapter): PaymentProviderName[] {
  return providersOf(adapter)
    .map((a) => a.name)
    .filter((n): n is PaymentProviderName => n === "wechatpay" || n === "alipay");
}

/**
 * The accounts a customer payment moves through: the real ones, or their sandbox mirrors for test money.
 * An order keeps its payment's `sandbox` flag, so its refund or settlement moves the same kind of money.
 */
export function moneyAccounts(sandbox: boolean) {
  return sandbox
    ? {
        clearing: { platform: "sandbox_clearing" as const },
        escrow: { platform: "sandbox_escrow" as const },
        fees: { platform: "sandbox_fees" as const },
        income: (merchantId: number) => ({ merchantId, kind: "sandbox_income" as const }),
      }
    : {
        clearing: { platform: "bank_clearing" as const },
        escrow: { platform: "order_escrow" as const },
        fees: { platform: "fees" as const },
        income: (merchantId: number) => ({ merchantId, kind: "income" as const }),
      };
}

/**
 * A deployment configured for real users (TESSERA_MODE=live, or any real mail or SMS adapter) must not
 * take customers' "payments" through the local adapter, which collects nothing: it refuses to start and
 * says why. Returns the reason, or null when the configuration is coherent.
 */
export function sandboxPaymentsRefusal(
  config: Pick<Config, "mode" | "paymentAdapter" | "paymentAdapterExplicit"> &
    Partial<Pick<Config, "wechatpay" | "alipay">>,
): string | null {
  if (config.mode !== "live") return null;
  if (config.alipay && (config.alipay.local || new URL(config.alipay.gateway).pathname.startsWith(ALIPAY_LOCAL_PATH))) {
    return `TESSERA_MODE is live but ALIPAY_GATEWAY (${config.alipay.gateway}) is the local Alipay platform, which collects no money. Leave it unset for the vendor's ${ALIPAY_VENDOR_GATEWAY}.`;
  }
  if (config.wechatpay && new URL(config.wechatpay.baseUrl).pathname.startsWith(WECHATPAY_LOCAL_PATH)) {
    return `TESSERA_MODE is live but WECHATPAY_BASE_URL (${config.wechatpay.baseUrl}) is the local WeChat Pay platform, which collects no money. Leave it unset for the vendor's ${WECHATPAY_VENDOR_URL}.`;
  }
  if (config.paymentAdapter === "local") {
    return "TESSERA_MODE is live (set, or implied by a real mail or SMS adapter) but PAYMENT_ADAPTER is local, which collects no money: customers' payments would be test money. Configure a real payment provider, or PAYMENT_ADAPTER=none to run without customer payments.";
  }
  if (!config.paymentAdapterExplicit) {
    return "TESSERA_MODE is live: set PAYMENT_ADAPTER explicitly (a real provider, or none to run without customer payments).";
  }
  return null;
}
