import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { billHashMatches, parseTradeBill, TRADE_BILL_HEADER, writeTradeBill, yuanToFen } from "./bills";

/**
 * WeChat Pay's trade bill (交易账单, bill_type ALL) as the vendor documents it: a header row, detail rows
 * with a backquote before every field, the summary header and its row. The sample rows below are the
 * vendor's documented examples.
 */
const SUMMARY_HEADER = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";
// 微信支付「下载对账单」文档的 ALL 明细样例行（云托管）.
const DOCUMENTED_ROW =
  "`2022-03-21 13:51:31,`wxfdc955f7104ad557,`180023671,`176531292,`,`420000612032130748613220688,`2021WERUN1647840687637,`oZWaCKXip5njeEiloC4oeOV1TTsk,`JSAPI,`SUCCESS,`OTHERS,`CNY,`0.01,`0.00,`0,`0,`0.00,`0.00,`,`,`微信云托管支付测试,`,`0.00000,`0.90%,`0.01,`0.00,`";
const DOCUMENTED_SUMMARY = "`12,`0.06,`0.06,`0.00,`0.00000,`0.06,`0.06";

describe("WeChat Pay trade bill", () => {
  it("parses the documented ALL row: 商户订单号, 微信订单号, 应结订单金额 in fen, 商户数据包", () => {
    const bill = parseTradeBill(
      [TRADE_BILL_HEADER, DOCUMENTED_ROW, SUMMARY_HEADER, "`1,`0.01,`0.00,`0.00,`0.00000,`0.01,`0.00"].join("\r\n"),
    );
    expect(bill.count).toBe(1);
    expect(bill.lines).toEqual([
      {
        kind: "payment",
        paymentNo: "2021WERUN1647840687637",
        refundNo: null,
        providerRef: "420000612032130748613220688",
        amount: 1,
        attach: "",
        time: "2022-03-21 13:51:31",
      },
    ]);
  });

  it("refuses the documented sample as it stands: its summary counts 12 orders for the one row shown", () => {
    expect(() =>
      parseTradeBill([TRADE_BILL_HEADER, DOCUMENTED_ROW, SUMMARY_HEADER, DOCUMENTED_SUMMARY].join("\n")),
    ).toThrow(/总交易单数 12 but 1 lines/);
  });

  it("reads the older format's documented rows (总金额 for 应结订单金额, no summary ready yet)", () => {
    const header =
      "交易时间,公众账号ID,商户号,子商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,总金额,代金券或立减优惠金额,微信退款单号,商户退款单号,退款金额,代金券或立减优惠退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率";
    const rows = [
      "`2014-11-10 16:33:45,`wx2421b1c4370ec43b,`10000100,`0,`1000,`1001690740201411100005734289,`1415640626,`085e9858e3ba5186aafcbaed1,`MICROPAY,`SUCCESS,`OTHERS,`CNY,`0.01,`0.0,`0,`0,`0,`0,`,`,`被扫支付测试,`订单额外描述,`0,`0.60%",
      "`2014-11-10 16:46:14,`wx2421b1c4370ec43b,`10000100,`0,`1000,`1002780740201411100005729794,`1415635270,`085e9858e90ca40c0b5aee463,`MICROPAY,`SUCCESS,`OTHERS,`CNY,`0.01,`0.0,`0,`0,`0,`0,`,`,`被扫支付测试,`订单额外描述,`0,`0.60%",
    ];
    const bill = parseTradeBill([header, ...rows].join("\n"));
    expect(bill.lines.map((l) => [l.paymentNo, l.amount, l.attach])).toEqual([
      ["1415640626", 1, "订单额外描述"],
      ["1415635270", 1, "订单额外描述"],
    ]);
  });

  it("writes what it reads: a payment and its refund (交易状态 REFUND, 商户退款单号, 退款金额)", () => {
    const common = {
      time: "2026-11-28 10:00:00",
      appid: "wxd678efh567hg6787",
      mchid: "1230000109",
      transactionId: "4200000000202611280000000001",
      outTradeNo: "TK202611280001",
      openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o",
      tradeType: "MWEB",
      refundId: "",
      outRefundNo: "",
      refundStatus: "",
      description: "外卖订单",
      attach: "m42",
    };
    const text = writeTradeBill([
      { ...common, state: "SUCCESS", amount: 123_456 },
      {
        ...common,
        state: "REFUND",
        amount: 2_005,
        refundId: "50300000000000000000000000001",
        outRefundNo: "TK202611280001R",
        refundStatus: "PROCESSING",
      },
    ]);
    expect(
      text
        .split("\r\n")[1]
        ?.split(",")
        .every((f) => f.startsWith("`")),
    ).toBe(true);
    expect(text).toContain("`1234.56,");
    expect(parseTradeBill(text).lines).toEqual([
      expect.objectContaining({ kind: "payment", paymentNo: "TK202611280001", amount: 123_456, attach: "m42" }),
      expect.objectContaining({
        kind: "refund",
        paymentNo: "TK202611280001",
        refundNo: "TK202611280001R",
        providerRef: "50300000000000000000000000001",
        amount: 2_005,
      }),
    ]);
    expect(text).toContain("`2,`1234.56,`20.05,");
  });

  it("amounts in yuan become fen exactly; anything else is refused", () => {
    expect([yuanToFen("0.01"), yuanToFen("12"), yuanToFen("0.0"), yuanToFen("-1.5"), yuanToFen("0.00000")]).toEqual([
      1, 1200, 0, -150, 0,
    ]);
    expect(() => yuanToFen("1,00")).toThrow();
  });

  it("the downloaded file is taken only when its SHA1 is the one the bill request answered", () => {
    const file = Buffer.from([TRADE_BILL_HEADER, DOCUMENTED_ROW, SUMMARY_HEADER, DOCUMENTED_SUMMARY].join("\r\n"));
    const sha1 = createHash("sha1").update(file).digest("hex");
    expect(billHashMatches(file, "SHA1", sha1)).toBe(true);
    expect(billHashMatches(file, "SHA1", sha1.toUpperCase())).toBe(true);
    const changed = Buffer.from(file);
    changed[changed.length - 1] = 0x37;
    expect(billHashMatches(changed, "SHA1", sha1)).toBe(false);
    expect(billHashMatches(file, "MD5", sha1)).toBe(false);
  });
});
