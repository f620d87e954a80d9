import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AlipayConfig } from "../../../../config";
import type { Clock } from "../../../clock";
import { fenOf, NOTIFY_EXCLUDES, REQUEST_EXCLUDES, rsa2Sign, rsa2Verify, signContent, yuanOf } from "../alipay/signing";
import { alipayLocalKeyFiles } from "./keys";
import { cashierPage, errorPage } from "./pages";
import { LocalAlipayStore, type LocalAlipayTrade } from "./store";

/**
 * The local Alipay platform (issue 41, sandbox only), under /sandbox/alipay: the gateway (gateway.do)
 * the adapter's alipay-sdk calls, checking every request's RSA2 signature with the application's public
 * key and answering as Alipay does ({"<method>_response": {...}, "sign": RSA2 over that object's text,
 * with "Alipay's" private key); the wap and page pay requests open the cashier page where the "customer"
 * confirms (确认付款) or cancels; a confirmed trade's async notification is posted form-encoded to the
 * notify_url, signed with "Alipay's" private key over the sorted fields but sign and sign_type.
 */
export interface LocalAlipayPlatform {
  store: LocalAlipayStore;
  /** Confirms a trade as the payer would (确认付款) and notifies; whether the merchant took the notice. */
  approve(outTradeNo: string, notify?: boolean): Promise<boolean>;
  /** Sends a paid trade's notification again (Alipay retries until the merchant answers `success`). */
  renotify(outTradeNo: string): Promise<boolean>;
  /** A paid trade's notification fields, signed as Alipay signs them (for tests that tamper with one). */
  notice(outTradeNo: string): Record<string, string> | null;
  /** Signs notification fields with "Alipay's" private key (sign_type RSA2). */
  sign(fields: Record<string, string>): Record<string, string>;
}

/** Alipay's times: yyyy-MM-dd HH:mm:ss in Beijing time. */
const beijing = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
const digits = (n: number) => [...randomBytes(n)].map((b) => String(b % 10)).join("");

export function createLocalAlipayPlatform(
  config: AlipayConfig,
  dataDir: string,
  clock: Clock,
  log: (line: string) => void,
) {
  const files = alipayLocalKeyFiles(dataDir);
  const appPublicKey = readFileSync(files.appPublic, "utf8");
  const alipayPrivateKey = readFileSync(files.alipayPrivate, "utf8");
  const store = new LocalAlipayStore(files.dir);

  const sign: LocalAlipayPlatform["sign"] = (fields) => {
    const signed = { ...fields, sign_type: "RSA2" };
    return { ...signed, sign: rsa2Sign(signContent(signed, NOTIFY_EXCLUDES), alipayPrivateKey) };
  };

  const notice = (t: LocalAlipayTrade): Record<string, string> => {
    const amount = yuanOf(t.total);
    const now = beijing(clock.now());
    return sign({
      gmt_create: t.gmt_create,
      charset: "utf-8",
      gmt_payment: t.gmt_payment ?? now,
      notify_time: now,
      subject: t.subject,
      buyer_id: t.buyer_id,
      invoice_amount: amount,
      version: "1.0",
      notify_id: `2026${digits(30)}`,
      fund_bill_list: JSON.stringify([{ amount, fundChannel: "ALIPAYACCOUNT" }]),
      notify_type: "trade_status_sync",
      out_trade_no: t.out_trade_no,
      total_amount: amount,
      trade_status: t.trade_status,
      trade_no: t.trade_no,
      auth_app_id: t.app_id,
      receipt_amount: amount,
      point_amount: "0.00",
      buyer_pay_amount: amount,
      app_id: t.app_id,
      seller_id: "2088000000000001",
      ...(t.passback_params && { passback_params: t.passback_params }),
    });
  };

  async function deliver(t: LocalAlipayTrade): Promise<boolean> {
    let ok = false;
    try {
      const res = await fetch(t.notify_url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: new URLSearchParams(notice(t)).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      const text = (await res.text()).trim();
      ok = res.status === 200 && text === "success";
      if (!ok) log(`local alipay: notification of ${t.out_trade_no} answered ${res.status} ${text.slice(0, 200)}`);
    } catch (err) {
      log(`local alipay: notification of ${t.out_trade_no} to ${t.notify_url} failed: ${(err as Error).message}`);
    }
    store.putTrade({ ...(store.trade(t.out_trade_no) ?? t), notified: ok ? "delivered" : "failed" });
    return ok;
  }

  const platform: LocalAlipayPlatform = {
    store,
    sign,
    notice(outTradeNo) {
      const t = store.trade(outTradeNo);
      return t ? notice(t) : null;
    },
    async approve(outTradeNo, notify = true) {
      const t = store.trade(outTradeNo);
      if (t?.trade_status !== "WAIT_BUYER_PAY") {
        return t?.trade_status === "TRADE_SUCCESS" && t.notified === "delivered";
      }
      const paid: LocalAlipayTrade = { ...t, trade_status: "TRADE_SUCCESS", gmt_payment: beijing(clock.now()) };
      store.putTrade(paid);
      return notify ? deliver(paid) : false;
    },
    async renotify(outTradeNo) {
      const t = store.trade(outTradeNo);
      if (t?.trade_status !== "TRADE_SUCCESS" && t?.trade_status !== "TRADE_FINISHED") return false;
      return deliver(t);
    },
  };
  return { platform, routes: localAlipayRoutes(config, appPublicKey, alipayPrivateKey, store, platform, clock) };
}

type Params = Record<string, string>;
type Biz = Record<string, unknown>;

const str = (v: unknown) => (typeof v === "string" ? v : "");

function localAlipayRoutes(
  config: AlipayConfig,
  appPublicKey: string,
  alipayPrivateKey: string,
  store: LocalAlipayStore,
  platform: LocalAlipayPlatform,
  clock: Clock,
) {
  /** An answer as the gateway gives it: the method's response object and its RSA2 signature. */
  const answer = (reply: FastifyReply, method: string, data: Record<string, unknown>) => {
    const key = method ? `${method.replace(/\./g, "_")}_response` : "error_response";
    const text = JSON.stringify(data);
    const sign = rsa2Sign(text, alipayPrivateKey);
    return reply.type("application/json; charset=utf-8").send(`{"${key}":${text},"sign":"${sign}"}`);
  };
  const business = (subCode: string, subMsg: string) => ({
    code: "40004",
    msg: "Business Failed",
    sub_code: subCode,
    sub_msg: subMsg,
  });
  const invalid = (subCode: string, subMsg: string) => ({
    code: "40002",
    msg: "Invalid Arguments",
    sub_code: subCode,
    sub_msg: subMsg,
  });

  /** The request's signature and app, or why not (Alipay's sub_code and message). */
  const refused = (p: Params): [string, string] | null => {
    if (p.app_id !== config.appId) return ["isv.invalid-app-id", `无效的AppID参数 ${p.app_id ?? ""}`];
    if (p.sign_type !== "RSA2") return ["isv.invalid-signature-type", "无效的签名类型"];
    if (!p.sign) return ["isv.missing-signature", "缺少签名参数"];
    const content = signContent(p, REQUEST_EXCLUDES);
    if (!rsa2Verify(content, p.sign, appPublicKey)) {
      return ["isv.invalid-signature", `验签出错，网关生成的验签字符串为：${content}`];
    }
    return null;
  };
  const bizOf = (p: Params): Biz | null => {
    try {
      const b = JSON.parse(p.biz_content ?? "") as unknown;
      return b && typeof b === "object" ? (b as Biz) : null;
    } catch {
      return null;
    }
  };
  const tradeView = (t: LocalAlipayTrade) => ({
    code: "10000",
    msg: "Success",
    trade_no: t.trade_no,
    out_trade_no: t.out_trade_no,
    buyer_logon_id: "159****0001",
    trade_status: t.trade_status,
    total_amount: yuanOf(t.total),
    buyer_pay_amount: t.gmt_payment ? yuanOf(t.total) : "0.00",
    receipt_amount: t.gmt_payment ? yuanOf(t.total) : "0.00",
    ...(t.gmt_payment && { send_pay_date: t.gmt_payment }),
    buyer_user_id: t.buyer_id,
  });

  const methods: Record<string, (b: Biz) => Record<string, unknown>> = {
    "alipay.trade.query": (b) => {
      const t = store.trade(str(b.out_trade_no)) ?? store.byTradeNo(str(b.trade_no));
      return t ? tradeView(t) : business("ACQ.TRADE_NOT_EXIST", "交易不存在");
    },
    "alipay.trade.close": (b) => {
      const no = str(b.out_trade_no);
      const t = store.trade(no);
      if (!t) return business("ACQ.TRADE_NOT_EXIST", "交易不存在");
      if (t.trade_status !== "WAIT_BUYER_PAY" && t.trade_status !== "TRADE_CLOSED") {
        return business("ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
      }
      store.putTrade({ ...t, trade_status: "TRADE_CLOSED" });
      return { code: "10000", msg: "Success", trade_no: t.trade_no, out_trade_no: t.out_trade_no };
    },
    "alipay.trade.refund": (b) => {
      const t = store.trade(str(b.out_trade_no));
      if (!t) return business("ACQ.TRADE_NOT_EXIST", "交易不存在");
      const requestNo = str(b.out_request_no) || t.out_trade_no;
      const amount = fenOf(b.refund_amount);
      if (amount === null || amount < 1) return invalid("isv.invalid-parameter", "refund_amount 无效");
      const done = (fundChange: "Y" | "N", now: string) => ({
        code: "10000",
        msg: "Success",
        trade_no: t.trade_no,
        out_trade_no: t.out_trade_no,
        buyer_logon_id: "159****0001",
        fund_change: fundChange,
        refund_fee: yuanOf((store.trade(t.out_trade_no) ?? t).refunded),
        gmt_refund_pay: now,
        buyer_user_id: t.buyer_id,
        send_back_fee: yuanOf(amount),
      });
      const old = store.refund(t.out_trade_no, requestNo);
      if (old) {
        if (old.amount !== amount) return business("ACQ.REQUEST_AMOUNT_EXCEED", "请求退款金额与原退款金额不一致");
        return done("N", old.gmt_refund_pay);
      }
      if (t.trade_status !== "TRADE_SUCCESS") return business("ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
      if (t.refunded + amount > t.total) return business("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限");
      const now = beijing(clock.now());
      const refunded = t.refunded + amount;
      store.putTrade({ ...t, refunded, trade_status: refunded === t.total ? "TRADE_CLOSED" : t.trade_status });
      store.putRefund({ out_request_no: requestNo, out_trade_no: t.out_trade_no, amount, gmt_refund_pay: now });
      return done("Y", now);
    },
    "alipay.trade.fastpay.refund.query": (b) => {
      const t = store.trade(str(b.out_trade_no));
      if (!t) return business("ACQ.TRADE_NOT_EXIST", "交易不存在");
      const r = store.refund(t.out_trade_no, str(b.out_request_no));
      return {
        code: "10000",
        msg: "Success",
        trade_no: t.trade_no,
        out_trade_no: t.out_trade_no,
        out_request_no: str(b.out_request_no),
        total_amount: yuanOf(t.total),
        ...(r && {
          refund_amount: yuanOf(r.amount),
          refund_status: "REFUND_SUCCESS",
          gmt_refund_pay: r.gmt_refund_pay,
        }),
      };
    },
  };

  // eslint-disable-next-line @typescript-eslint/require-await
  return async function localAlipay(app: FastifyInstance): Promise<void> {
    app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    // The SDK's exec: the common parameters in the query, biz_content in the form body.
    app.post<{ Querystring: Params; Body: Params | undefined }>("/gateway.do", async (req, reply) => {
      const p: Params = { ...req.query, ...(req.body ?? {}) };
      const method = p.method ?? "";
      const why = refused(p);
      if (why) return answer(reply, method, invalid(...why));
      const run = methods[method];
      if (!run) return answer(reply, "", invalid("isv.invalid-method", `不存在的方法名 ${method}`));
      const b = bizOf(p);
      if (!b) return answer(reply, method, invalid("isv.invalid-parameter", "biz_content 无效"));
      return answer(reply, method, run(b));
    });

    // The wap and page pay: the signed request the payer's browser is sent to opens the cashier.
    app.get<{ Querystring: Params }>("/gateway.do", async (req, reply) => {
      const p = req.query;
      const page = (status: number, message: string) =>
        reply.code(status).type("text/html; charset=utf-8").send(errorPage(message));
      const why = refused(p);
      if (why) return page(400, `${why[0]}：${why[1]}`);
      const productCode = {
        "alipay.trade.wap.pay": "QUICK_WAP_WAY",
        "alipay.trade.page.pay": "FAST_INSTANT_TRADE_PAY",
      }[p.method ?? ""];
      const b = bizOf(p);
      if (!productCode || !b) return page(400, "不支持的接口或参数错误");
      const outTradeNo = str(b.out_trade_no);
      const total = fenOf(b.total_amount);
      if (!/^[\w-]{1,64}$/.test(outTradeNo) || total === null || total < 1 || !str(b.subject)) {
        return page(400, "参数错误：out_trade_no、total_amount、subject");
      }
      const old = store.trade(outTradeNo);
      if (old && old.total !== total) return page(400, "商户订单号重复且金额不一致");
      if (old && old.trade_status !== "WAIT_BUYER_PAY") return reply.redirect(`cashier/${old.trade_no}`, 303);
      const now = clock.now();
      const t: LocalAlipayTrade = old ?? {
        trade_no: `${beijing(now).slice(0, 10).replace(/-/g, "")}22001${digits(17)}`,
        out_trade_no: outTradeNo,
        app_id: config.appId,
        subject: str(b.subject),
        total,
        product_code: productCode,
        notify_url: p.notify_url ?? "",
        return_url: p.return_url ?? "",
        passback_params: str(b.passback_params),
        trade_status: "WAIT_BUYER_PAY",
        refunded: 0,
        gmt_create: beijing(now),
        gmt_payment: null,
        buyer_id: `2088${digits(12)}`,
        notified: null,
      };
      if (!old) store.putTrade(t);
      return reply.redirect(`cashier/${t.trade_no}`, 303);
    });

    app.get<{ Params: { tradeNo: string }; Querystring: { done?: string } }>(
      "/cashier/:tradeNo",
      async (req, reply) => {
        const t = store.byTradeNo(req.params.tradeNo);
        const html = t ? cashierPage(t, req.query.done ?? "") : errorPage("交易不存在");
        return reply
          .code(t ? 200 : 404)
          .type("text/html; charset=utf-8")
          .send(html);
      },
    );
    // 确认付款 (?notify=later: paid, the notification held back as by a network delay), 重新通知商户, or 取消.
    app.post<{ Params: { tradeNo: string; choice: string }; Querystring: { notify?: string } }>(
      "/cashier/:tradeNo/:choice",
      async (req, reply) => {
        const { tradeNo, choice } = req.params;
        const t = store.byTradeNo(tradeNo);
        if (!t) return reply.code(404).type("text/html; charset=utf-8").send(errorPage("交易不存在"));
        if (choice === "confirm" || choice === "notify") {
          const ok =
            choice === "confirm"
              ? await platform.approve(t.out_trade_no, req.query.notify !== "later")
              : await platform.renotify(t.out_trade_no);
          const done = ok ? "paid" : req.query.notify === "later" ? "held" : "notify_failed";
          return reply.redirect(`../${tradeNo}?done=${done}`, 303);
        }
        return reply.redirect(`../${tradeNo}?done=cancelled`, 303);
      },
    );
  };
}
