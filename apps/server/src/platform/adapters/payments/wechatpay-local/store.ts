import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * What the local WeChat Pay platform keeps: its transactions (prepays) and refunds, in one file under
 * DATA_DIR/wechatpay-local. Not in the application's database on purpose: the adapter calls the
 * platform from inside the caller's transaction (a prepay while the order row is locked, a refund inside
 * the cancel), and on the embedded database a second writer would wait for that very transaction — as a
 * real provider, it must not share the merchant's database.
 */
export interface LocalTransaction {
  prepay_id: string;
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  attach: string;
  notify_url: string;
  trade_type: "JSAPI" | "MWEB" | "NATIVE";
  total: number;
  openid: string;
  trade_state: "NOTPAY" | "SUCCESS" | "CLOSED" | "REFUND" | "PAYERROR";
  transaction_id: string | null;
  success_time: string | null;
  created_at: string;
  /** The last notification's delivery: null before any. */
  notified: "delivered" | "failed" | null;
}

export interface LocalRefund {
  refund_id: string;
  out_refund_no: string;
  out_trade_no: string;
  transaction_id: string;
  refund: number;
  total: number;
  notify_url: string;
  status: "PROCESSING" | "SUCCESS" | "ABNORMAL";
  created_at: string;
  success_time: string | null;
  notified: "delivered" | "failed" | null;
}

interface State {
  transactions: Record<string, LocalTransaction>;
  refunds: Record<string, LocalRefund>;
}

export class LocalStore {
  readonly #file: string;
  readonly #state: State;

  constructor(dir: string) {
    this.#file = path.join(dir, "platform-state.json");
    this.#state = existsSync(this.#file)
      ? (JSON.parse(readFileSync(this.#file, "utf8")) as State)
      : { transactions: {}, refunds: {} };
  }

  #save(): void {
    const tmp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.#state), { mode: 0o600 });
    renameSync(tmp, this.#file);
  }

  transaction(outTradeNo: string): LocalTransaction | undefined {
    return this.#state.transactions[outTradeNo];
  }

  transactions(): LocalTransaction[] {
    return Object.values(this.#state.transactions);
  }

  refunds(): LocalRefund[] {
    return Object.values(this.#state.refunds);
  }

  byPrepay(prepayId: string): LocalTransaction | undefined {
    return Object.values(this.#state.transactions).find((t) => t.prepay_id === prepayId);
  }

  putTransaction(t: LocalTransaction): void {
    this.#state.transactions[t.out_trade_no] = t;
    this.#save();
  }

  refund(outRefundNo: string): LocalRefund | undefined {
    return this.#state.refunds[outRefundNo];
  }

  refundsOf(outTradeNo: string): LocalRefund[] {
    return Object.values(this.#state.refunds).filter((r) => r.out_trade_no === outTradeNo);
  }

  processingRefunds(): LocalRefund[] {
    return Object.values(this.#state.refunds).filter((r) => r.status === "PROCESSING");
  }

  putRefund(r: LocalRefund): void {
    this.#state.refunds[r.out_refund_no] = r;
    this.#save();
  }
}
