import { createHash, randomBytes, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { WechatpayConfig } from "../../../../config";
import type { Clock } from "../../../clock";
import {
  encryptResource,
  parseAuthorization,
  platformSign,
  requestMessage,
  Rsa,
  MAX_CLOCK_SKEW_SECONDS,
} from "../wechatpay/signing";
import { writeTradeBill, type TradeBillRow } from "../wechatpay/bills";
import { localKeyFiles, readApiv3Key } from "./keys";
import { approvalPage, refundsPage } from "./pages";
import { LocalStore, type LocalRefund, type LocalTransaction } from "./store";

/**
 * The local WeChat Pay platform (issue 41, sandbox only): the v3 endpoints the adapter calls, under
 * /sandbox/wechatpay. It checks the merchant's Authorization (WECHATPAY2-SHA256-RSA2048 over
 * METHOD\nURL\ntimestamp\nnonce\nbody\n with the merchant public key), answers signed with the platform
 * private key (the Wechatpay-* headers the client verifies), serves the payer's approval page and sends
 * notifications signed and AEAD_AES_256_GCM-encrypted as the vendor does. Refunds stay PROCESSING until
 * their notification is asked for (the refunds page or POST /refunds/:no/notify).
 */
export interface LocalPlatform {
  store: LocalStore;
  /**
   * Approves a prepay as the payer would (the page's 确认支付) and notifies; whether the notification was
   * taken. `notify: false` holds the notification back (a network delay) until `renotify`.
   */
  approve(prepayId: string, notify?: boolean): Promise<boolean>;
  /** Sends a paid transaction's notification again (WeChat Pay retries until the merchant takes it). */
  renotify(prepayId: string): Promise<boolean>;
  /** Settles a processing refund and notifies; whether the notification was taken. */
  settleRefund(outRefundNo: string, status: "SUCCESS" | "ABNORMAL"): Promise<boolean>;
  /** Signs and encrypts a notification as the platform does (for the vendor-shaped tests). */
  notification(
    kind: "transaction" | "refund",
    plain: unknown,
    eventType: string,
    nowSec: number,
  ): { body: string; headers: Record<string, string> };
}

type Keys = { merchantPublic: KeyObject; platformPrivate: KeyObject; apiv3Key: string };

const iso = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "+08:00");
const realNow = () => Math.floor(Date.now() / 1000);
const digits = (n: number) => [...randomBytes(n)].map((b) => String(b % 10)).join("");

export function createLocalPlatform(
  config: WechatpayConfig,
  dataDir: string,
  clock: Clock,
  log: (line: string) => void,
) {
  const files = localKeyFiles(dataDir);
  const keys: Keys = {
    merchantPublic: Rsa.from(readFileSync(files.merchantPublic, "utf8"), Rsa.KEY_TYPE_PUBLIC),
    platformPrivate: Rsa.from(readFileSync(files.platformPrivate, "utf8"), Rsa.KEY_TYPE_PRIVATE),
    apiv3Key: readApiv3Key(files),
  };
  const store = new LocalStore(files.dir);

  const notification: LocalPlatform["notification"] = (kind, plain, eventType, nowSec) => {
    const body = JSON.stringify({
      id: `EV-${digits(20)}`,
      create_time: iso(new Date(nowSec * 1000)),
      resource_type: "encrypt-resource",
      event_type: eventType,
      summary: kind === "transaction" ? "支付成功" : eventType === "REFUND.SUCCESS" ? "退款成功" : "退款异常",
      resource: encryptResource(plain, keys.apiv3Key, kind, kind),
    });
    return { body, headers: platformSign(body, keys.platformPrivate, config.platformPublicKeyId, nowSec) };
  };

  async function deliver(url: string, kind: "transaction" | "refund", plain: unknown, eventType: string) {
    const n = notification(kind, plain, eventType, Math.floor(clock.now().getTime() / 1000));
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...n.headers },
        body: n.body,
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status === 200 || res.status === 204) return true;
      log(`local wechatpay: ${eventType} to ${url} answered ${res.status} ${await res.text()}`);
    } catch (err) {
      log(`local wechatpay: ${eventType} to ${url} failed: ${(err as Error).message}`);
    }
    return false;
  }

  const platform: LocalPlatform = {
    store,
    notification,
    async approve(prepayId, notify = true) {
      const t = store.byPrepay(prepayId);
      if (t?.trade_state !== "NOTPAY") return t?.trade_state === "SUCCESS" && t.notified === "delivered";
      store.putTransaction({
        ...t,
        trade_state: "SUCCESS",
        transaction_id: `4200${digits(24)}`,
        success_time: iso(clock.now()),
      });
      return notify ? platform.renotify(prepayId) : false;
    },
    async renotify(prepayId) {
      const t = store.byPrepay(prepayId);
      if (t?.trade_state !== "SUCCESS" && t?.trade_state !== "REFUND") return false;
      const ok = await deliver(
        t.notify_url,
        "transaction",
        transactionView({ ...t, trade_state: "SUCCESS" }),
        "TRANSACTION.SUCCESS",
      );
      store.putTransaction({ ...(store.byPrepay(prepayId) ?? t), notified: ok ? "delivered" : "failed" });
      return ok;
    },
    async settleRefund(outRefundNo, status) {
      const r = store.refund(outRefundNo);
      if (!r) return false;
      const settled: LocalRefund =
        r.status === "PROCESSING" ? { ...r, status, success_time: status === "SUCCESS" ? iso(clock.now()) : null } : r;
      store.putRefund(settled);
      const { status: refund_status, ...view } = refundView(config, settled);
      const ok = await deliver(r.notify_url, "refund", { ...view, refund_status }, `REFUND.${settled.status}`);
      store.putRefund({ ...settled, notified: ok ? "delivered" : "failed" });
      return ok;
    },
  };
  return { platform, routes: localPlatformRoutes(config, keys, store, platform, clock) };
}

function transactionView(t: LocalTransaction) {
  return {
    appid: t.appid,
    mchid: t.mchid,
    out_trade_no: t.out_trade_no,
    ...(t.transaction_id && { transaction_id: t.transaction_id }),
    trade_type: t.trade_type,
    trade_state: t.trade_state,
    trade_state_desc: {
      NOTPAY: "未支付",
      SUCCESS: "支付成功",
      CLOSED: "已关闭",
      REFUND: "转入退款",
      PAYERROR: "支付失败",
    }[t.trade_state],
    bank_type: "OTHERS",
    attach: t.attach,
    ...(t.success_time && { success_time: t.success_time }),
    payer: { openid: t.openid },
    amount: { total: t.total, payer_total: t.total, currency: "CNY", payer_currency: "CNY" },
  };
}
function refundView(config: WechatpayConfig, r: LocalRefund) {
  return {
    mchid: config.mchid,
    refund_id: r.refund_id,
    out_refund_no: r.out_refund_no,
    transaction_id: r.transaction_id,
    out_trade_no: r.out_trade_no,
    channel: "ORIGINAL",
    user_received_account: "支付用户零钱",
    status: r.status,
    refund_status: r.status,
    create_time: r.created_at,
    ...(r.success_time && { success_time: r.success_time }),
    amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund, currency: "CNY" },
  };
}

/**
 * The ALL trade bill of a Beijing day from the platform's records: the transactions paid that day (their
 * success_time) and the refunds started that day, as WeChat Pay writes them.
 */
export function localTradeBill(store: LocalStore, day: string): string {
  const time = (isoTime: string) => isoTime.slice(0, 19).replace("T", " ");
  const rows: TradeBillRow[] = [];
  for (const t of store.transactions()) {
    if ((t.trade_state !== "SUCCESS" && t.trade_state !== "REFUND") || !t.success_time?.startsWith(day)) continue;
    rows.push({
      time: time(t.success_time),
      appid: t.appid,
      mchid: t.mchid,
      transactionId: t.transaction_id ?? "",
      outTradeNo: t.out_trade_no,
      openid: t.openid,
      tradeType: t.trade_type,
      state: "SUCCESS",
      amount: t.total,
      refundId: "",
      outRefundNo: "",
      refundStatus: "",
      description: t.description,
      attach: t.attach,
    });
  }
  for (const r of store.refunds()) {
    if (!r.created_at.startsWith(day)) continue;
    const t = store.transaction(r.out_trade_no);
    rows.push({
      time: time(r.created_at),
      appid: t?.appid ?? "",
      mchid: t?.mchid ?? "",
      transactionId: r.transaction_id,
      outTradeNo: r.out_trade_no,
      openid: t?.openid ?? "",
      tradeType: t?.trade_type ?? "",
      state: "REFUND",
      amount: r.refund,
      refundId: r.refund_id,
      outRefundNo: r.out_refund_no,
      refundStatus: r.status,
      description: t?.description ?? "",
      attach: t?.attach ?? "",
    });
  }
  rows.sort((a, b) => a.time.localeCompare(b.time));
  return writeTradeBill(rows);
}

interface RawReq extends FastifyRequest {
  rawText?: string;
}

function localPlatformRoutes(
  config: WechatpayConfig,
  keys: Keys,
  store: LocalStore,
  platform: LocalPlatform,
  clock: Clock,
) {
  const answer = (reply: FastifyReply, status: number, data: unknown) => {
    const body = data === undefined ? "" : JSON.stringify(data);
    void reply
      .code(status)
      .headers(platformSign(body, keys.platformPrivate, config.platformPublicKeyId, realNow()))
      .type("application/json; charset=utf-8")
      .send(body);
    return reply;
  };
  const error = (reply: FastifyReply, status: number, code: string, message: string) =>
    reply.code(status).type("application/json; charset=utf-8").send(JSON.stringify({ code, message }));

  /** The merchant's signature, or why not. */
  const unauthorized = (req: RawReq): string | null => {
    const a = parseAuthorization(req.headers.authorization);
    if (!a) return "Authorization 不是 WECHATPAY2-SHA256-RSA2048";
    if (a.mchid !== config.mchid) return `商户号 ${a.mchid} 不存在`;
    if (a.serial_no !== config.serial) return `证书序列号 ${a.serial_no} 不存在`;
    if (!a.timestamp || Math.abs(realNow() - Number(a.timestamp)) > MAX_CLOCK_SKEW_SECONDS) return "timestamp 过期";
    const message = requestMessage(req.method, req.url, a.timestamp, a.nonce_str ?? "", req.rawText ?? "");
    return Rsa.verify(message, a.signature ?? "", keys.merchantPublic) ? null : "签名错误";
  };

  // eslint-disable-next-line @typescript-eslint/require-await
  return async function localWechatpay(app: FastifyInstance): Promise<void> {
    app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
      (req as RawReq).rawText = String(body);
      try {
        done(null, body === "" ? {} : JSON.parse(String(body)));
      } catch {
        done(null, {});
      }
    });
    app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, _body, done) =>
      done(null, {}),
    );
    app.addHook("preHandler", async (req, reply) => {
      if (!req.url.includes("/v3/")) return;
      const why = unauthorized(req);
      if (why) return error(reply, 401, "SIGN_ERROR", why);
    });

    app.post<{ Params: { kind: string }; Body: Record<string, unknown> }>(
      "/v3/pay/transactions/:kind",
      async (req, reply) => {
        const kind = req.params.kind;
        const b = req.body as {
          appid?: string;
          mchid?: string;
          description?: string;
          out_trade_no?: string;
          attach?: string;
          notify_url?: string;
          amount?: { total?: number; currency?: string };
          payer?: { openid?: string };
          scene_info?: { payer_client_ip?: string; h5_info?: unknown };
        };
        const type = ({ jsapi: "JSAPI", h5: "MWEB", native: "NATIVE" } as const)[kind as "jsapi" | "h5" | "native"];
        if (!type) return error(reply, 404, "NOT_FOUND", "no such API");
        const total = b.amount?.total;
        if (b.mchid !== config.mchid) return error(reply, 400, "MCH_NOT_EXISTS", "商户号不存在");
        if (b.appid !== config.appid) return error(reply, 400, "APPID_MCHID_NOT_MATCH", "appid和mch_id不匹配");
        if (!b.description || !b.out_trade_no || !/^[\w*|-]{6,32}$/.test(b.out_trade_no) || !b.notify_url) {
          return error(reply, 400, "PARAM_ERROR", "参数错误：description、out_trade_no、notify_url");
        }
        if (!Number.isInteger(total) || (total ?? 0) < 1 || (b.amount?.currency ?? "CNY") !== "CNY") {
          return error(reply, 400, "PARAM_ERROR", "参数错误：amount");
        }
        if (type === "JSAPI" && !b.payer?.openid) return error(reply, 400, "PARAM_ERROR", "JSAPI 需要 payer.openid");
        if (type === "MWEB" && !b.scene_info?.payer_client_ip) {
          return error(reply, 400, "PARAM_ERROR", "H5 需要 scene_info");
        }
        const old = store.transaction(b.out_trade_no);
        if (old?.trade_state === "SUCCESS" || old?.trade_state === "REFUND") {
          return error(reply, 400, "ORDERPAID", "该订单已支付");
        }
        if (old?.trade_state === "CLOSED") return error(reply, 400, "ORDER_CLOSED", "订单已关闭");
        if (old && (old.total !== total || old.trade_type !== type)) {
          return error(reply, 400, "OUT_TRADE_NO_USED", "商户订单号重复");
        }
        const t: LocalTransaction = old ?? {
          prepay_id: `wx${Date.now()}${digits(14)}`,
          appid: b.appid,
          mchid: b.mchid,
          description: b.description,
          out_trade_no: b.out_trade_no,
          attach: b.attach ?? "",
          notify_url: b.notify_url,
          trade_type: type,
          total: total ?? 0,
          openid: b.payer?.openid ?? `o${digits(27)}`,
          trade_state: "NOTPAY",
          transaction_id: null,
          success_time: null,
          created_at: iso(clock.now()),
          notified: null,
        };
        if (!old) store.putTransaction(t);
        const page = `${req.protocol}://${req.host}${req.url.slice(0, req.url.indexOf("/v3/"))}/pay/${t.prepay_id}`;
        return answer(
          reply,
          200,
          kind === "jsapi" ? { prepay_id: t.prepay_id } : kind === "h5" ? { h5_url: page } : { code_url: page },
        );
      },
    );

    app.get<{ Params: { no: string }; Querystring: { mchid?: string } }>(
      "/v3/pay/transactions/out-trade-no/:no",
      async (req, reply) => {
        if (req.query.mchid !== config.mchid) return error(reply, 400, "PARAM_ERROR", "mchid 不匹配");
        const t = store.transaction(req.params.no);
        if (!t) return error(reply, 404, "ORDER_NOT_EXIST", "订单不存在");
        return answer(reply, 200, transactionView(t));
      },
    );

    app.post<{ Params: { no: string } }>("/v3/pay/transactions/out-trade-no/:no/close", async (req, reply) => {
      const t = store.transaction(req.params.no);
      if (!t) return error(reply, 404, "ORDER_NOT_EXIST", "订单不存在");
      if (t.trade_state === "SUCCESS" || t.trade_state === "REFUND") {
        return error(reply, 400, "ORDERPAID", "订单已支付");
      }
      store.putTransaction({ ...t, trade_state: "CLOSED" });
      return answer(reply, 204, undefined);
    });

    app.post("/v3/refund/domestic/refunds", async (req, reply) => {
      const b = req.body as {
        out_trade_no?: string;
        out_refund_no?: string;
        notify_url?: string;
        amount?: { refund?: number; total?: number };
      };
      const t = b.out_trade_no ? store.transaction(b.out_trade_no) : undefined;
      if (!t) return error(reply, 404, "RESOURCE_NOT_EXISTS", "订单不存在");
      if (!b.out_refund_no || !Number.isInteger(b.amount?.refund) || (b.amount?.refund ?? 0) < 1) {
        return error(reply, 400, "PARAM_ERROR", "参数错误");
      }
      const old = store.refund(b.out_refund_no);
      if (old) return answer(reply, 200, refundView(config, old));
      if (t.trade_state !== "SUCCESS" && t.trade_state !== "REFUND") {
        return error(reply, 403, "NOT_ENOUGH", "订单未支付");
      }
      if (b.amount?.total !== t.total) return error(reply, 400, "PARAM_ERROR", "订单金额不一致");
      const refunded = store
        .refundsOf(t.out_trade_no)
        .filter((r) => r.status !== "ABNORMAL")
        .reduce((s, r) => s + r.refund, 0);
      if (refunded + (b.amount.refund ?? 0) > t.total) {
        return error(reply, 403, "NOT_ENOUGH", "退款金额超过订单可退金额");
      }
      const r: LocalRefund = {
        refund_id: `5030${digits(25)}`,
        out_refund_no: b.out_refund_no,
        out_trade_no: t.out_trade_no,
        transaction_id: t.transaction_id ?? "",
        refund: b.amount.refund ?? 0,
        total: t.total,
        notify_url: b.notify_url ?? t.notify_url,
        status: "PROCESSING",
        created_at: iso(clock.now()),
        success_time: null,
        notified: null,
      };
      store.putRefund(r);
      store.putTransaction({ ...t, trade_state: "REFUND" });
      return answer(reply, 200, refundView(config, r));
    });

    // Bills: the request answers where to download the file and its SHA1; the file (not signed, as the
    // vendor's) is served once per token for five minutes.
    const bills = new Map<string, { file: Buffer; until: number }>();
    app.get<{ Querystring: { bill_date?: string; bill_type?: string; tar_type?: string } }>(
      "/v3/bill/tradebill",
      async (req, reply) => {
        const day = req.query.bill_date ?? "";
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return error(reply, 400, "PARAM_ERROR", "bill_date 格式错误");
        if ((req.query.bill_type ?? "ALL") !== "ALL") return error(reply, 400, "PARAM_ERROR", "仅支持 bill_type=ALL");
        if (day >= iso(clock.now()).slice(0, 10)) return error(reply, 400, "NO_STATEMENT_EXIST", "账单未生成");
        const file = Buffer.from(localTradeBill(store, day), "utf8");
        const token = randomBytes(16).toString("hex");
        const now = Date.now();
        for (const [k, v] of bills) if (v.until < now) bills.delete(k);
        bills.set(token, { file, until: now + 5 * 60_000 });
        const base = `${req.protocol}://${req.host}${req.url.slice(0, req.url.indexOf("/v3/"))}`;
        return answer(reply, 200, {
          hash_type: "SHA1",
          hash_value: createHash("sha1").update(file).digest("hex"),
          download_url: `${base}/v3/billdownload/file?token=${token}`,
        });
      },
    );
    app.get<{ Querystring: { token?: string } }>("/v3/billdownload/file", async (req, reply) => {
      const bill = bills.get(req.query.token ?? "");
      if (!bill || bill.until < Date.now()) return error(reply, 400, "PARAM_ERROR", "token 无效或已过期");
      return reply.type("application/octet-stream").send(bill.file);
    });

    app.get<{ Params: { no: string } }>("/v3/refund/domestic/refunds/:no", async (req, reply) => {
      const r = store.refund(req.params.no);
      return r ? answer(reply, 200, refundView(config, r)) : error(reply, 404, "RESOURCE_NOT_EXISTS", "退款单不存在");
    });

    // The payer's side: the approval page (what WeChat's cashier would show) and the refunds waiting.
    app.get<{ Params: { prepay: string }; Querystring: { redirect_url?: string; done?: string } }>(
      "/pay/:prepay",
      async (req, reply) => {
        const t = store.byPrepay(req.params.prepay);
        if (!t) return reply.code(404).type("text/html; charset=utf-8").send("<h1>订单不存在</h1>");
        return reply
          .type("text/html; charset=utf-8")
          .send(approvalPage(t, config.mchid, req.query.redirect_url ?? "", req.query.done ?? ""));
      },
    );
    // confirm (?notify=later: paid, the notification held back as by a network delay), notify (send it
    // again, as WeChat Pay's retries do) or cancel.
    app.post<{ Params: { prepay: string; choice: string }; Querystring: { redirect_url?: string; notify?: string } }>(
      "/pay/:prepay/:choice",
      async (req, reply) => {
        const back = req.query.redirect_url ? `&redirect_url=${encodeURIComponent(req.query.redirect_url)}` : "";
        const { prepay, choice } = req.params;
        if (choice === "confirm" || choice === "notify") {
          const ok =
            choice === "confirm"
              ? await platform.approve(prepay, req.query.notify !== "later")
              : await platform.renotify(prepay);
          const done = ok ? "paid" : req.query.notify === "later" ? "held" : "notify_failed";
          return reply.redirect(`../${prepay}?done=${done}${back}`, 303);
        }
        return reply.redirect(`../${prepay}?done=cancelled${back}`, 303);
      },
    );
    app.get("/refunds", async (_req, reply) =>
      reply.type("text/html; charset=utf-8").send(refundsPage(store.processingRefunds())),
    );
    app.post<{ Params: { no: string }; Querystring: { status?: string } }>(
      "/refunds/:no/notify",
      async (req, reply) => {
        const ok = await platform.settleRefund(req.params.no, req.query.status === "ABNORMAL" ? "ABNORMAL" : "SUCCESS");
        if ((req.headers.accept ?? "").includes("text/html")) return reply.redirect("../../refunds", 303);
        return reply.send({ delivered: ok });
      },
    );
  };
}
