import { createHash } from "node:crypto";

/**
 * WeChat Pay v3 trade bills (issue 41, item 5): GET /v3/bill/tradebill?bill_date=YYYY-MM-DD&bill_type=ALL
 * answers a download_url with its hash (hash_type SHA1); the file is the documented CSV: a header row, one
 * row per payment (交易状态 SUCCESS) or refund started that day (交易状态 REFUND, with 商户退款单号 and
 * 退款金额), every field after a backquote, then the summary header (总交易单数,…) and its row. Amounts are
 * in yuan with two decimals; here in fen.
 */
export interface BillLine {
  kind: "payment" | "refund";
  /** 商户订单号 (our payment_no). */
  paymentNo: string;
  /** 商户退款单号 (our refund_no), refunds only. */
  refundNo: string | null;
  /** 微信订单号 or 微信退款单号. */
  providerRef: string;
  /** Fen: 应结订单金额 (or 总金额 in the older format) of a payment, 退款金额 of a refund. */
  amount: number;
  /** 商户数据包 (attach): the merchant the adapter wrote, `m<id>`. */
  attach: string;
  /** 交易时间, Beijing time. */
  time: string;
}

export interface ParsedBill {
  lines: BillLine[];
  /** 总交易单数 of the summary block. */
  count: number;
}

/** Yuan with up to two decimals ("0.01", "12", "-1.5") → fen, exactly. */
export function yuanToFen(yuan: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,5}))?$/.exec(yuan.trim());
  if (!m) throw new Error(`not an amount: ${yuan}`);
  const frac = (m[3] ?? "").padEnd(2, "0");
  const fen = Number(m[2]) * 100 + Number(frac.slice(0, 2));
  return m[1] ? -fen : fen;
}

/** The fields of one CSV line, the leading backquote of each taken off. */
function fields(line: string): string[] {
  return line.split(",").map((f) => f.trim().replace(/^`/, ""));
}

export function parseTradeBill(text: string): ParsedBill {
  const rows = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  const header = rows[0] ? fields(rows[0]) : [];
  const col = (...names: string[]) => {
    for (const n of names) {
      const i = header.indexOf(n);
      if (i >= 0) return i;
    }
    return -1;
  };
  const at = {
    time: col("交易时间"),
    txn: col("微信订单号"),
    no: col("商户订单号"),
    state: col("交易状态"),
    amount: col("应结订单金额", "总金额"),
    refundId: col("微信退款单号"),
    refundNo: col("商户退款单号"),
    refund: col("退款金额"),
    attach: col("商户数据包"),
  };
  if (at.no < 0 || at.state < 0 || at.amount < 0) {
    throw new Error("not a WeChat Pay trade bill: no 商户订单号/交易状态/应结订单金额");
  }
  const summaryAt = rows.findIndex((l) => l.startsWith("总交易单数"));
  const detail = rows.slice(1, summaryAt < 0 ? rows.length : summaryAt);
  const lines: BillLine[] = detail.map((row) => {
    const f = fields(row);
    const get = (i: number) => (i >= 0 ? (f[i] ?? "") : "");
    const refund = get(at.state) === "REFUND" || get(at.state) === "REVOKED";
    return refund
      ? {
          kind: "refund",
          paymentNo: get(at.no),
          refundNo: get(at.refundNo),
          providerRef: get(at.refundId),
          amount: yuanToFen(get(at.refund) || "0"),
          attach: get(at.attach),
          time: get(at.time),
        }
      : {
          kind: "payment",
          paymentNo: get(at.no),
          refundNo: null,
          providerRef: get(at.txn),
          amount: yuanToFen(get(at.amount) || "0"),
          attach: get(at.attach),
          time: get(at.time),
        };
  });
  const summary = summaryAt >= 0 && rows[summaryAt + 1] ? fields(rows[summaryAt + 1] ?? "") : [];
  const count = summary[0] !== undefined ? Number(summary[0]) : lines.length;
  if (count !== lines.length) throw new Error(`trade bill: 总交易单数 ${count} but ${lines.length} lines`);
  return { lines, count };
}

const yuan = (fen: number) =>
  `${fen < 0 ? "-" : ""}${Math.floor(Math.abs(fen) / 100)}.${String(Math.abs(fen) % 100).padStart(2, "0")}`;

export const TRADE_BILL_HEADER =
  "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注";

/** One detail row of an ALL bill, as WeChat Pay writes it (the local platform's bill). */
export interface TradeBillRow {
  time: string;
  appid: string;
  mchid: string;
  transactionId: string;
  outTradeNo: string;
  openid: string;
  tradeType: string;
  state: "SUCCESS" | "REFUND";
  /** Fen: the order's total (SUCCESS) or the refund (REFUND). */
  amount: number;
  refundId: string;
  outRefundNo: string;
  refundStatus: string;
  description: string;
  attach: string;
}

/** The ALL bill's CSV (fee 0.60%, rounded to the fen, written with five decimals as the vendor does). */
export function writeTradeBill(rows: TradeBillRow[]): string {
  const q = (v: string | number) => `\`${String(v).replace(/[,\r\n]/g, " ")}`;
  const fee = (fen: number) => `${yuan(Math.round(fen * 0.006))}000`;
  let settled = 0;
  let refunded = 0;
  let fees = 0;
  const body = rows.map((r) => {
    const pay = r.state === "SUCCESS";
    const f = pay ? Math.round(r.amount * 0.006) : -Math.round(r.amount * 0.006);
    if (pay) settled += r.amount;
    else refunded += r.amount;
    fees += f;
    return [
      r.time,
      r.appid,
      r.mchid,
      "0",
      "",
      r.transactionId,
      r.outTradeNo,
      r.openid,
      r.tradeType,
      r.state,
      "OTHERS",
      "CNY",
      pay ? yuan(r.amount) : "0.00",
      "0.00",
      pay ? "0" : r.refundId,
      pay ? "0" : r.outRefundNo,
      pay ? "0.00" : yuan(r.amount),
      "0.00",
      pay ? "" : "ORIGINAL",
      pay ? "" : r.refundStatus,
      r.description,
      r.attach,
      pay ? fee(r.amount) : `-${fee(r.amount)}`,
      "0.60%",
      pay ? yuan(r.amount) : "0.00",
      pay ? "0.00" : yuan(r.amount),
      "",
    ]
      .map(q)
      .join(",");
  });
  return [
    TRADE_BILL_HEADER,
    ...body,
    "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额",
    [rows.length, yuan(settled), yuan(refunded), "0.00", `${yuan(fees)}000`, yuan(settled), yuan(refunded)]
      .map(q)
      .join(","),
    "",
  ].join("\r\n");
}

/** The file's hash as the bill request answered it: SHA1 (the only hash_type WeChat Pay uses), hex. */
export function billHashMatches(file: Buffer, hashType: string, hashValue: string): boolean {
  if (hashType.toUpperCase() !== "SHA1") return false;
  return createHash("sha1").update(file).digest("hex") === hashValue.toLowerCase();
}
