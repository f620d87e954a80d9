import { readFileSync } from "node:fs";
import type { PayCode, PayOrder } from "@tessera/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastCode, registerMerchant, startTestApp, type TestApp, uniquePhone } from "../../../../../test/harness";
import { onboarded } from "../../../../../test/kit/collection-fixtures";
import { registerOperator } from "../../../../../test/operators";
import { freePort } from "../../../../../test/ports";
import { checkInvariants } from "../../../../modules/ledger";
import { localKeyFiles } from "../wechatpay-local/keys";
import { encryptResource, platformSign, Rsa } from "./signing";
import { noticesOf } from "./wechatpay.repo";

/**
 * WeChat Pay API v3 end to end (issue 41): the real adapter (wechatpay-axios-plugin) against the local
 * WeChat Pay platform this server serves in sandbox, over real HTTP on a port; notifications signed and
 * encrypted by the platform and verified here before anything is credited.
 */
let t: TestApp;
let origin = "";
beforeAll(async () => {
  const port = await freePort();
  t = await startTestApp({ PAYMENT_ADAPTER: "wechatpay", PORT: String(port) });
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
const key = () => `wx-${Date.now()}-${++seq}`;
const newPhone = () => uniquePhone("15");

interface Order {
  id: string;
  orderNo: string;
  state: string;
  total: { amount: number };
  refunded: { amount: number };
  paidAt: string | null;
  payAction?: { kind: "h5"; url: string } | { kind: "native"; codeUrl: string };
}

const db = () => t.ctx.database.db;

async function customer(): Promise<string> {
  const phone = newPhone();
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
  const res = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  return res.body.data.token;
}

let shopId = "";
async function takeoutShop(): Promise<string> {
  if (shopId) return shopId;
  const brand = await registerMerchant(t, { orgName: "Wok Express" });
  const b = (method: "GET" | "POST" | "PUT", url: string, body?: unknown) =>
    t.call<unknown>(method, `/api/card-brander/takeout/${url}`, { token: brand.token, body });
  await b("PUT", "shop", {
    name: "Wok Express",
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
  const types = (await b("POST", "types", { name: "Wok", sort: 1 })).body as { data: { id: string }[] };
  await b("POST", "items", { typeId: types.data[0]?.id, name: "Fried rice", price: 1500 });
  shopId = brand.merchantId;
  return shopId;
}

/** A takeout order placed and paid (pending at WeChat Pay): its id, number, token and approval URL. */
async function pendingTakeout(ua = PHONE_UA) {
  const merchantId = await takeoutShop();
  const token = await customer();
  const headers = { "x-customer-token": token };
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
  const paid = await t.call<Order>("POST", `/api/mall/takeout/orders/${placed.body.data.id}/pay`, {
    headers: { ...headers, "user-agent": ua },
  });
  expect(paid.body.code).toBe(1);
  const a = paid.body.data.payAction;
  const url = a?.kind === "h5" ? a.url : a?.kind === "native" ? a.codeUrl : "";
  return { order: paid.body.data, headers, url };
}

const post = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "",
    redirect: "manual",
  });
const payment = async (no: string) => {
  const p = await db()
    .selectFrom("payments")
    .select(["state", "refunded", "sandbox"])
    .where("payment_no", "=", no)
    .executeTakeFirst();
  return p && { ...p, refunded: Number(p.refunded) };
};
const notices = async (no: string) => (await noticesOf(db(), no)).map((r) => r.outcome);
const refundState = async (refundNo: string) =>
  (await db().selectFrom("payment_refunds").select("state").where("refund_no", "=", refundNo).executeTakeFirst())
    ?.state;
/** How many times the order's money arrived (takeout_sale transactions). */
const salesOf = async (no: string) =>
  (
    await db()
      .selectFrom("ledger_transactions")
      .select("id")
      .where("kind", "=", "takeout_sale")
      .where("reason", "=", no)
      .execute()
  ).length;

/** The local platform's keys, to sign and encrypt notifications exactly as it (and WeChat Pay) does. */
function platformKeys() {
  const f = localKeyFiles(t.config.dataDir);
  return {
    platform: Rsa.from(readFileSync(f.platformPrivate, "utf8"), Rsa.KEY_TYPE_PRIVATE),
    merchant: Rsa.from(readFileSync(f.merchantPrivate, "utf8"), Rsa.KEY_TYPE_PRIVATE),
    apiv3: readFileSync(f.apiv3Key, "utf8").trim(),
    serial: t.config.wechatpay?.platformPublicKeyId ?? "",
  };
}

function transactionNotice(
  no: string,
  total: number,
  o: { mchid?: string; nowSec?: number; signWith?: "platform" | "merchant" } = {},
) {
  const k = platformKeys();
  const nowSec = o.nowSec ?? Math.floor(t.clock.now().getTime() / 1000);
  const body = JSON.stringify({
    id: `EV-${no}`,
    create_time: "2026-11-29T10:00:00+08:00",
    resource_type: "encrypt-resource",
    event_type: "TRANSACTION.SUCCESS",
    summary: "支付成功",
    resource: encryptResource(
      {
        mchid: o.mchid ?? t.config.wechatpay?.mchid,
        appid: t.config.wechatpay?.appid,
        out_trade_no: no,
        transaction_id: `4200${no}`,
        trade_type: "MWEB",
        trade_state: "SUCCESS",
        success_time: "2026-11-29T10:00:00+08:00",
        payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
        amount: { total, payer_total: total, currency: "CNY", payer_currency: "CNY" },
      },
      k.apiv3,
      "transaction",
      "transaction",
    ),
  });
  return { body, headers: platformSign(body, o.signWith === "merchant" ? k.merchant : k.platform, k.serial, nowSec) };
}

const notify = (n: { body: string; headers: Record<string, string> }) =>
  fetch(`${origin}/api/payments/wechatpay/notify`, {
    method: "POST",
    headers: { "content-type": "application/json", ...n.headers },
    body: n.body,
  });

describe("WeChat Pay through the local platform", () => {
  it("takeout: H5 pending → the approval page → the signed notification credits once; a cancel refunds on its notification", async () => {
    const { order, headers, url } = await pendingTakeout();
    expect(order.state).toBe("pending_payment");
    expect(order.payAction?.kind).toBe("h5");
    expect(url).toMatch(new RegExp(`^${origin}/sandbox/wechatpay/pay/wx\\d+$`));
    expect(await payment(order.orderNo)).toMatchObject({ state: "pending", sandbox: true });
    const page = await (await fetch(url)).text();
    expect(page).toContain("确认支付");
    expect(page).toContain("¥20.00");
    expect(page).toContain(order.orderNo);

    const confirmed = await post(`${url}/confirm`);
    expect(confirmed.status).toBe(303);
    const receipt = await (await fetch(url)).text();
    expect(receipt).toContain("支付成功");
    expect(receipt).not.toContain("商户尚未收到通知");
    const after = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(after.body.data).toMatchObject({ state: "to_be_accepted", total: { amount: 2000 } });
    expect(after.body.data.payAction).toBeUndefined();
    expect(await payment(order.orderNo)).toMatchObject({ state: "paid" });
    expect(await salesOf(order.orderNo)).toBe(1);
    // The platform's query says the same (the adapter's query through the plugin, answer signature verified).
    expect(await t.ctx.payments.query(t.ctx.database.db, order.orderNo)).toMatchObject({
      state: "paid",
      sandbox: true,
    });

    // The customer cancels: the refund is PROCESSING at the provider until its notification.
    const cancelled = await t.call<Order>("POST", `/api/mall/takeout/orders/${order.id}/cancel`, {
      headers,
      body: { reason: "changed my mind" },
    });
    expect(cancelled.body.data).toMatchObject({ state: "cancelled", refunded: { amount: 2000 } });
    const refundNo = `${order.orderNo}R`;
    expect(await refundState(refundNo)).toBe("processing");
    expect(await (await fetch(`${origin}/sandbox/wechatpay/refunds`)).text()).toContain(refundNo);
    const settled = await fetch(`${origin}/sandbox/wechatpay/refunds/${refundNo}/notify?status=SUCCESS`, {
      method: "POST",
    });
    expect(await settled.json()).toEqual({ delivered: true });
    expect(await refundState(refundNo)).toBe("success");
    expect(await notices(order.orderNo)).toEqual(["credited", "settled"]);
  });

  it("a desktop browser gets Native's code_url; a cancelled unpaid order is closed at the provider", async () => {
    const { order, headers, url } = await pendingTakeout(DESKTOP_UA);
    expect(order.payAction?.kind).toBe("native");
    expect(await t.ctx.payments.query(t.ctx.database.db, order.orderNo)).toMatchObject({ state: "pending" });
    await t.call("POST", `/api/mall/takeout/orders/${order.id}/cancel`, { headers, body: { reason: "" } });
    expect(await payment(order.orderNo)).toMatchObject({ state: "closed" });
    expect(await t.ctx.payments.query(t.ctx.database.db, order.orderNo)).toBeNull();
    expect(await (await fetch(url)).text()).toContain("订单已关闭");
  });

  it("forged, replayed, foreign and mismatched notifications change nothing and answer 401 in WeChat's shape", async () => {
    const { order, headers } = await pendingTakeout();
    const good = transactionNotice(order.orderNo, 2000);
    const tampered = { ...good, body: good.body.replace("TRANSACTION.SUCCESS", "TRANSACTION.SUCCESS ") };
    const now = Math.floor(t.clock.now().getTime() / 1000);
    for (const bad of [
      tampered,
      transactionNotice(order.orderNo, 2000, { signWith: "merchant" }),
      transactionNotice(order.orderNo, 2000, { nowSec: now - 600 }),
      transactionNotice(order.orderNo, 2000, { nowSec: now + 600 }),
      transactionNotice(order.orderNo, 2000, { mchid: "1230000109" }),
      transactionNotice(order.orderNo, 1, {}),
      { body: good.body, headers: { ...good.headers, "Wechatpay-Serial": "PUB_KEY_ID_OTHER" } },
      { body: good.body.replace(/"ciphertext":"[^"]{8}/, '"ciphertext":"AAAAAAAA'), headers: good.headers },
    ]) {
      const res = await notify(bad);
      expect(res.status).toBe(401);
      const answer = (await res.json()) as { code: string; message: string };
      expect(answer.code).toBe("FAIL");
      expect(answer.message).not.toBe("");
    }
    expect(await payment(order.orderNo)).toMatchObject({ state: "pending" });
    const still = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(still.body.data.state).toBe("pending_payment");
    expect(await salesOf(order.orderNo)).toBe(0);
    const refused = await db().selectFrom("payment_notices").select("id").where("outcome", "=", "refused").execute();
    expect(refused.length).toBeGreaterThanOrEqual(8);

    // The genuine one, twice: credited once.
    expect((await notify(good)).status).toBe(204);
    expect((await notify(good)).status).toBe(204);
    expect(await salesOf(order.orderNo)).toBe(1);
    expect(await notices(order.orderNo)).toEqual(["refused", "refused", "credited", "duplicate"]);
  });

  it("reordered: a refund notice before its payment's is refused; late: paid after the order closed is refunded", async () => {
    const { order, headers, url } = await pendingTakeout();
    const k = platformKeys();
    const refundBody = JSON.stringify({
      id: "EV-refund-first",
      event_type: "REFUND.SUCCESS",
      resource_type: "encrypt-resource",
      resource: encryptResource(
        {
          mchid: t.config.wechatpay?.mchid,
          out_trade_no: order.orderNo,
          out_refund_no: `${order.orderNo}R`,
          refund_status: "SUCCESS",
          amount: { total: 2000, refund: 2000 },
        },
        k.apiv3,
        "refund",
        "refund",
      ),
    });
    const early = await notify({
      body: refundBody,
      headers: platformSign(refundBody, k.platform, k.serial, Math.floor(t.clock.now().getTime() / 1000)),
    });
    expect(early.status).toBe(401);
    expect(await payment(order.orderNo)).toMatchObject({ state: "pending", refunded: 0 });

    // Paid at the provider while the notification is held back; the customer cancels meanwhile (the close
    // finds it paid); then the notification comes: nothing is credited, the whole payment goes back.
    expect((await post(`${url}/confirm?notify=later`)).status).toBe(303);
    await t.call("POST", `/api/mall/takeout/orders/${order.id}/cancel`, { headers, body: { reason: "" } });
    expect(await payment(order.orderNo)).toMatchObject({ state: "closed" });
    expect((await post(`${url}/notify`)).status).toBe(303);
    expect(await payment(order.orderNo)).toMatchObject({ state: "paid", refunded: 2000 });
    expect(await salesOf(order.orderNo)).toBe(0);
    expect(await refundState(`${order.orderNo}L`)).toBe("processing");
    const gone = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(gone.body.data.state).toBe("cancelled");
    expect(await notices(order.orderNo)).toEqual(["refused", "late_refunded"]);
  });

  it("a lost notification: the customer's poll asks the provider and credits once", async () => {
    const { order, headers, url } = await pendingTakeout();
    await post(`${url}/confirm?notify=later`);
    const polled = await t.call<Order>("GET", `/api/mall/takeout/orders/${order.id}`, { headers });
    expect(polled.body.data.state).toBe("to_be_accepted");
    expect((await post(`${url}/notify`)).status).toBe(303);
    expect(await salesOf(order.orderNo)).toBe(1);
    expect(await notices(order.orderNo)).toEqual(["credited", "duplicate"]);
  });

  it("20 identical notifications at once credit the payment once", async () => {
    const { order } = await pendingTakeout();
    const n = transactionNotice(order.orderNo, 2000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(n)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 204));
    expect(await salesOf(order.orderNo)).toBe(1);
    const outcomes = await notices(order.orderNo);
    expect(outcomes.filter((o) => o === "credited")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(19);
  });

  it("the payer page: NOTPAY with the H5 page, approved, then SUCCESS with the income credited", async () => {
    const m = await registerMerchant(t, { orgName: "Harbour Tea" });
    await onboarded(t, m, await registerOperator(t));
    const code = await t.call<PayCode>("POST", `/api/card-brander/subPassports/${m.userId}/paymentCodes`, {
      token: m.token,
      body: { name: "Counter" },
    });
    const payToken = code.body.data.url.split("/pay/")[1] ?? "";
    const k = key();
    const pay = () =>
      t.call<PayOrder>("POST", `/api/pay-public/codes/${payToken}/pay`, {
        headers: { "user-agent": PHONE_UA },
        body: { amount: 10_000, requestKey: k },
      });
    const first = await pay();
    expect(first.body.data).toMatchObject({ state: "NOTPAY", payAction: { kind: "h5" } });
    const url = first.body.data.payAction?.kind === "h5" ? first.body.data.payAction.url : "";
    expect(await (await fetch(url)).text()).toContain("Harbour Tea Counter");
    await post(`${url}/confirm`);
    const polled = await pay();
    expect(polled.body.data).toMatchObject({ id: first.body.data.id, state: "SUCCESS", net: { amount: 9_962 } });
    expect(polled.body.data.payAction).toBeUndefined();
    const income = await t.call<{ balances: { sandboxIncome: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: m.token,
    });
    expect(income.body.data.balances.sandboxIncome.amount).toBe(9_962);

    // Two partial refunds by the merchant: processing at WeChat Pay until their notifications, one
    // refunded, one refused by the provider (ABNORMAL: its reservation goes back to the payment).
    for (const amount of [3_000, 2_000]) {
      const r = await t.call("POST", "/api/card-brander/paymentRefunds", {
        token: m.token,
        body: { orderId: first.body.data.id, amount, reason: "退一部分", requestKey: key() },
      });
      expect(r.body.code).toBe(1);
    }
    const refunds = await db()
      .selectFrom("payment_refunds")
      .innerJoin("payments", "payments.id", "payment_refunds.payment_id")
      .select(["payment_refunds.refund_no", "payment_refunds.amount", "payment_refunds.state"])
      .where("payments.payment_no", "=", first.body.data.orderNo)
      .orderBy("payment_refunds.id")
      .execute();
    expect(refunds.map((r) => [Number(r.amount), r.state])).toEqual([
      [3_000, "processing"],
      [2_000, "processing"],
    ]);
    expect(await payment(first.body.data.orderNo)).toMatchObject({ refunded: 5_000 });
    for (const [r, status] of [
      [refunds[0], "SUCCESS"],
      [refunds[1], "ABNORMAL"],
    ] as const) {
      const res = await fetch(`${origin}/sandbox/wechatpay/refunds/${r?.refund_no}/notify?status=${status}`, {
        method: "POST",
      });
      expect(await res.json()).toEqual({ delivered: true });
    }
    expect(await Promise.all(refunds.map((r) => refundState(r.refund_no)))).toEqual(["success", "failed"]);
    expect(await payment(first.body.data.orderNo)).toMatchObject({ refunded: 3_000 });
    expect(await notices(first.body.data.orderNo)).toEqual(["credited", "settled", "settled"]);
    // The merchant's list: one refunded, one failed with the money back (income 9,962 − 3,000 + its fee share).
    const list = await t.call<{ list: { amount: { amount: number }; state: string; failReason: string | null }[] }>(
      "GET",
      `/api/card-brander/paymentRefunds?orderId=${first.body.data.id}`,
      { token: m.token, lang: "en" },
    );
    expect(list.body.data.list.map((r) => [r.amount.amount, r.state, r.failReason])).toEqual([
      [2_000, "FAILURE", "The payment provider could not refund; the money is back in the merchant's balance"],
      [3_000, "SUCCESS", null],
    ]);
    const after = await t.call<{ balances: { sandboxIncome: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: m.token,
    });
    expect(after.body.data.balances.sandboxIncome.amount).toBe(9_962 - 3_000 + 11);
  });
});
