import type { Config } from "../../../config";
import type { Executor, Tx } from "../../../db/tx";
import { AppError } from "../../http/errors";
import { CODE } from "@tessera/contracts";
import { LocalPayments } from "./local";

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
}

export interface PaymentConfirmation {
  /** `paid`: the provider confirmed the money; `pending`: it will say so later (asynchronous notification). */
  state: "paid" | "pending";
  providerTxnId: string | null;
  /** Test money: nothing was collected. */
  sandbox: boolean;
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

export function createPayments(config: Pick<Config, "paymentAdapter">): PaymentsAdapter {
  return config.paymentAdapter === "local" ? new LocalPayments() : new NoPayments();
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
  config: Pick<Config, "mode" | "paymentAdapter" | "paymentAdapterExplicit">,
): string | null {
  if (config.mode !== "live") return null;
  if (config.paymentAdapter === "local") {
    return "TESSERA_MODE is live (set, or implied by a real mail or SMS adapter) but PAYMENT_ADAPTER is local, which collects no money: customers' payments would be test money. Configure a real payment provider, or PAYMENT_ADAPTER=none to run without customer payments.";
  }
  if (!config.paymentAdapterExplicit) {
    return "TESSERA_MODE is live: set PAYMENT_ADAPTER explicitly (a real provider, or none to run without customer payments).";
  }
  return null;
}
