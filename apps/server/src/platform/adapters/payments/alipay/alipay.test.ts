import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastCode, registerMerchant, startTestApp, type TestApp, uniquePhone } from "../../../../../test/harness";
import { freePort } from "../../../../../test/ports";
import { withTx } from "../../../../db/tx";
import { checkInvariants } from "../../../../modules/ledger";
import { alipayLocalKeyFiles } from "../alipay-local/keys";
import { noticesOf } from "../payments.repo";
import { ProviderPayments } from "../index";
import { NOTIFY_EXCLUDES, rsa2Sign, signContent } from "./signing";

/**
 * Alipay end to end (issue 41): the real adapter (alipay-sdk) against the local Alipay platform this
 * server serves in sandbox, over real HTTP on a port, in a deployment that offers Alipay and WeChat Pay
 * (PAYMENT_ADAPTER=alipay,wechatpay: a payment naming no provider goes to Alipay). Notifications are
 * signed by the platform with "Alipay's" key and verified here before anything is credited.
 */
let t: TestApp;
let origin = "";
beforeAll(async () => {
  const port = await freePort();
  t = await startTestApp({ PAYMENT_ADAPTER: "alipay,wechatpay", PORT: String(port) });
  await t.app.listen({ port, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  await t.close();
});

const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";
const DESKTOP_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0";
let seq = 0;
const key = () => `ali-${Date.now()}-${++seq}`;
const db = () => t.ctx.database.db;
const local = () => {
  const l = t.app.alipayLocal;
  if (!l) throw new Error("no local Alipay platform");
  return l;
};

interface Order {
  id: string;
  orderNo: string;
  state: string;
  refunded: { amount: number };
  payAction?: { kind: string; url?: string };
}

async function customer(): Promise<string> {
  const phone = uniquePhone("15");
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
  const res = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  return res.body.data.token;
}

let shopId = "";
async function takeoutShop(): Promise<string> {
  if (shopId) return shopId;
  const brand = await registerMerchant(t, { orgName: "Noodle Bar" });
  const b = (method: "POST" | "PUT", url: string, body?: unknown) =>
    t.call<unknown>(method, `/api/card-brander/takeout/${url}`, { token: brand.token, body });
  await b("PUT", "shop", {
    name: "Noodle Bar",
    open: true,
    hours: [{ days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59" }],
    address: "West Lake",
    lat: 30.2741,
    lng: 120.1551,
    areaKind: "radius",
    radiusM: 5000,
    deliveryFee: 500,
    minOrder: 0,
    packingFee: 0,
    tableware: false,
  });
  const types = (await b("POST", "types", { name: "Noodles", sort: 1 })).body as { data: { id: string }[] };
  await b("POST", "items", { typeId: types.data[0]?.id, name: "Beef noodles", price: 1500 });
  shopId = brand.merchantId;
  return shopId;
}

/** A takeout order placed and paid (pending at Alipay): its order, the customer's headers and the cashier URL. */
async function pendingTakeout(ua = PHONE_UA, provider = "") {
  const merchantId = await takeoutShop();
  const headers = { "x-customer-token": await customer() };
  const menu = await t.call<{ items: { id: string }[] }>("GET", `/api/mall/takeout/shops/${merchantId}`);
  const placed = await t.call<Order>("POST", "/api/mall/takeout/orders", {
    headers,
    body: {
      merchantId,
      lines: [{ kind: "item", id: menu.body.data.items[0]?.id, quantity: 1 }],
      contactName: "Li Lei",
      contactPhone: "13900139000",
      address: "Wensan Road 9",
      lat: 30.28,
      lng: 120.16,
      tableware: 0,
      requestKey: key(),
    },
  });
  expect(placed.body.code).toBe(1);
  const query = provider ? `?provider=${provider}` : "";
  const paid = await t.call<Order>("POST", `/api/mall/takeout/orders/${placed.body.data.id}/pay${query}`, {
    headers: { ...headers, "user-agent": ua },
  });
  expect(paid.body.code).toBe(1);
  return { order: paid.body.data, headers, url: paid.body.data.payAction?.url ?? "" };
}

/** Opens the signed cashier request as the payer's browser does: the local gateway checks it and redirects. */
async function openCashier(url: string): Promise<string> {
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location") ?? "", url).toString();
}

const post = (url: string) => fetch(url, { method: "POST", redirect: "manual" });
const payment = async (no: string) => {
  const p = await db()
    .selectFrom("payments")
    .select(["state", "refunded", "sandbox", "provider"])
    .where("payment_no", "=", no)
    .executeTakeFirst();
  return p && { ...p, refunded: Number(p.refunded) };
};
const notices = async (no: string) => (await noticesOf(db(), no)).map((r) => r.outcome);
const salesOf = async (no: string) =>
  (
    await db()
      .selectFrom("ledger_transactions")
      .select("id")
      .where("kind", "=", "takeout_sale")
      .where("reason", "=", no)
      .execute()
  ).length;

/** A paid trade's notification as Alipay sends it, optionally changed (then signed again unless `keepSign`). */
function notice(no: string, change: Record<string, string> = {}, o: { keepSign?: boolean; key?: string } = {}) {
  const base = local().notice(no);
  if (!base) throw new Error(`no trade ${no}`);
  const fields = { ...base, trade_status: "TRADE_SUCCESS", ...change };
  if (o.keepSign) return fields;
  const privateKey = readFileSync(o.key ?? alipayLocalKeyFiles(t.config.dataDir).alipayPrivate, "utf8");
  return { ...fields, sign: rsa2Sign(signContent(fields, NOTIFY_EXCLUDES), privateKey) };
}
const notify = async (fields: Record<string, string>) => {
  const res = await fetch(`${origin}/api/payments/alipay/notify`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
    body: new URLSearchParams(fields).toString(),
  });
  expect(res.status).toBe(200);
  return res.text();
};

describe("Alipay through the local platform", () => {
  it("takeout on a phone: wap pay → the cashier's 确认付款 → the signed notification credits once; a cancel refunds at once", async () => {
    const { order, headers, url } = await pendingTakeout();
    expect(order).toMatchObject({ state: "pending_payment", payAction: { kind: "redirect" } });
    expect(url.startsWith(`${origin}/sandbox/alipay/gateway.do?`)).toBe(true);
    expect(new URL(url).searchParams.get("method")).toBe("alipay.trade.wap.pay");
    expect(new URL(url).searchParams.get("return_url")).toBe(`${t.config.webUrl}/takeout/order/${order.id}`);
    expect(await payment(order.orderNo)).toMatchObject({ state: "pending", sandbox: true, provider: "alipay" });
    // Not opened yet: Alipay does not know the trade.
    expect(await t.ctx.payments.query(db(), order.orderNo)).toBeNull();

    const cashier = await openCashier(url);
    const page = await (await fetch(cashier)).text();
    expect(page).toContain("确认付款");
    expect(page).toContain("¥20.00");
    expect(page).toContain(order.orderNo);
    expect(await t.ctx.payments.query(db(), order.orderNo)).toMatchObject({ state: "pending" });

    expect((await post(`${cashier}/confirm`)).status).toBe(303);
    const receipt = await (await fetch(cashier)).text();
    expect(receipt).toContain("付款成功");
    expect(receipt).toContain(`action="${t.config.webUrl}/takeout/order/${order.id}"`);
    const after = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(after.body.data.state).toBe("to_be_accepted");
    expect(after.body.data.payAction).toBeUndefined();
    expect(await payment(order.orderNo)).toMatchObject({ state: "paid" });
    expect(await salesOf(order.orderNo)).toBe(1);
    expect(await t.ctx.payments.query(db(), order.orderNo)).toMatchObject({ state: "paid", sandbox: true });

    // Cancelled: Alipay refunds synchronously (out_request_no = our refund number).
    const cancelled = await t.call<Order>("POST", `/api/mall/takeout/orders/${order.id}/cancel`, {
      headers,
      body: { reason: "changed my mind" },
    });
    expect(cancelled.body.data).toMatchObject({ state: "cancelled", refunded: { amount: 2000 } });
    expect(local().store.trade(order.orderNo)).toMatchObject({ trade_status: "TRADE_CLOSED", refunded: 2000 });
    // The same refund asked again is the same refund: nothing moves twice.
    const again = await withTx(db(), (tx) =>
      t.ctx.payments.refund(
        tx,
        { paymentNo: order.orderNo, refundNo: `${order.orderNo}R`, amount: 2000 },
        t.clock.now(),
      ),
    );
    expect(again.state).toBe("success");
    expect(await payment(order.orderNo)).toMatchObject({ refunded: 2000 });
    expect(local().store.trade(order.orderNo)).toMatchObject({ refunded: 2000 });
    expect(await notices(order.orderNo)).toEqual(["credited"]);
  });

  it("a desktop gets page pay; a cancelled unpaid order is closed at Alipay and its cashier says so", async () => {
    const { order, headers, url } = await pendingTakeout(DESKTOP_UA);
    expect(new URL(url).searchParams.get("method")).toBe("alipay.trade.page.pay");
    const cashier = await openCashier(url);
    await t.call("POST", `/api/mall/takeout/orders/${order.id}/cancel`, { headers, body: { reason: "" } });
    expect(await payment(order.orderNo)).toMatchObject({ state: "closed" });
    expect(local().store.trade(order.orderNo)?.trade_status).toBe("TRADE_CLOSED");
    expect(await (await fetch(cashier)).text()).toContain("交易已关闭");
  });

  it("a request not signed with the application's key is refused by the gateway", async () => {
    const { url } = await pendingTakeout();
    const forged = new URL(url);
    forged.searchParams.set("biz_content", (forged.searchParams.get("biz_content") ?? "").replace("20.00", "0.01"));
    const res = await fetch(forged, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("isv.invalid-signature");
  });

  it("forged, foreign, mismatched and unknown notifications answer fail and change nothing; the genuine one twice credits once", async () => {
    const { order, headers, url } = await pendingTakeout();
    await openCashier(url);
    const appKey = alipayLocalKeyFiles(t.config.dataDir).appPrivate;
    const genuine = notice(order.orderNo);
    for (const bad of [
      { ...genuine, total_amount: "0.01" },
      notice(order.orderNo, {}, { key: appKey }),
      notice(order.orderNo, { total_amount: "0.01" }),
      notice(order.orderNo, { app_id: "2021000000000009" }),
      notice(order.orderNo, { out_trade_no: `${order.orderNo}X` }),
      { ...genuine, sign: "" },
    ]) {
      expect(await notify(bad)).toBe("fail");
    }
    expect(await payment(order.orderNo)).toMatchObject({ state: "pending" });
    const still = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(still.body.data.state).toBe("pending_payment");
    expect(await salesOf(order.orderNo)).toBe(0);
    expect(await notices(order.orderNo)).toEqual(["refused", "refused", "refused", "refused", "refused"]);

    expect(await notify(genuine)).toBe("success");
    expect(await notify(genuine)).toBe("success");
    expect(await salesOf(order.orderNo)).toBe(1);
    expect((await notices(order.orderNo)).slice(-2)).toEqual(["credited", "duplicate"]);
  });

  it("late: paid while the notification is held, the order cancelled meanwhile: the payment goes back in full", async () => {
    const { order, headers, url } = await pendingTakeout();
    const cashier = await openCashier(url);
    expect((await post(`${cashier}/confirm?notify=later`)).status).toBe(303);
    await t.call("POST", `/api/mall/takeout/orders/${order.id}/cancel`, { headers, body: { reason: "" } });
    expect(await payment(order.orderNo)).toMatchObject({ state: "closed" });
    expect((await post(`${cashier}/notify`)).status).toBe(303);
    expect(await payment(order.orderNo)).toMatchObject({ state: "paid", refunded: 2000 });
    expect(local().store.trade(order.orderNo)).toMatchObject({ trade_status: "TRADE_CLOSED", refunded: 2000 });
    expect(await salesOf(order.orderNo)).toBe(0);
    expect(await notices(order.orderNo)).toEqual(["late_refunded"]);
  });

  it("a lost notification: the customer's poll queries Alipay and credits once", async () => {
    const { order, headers, url } = await pendingTakeout();
    const cashier = await openCashier(url);
    await post(`${cashier}/confirm?notify=later`);
    const polled = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(polled.body.data.state).toBe("to_be_accepted");
    await post(`${cashier}/notify`);
    expect(await salesOf(order.orderNo)).toBe(1);
    expect(await notices(order.orderNo)).toEqual(["credited", "duplicate"]);
  });

  it("20 identical notifications at once credit the payment once", async () => {
    const { order, url } = await pendingTakeout();
    await openCashier(url);
    const n = notice(order.orderNo);
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(n)));
    expect(answers).toEqual(Array.from({ length: 20 }, () => "success"));
    expect(await salesOf(order.orderNo)).toBe(1);
    const outcomes = await notices(order.orderNo);
    expect(outcomes.filter((o) => o === "credited")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(19);
  });

  it("both providers: the menu offers them; the customer's choice of WeChat Pay goes there", async () => {
    const merchantId = await takeoutShop();
    const menu = await t.call<{ payProviders?: string[] }>("GET", `/api/mall/takeout/shops/${merchantId}`);
    expect(menu.body.data.payProviders).toEqual(["alipay", "wechatpay"]);
    const { order } = await pendingTakeout(PHONE_UA, "wechatpay");
    expect(order.payAction?.kind).toBe("h5");
    expect(await payment(order.orderNo)).toMatchObject({ provider: "wechatpay", state: "pending" });
    const bad = await t.call("POST", `/api/mall/takeout/orders/${order.id}/pay?provider=paypal`, {
      headers: { "x-customer-token": await customer() },
    });
    expect(bad.status).toBe(400);
  });

  it("both providers: a payment naming WeChat Pay goes there and is closed there; an unknown provider is refused", async () => {
    const payments = t.ctx.payments;
    expect(payments).toBeInstanceOf(ProviderPayments);
    expect(payments.name).toBe("alipay,wechatpay");
    const merchantId = Number(await takeoutShop());
    const no = `WX${Date.now()}${++seq}`;
    const intent = {
      merchantId,
      subject: { type: "takeout_order" as const, id: 0 },
      paymentNo: no,
      amount: 990,
      currency: "CNY" as const,
      description: "Noodle Bar",
      payer: "13900139000",
      channel: "native" as const,
    };
    const made = await withTx(db(), (tx) => payments.create(tx, { ...intent, provider: "wechatpay" }, t.clock.now()));
    expect(made).toMatchObject({ state: "pending", action: { kind: "native" } });
    expect(await payment(no)).toMatchObject({ provider: "wechatpay", state: "pending" });
    expect(await payments.query(db(), no)).toMatchObject({ state: "pending" });
    await withTx(db(), (tx) => payments.close(tx, no));
    expect(await payment(no)).toMatchObject({ state: "closed" });
    expect(t.app.wechatpayLocal?.store.transaction(no)?.trade_state).toBe("CLOSED");
    await expect(
      withTx(db(), (tx) =>
        payments.create(tx, { ...intent, paymentNo: `${no}Z`, provider: "unionpay" as "alipay" }, t.clock.now()),
      ),
    ).rejects.toMatchObject({ messageKey: "payments.notEnabled" });
  });
});
