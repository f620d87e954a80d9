import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * What the local Alipay platform keeps: its trades and refunds, in one file under DATA_DIR/alipay-local.
 * Not in the application's database on purpose (as the local WeChat Pay platform): the adapter calls the
 * platform from inside the caller's transaction, and a provider must not share the merchant's database.
 */
export interface LocalAlipayTrade {
  trade_no: string;
  out_trade_no: string;
  app_id: string;
  subject: string;
  /** Fen. */
  total: number;
  product_code: string;
  notify_url: string;
  /** Where the cashier sends the payer back (the request's return_url; "" without one). */
  return_url?: string;
  passback_params: string;
  trade_status: "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_CLOSED" | "TRADE_FINISHED";
  /** Fen refunded so far. */
  refunded: number;
  gmt_create: string;
  gmt_payment: string | null;
  buyer_id: string;
  /** The last notification's delivery: null before any. */
  notified: "delivered" | "failed" | null;
}

export interface LocalAlipayRefund {
  out_request_no: string;
  out_trade_no: string;
  /** Fen. */
  amount: number;
  gmt_refund_pay: string;
}

interface State {
  trades: Record<string, LocalAlipayTrade>;
  refunds: Record<string, LocalAlipayRefund>;
}

export class LocalAlipayStore {
  readonly #file: string;
  readonly #state: State;

  constructor(dir: string) {
    this.#file = path.join(dir, "platform-state.json");
    this.#state = existsSync(this.#file)
      ? (JSON.parse(readFileSync(this.#file, "utf8")) as State)
      : { trades: {}, refunds: {} };
  }

  #save(): void {
    const tmp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.#state), { mode: 0o600 });
    renameSync(tmp, this.#file);
  }

  trade(outTradeNo: string): LocalAlipayTrade | undefined {
    return this.#state.trades[outTradeNo];
  }

  byTradeNo(tradeNo: string): LocalAlipayTrade | undefined {
    return Object.values(this.#state.trades).find((t) => t.trade_no === tradeNo);
  }

  putTrade(t: LocalAlipayTrade): void {
    this.#state.trades[t.out_trade_no] = t;
    this.#save();
  }

  refund(outTradeNo: string, outRequestNo: string): LocalAlipayRefund | undefined {
    return this.#state.refunds[`${outTradeNo}/${outRequestNo}`];
  }

  putRefund(r: LocalAlipayRefund): void {
    this.#state.refunds[`${r.out_trade_no}/${r.out_request_no}`] = r;
    this.#save();
  }
}
