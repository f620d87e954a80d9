import { request as httpRequest, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  lastCode,
  registerMerchant,
  startTestApp,
  STRONG_PASSWORD,
  type TestApp,
  uniquePhone,
} from "../../../test/harness";
import { established, income } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { freePort } from "../../../test/ports";
import { createWechatPay } from "../../platform/adapters/payments/wechatpay/adapter";
import { platformDay, startOfPlatformDay } from "../../platform/clock";
import { checkInvariants } from "../ledger";

/**
 * The daily reconciliation (issue 41, item 5) end to end: takeout orders paid through the real WeChat Pay
 * adapter and the local platform (over HTTP), the platform's records then made to disagree with ours the
 * three ways a bill can, the day's bill downloaded (its SHA1 checked) and matched, the differences holding
 * exactly their merchants' T+1 payout until an operator resolves them.
 */
let t: TestApp;
let ops: { token: string };
beforeAll(async () => {
  const port = await freePort();
  t = await startTestApp({ PAYMENT_ADAPTER: "wechatpay", PORT: String(port), AUTO_PAYOUT: "false" });
  await t.app.listen({ port, host: "127.0.0.1" });
  // A day of its own: on the shared PostgreSQL database no other test file pays on it.
  t.clock.advance(41 * 86_400);
  ops = await registerOperator(t);
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  await t.close();
});

type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
let seq = 0;
const key = () => `rc-${Date.now()}-${++seq}`;
const newPhone = () => uniquePhone("15");
const post = (url: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });

async function takeoutShop(name: string): Promise<Merchant> {
  const m = await registerMerchant(t, { orgName: name });
  const b = (method: "POST" | "PUT", url: string, body?: unknown) =>
    t.call<unknown>(method, `/api/card-brander/takeout/${url}`, { token: m.token, body });
  await b("PUT", "shop", {
    name,
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
  return m;
}

/** A takeout order of 20.00 paid through WeChat Pay H5 and the local platform's approval page. */
async function paidTakeout(m: Merchant, o: { confirmAfter?: number; notifyAfter?: number } = {}) {
  const phone = newPhone();
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
  const login = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  const headers = { "x-customer-token": login.body.data.token };
  const menu = await t.call<{ items: { id: string }[] }>("GET", `/api/mall/takeout/shops/${m.merchantId}`);
  const placed = await t.call<{ id: string }>("POST", "/api/mall/takeout/orders", {
    headers,
    body: {
      merchantId: m.merchantId,
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
  const paid = await t.call<{ id: string; orderNo: string; payAction?: { kind: "h5"; url: string } }>(
    "POST",
    `/api/mall/takeout/orders/${placed.body.data.id}/pay`,
    { headers: { ...headers, "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148" } },
  );
  const url = paid.body.data.payAction?.url ?? "";
  if (o.notifyAfter === undefined) {
    expect((await post(`${url}/confirm`)).ok).toBe(true);
  } else {
    // Paid at the provider later, its notification held back (the approval page's 支付但延迟通知) and sent later still.
    t.clock.advance(o.confirmAfter ?? 0);
    expect((await post(`${url}/confirm?notify=later`)).ok).toBe(true);
    t.clock.advance(o.notifyAfter);
    expect((await post(`${url}/notify`)).ok).toBe(true);
  }
  const state = await t.ctx.database.db
    .selectFrom("payments")
    .select("state")
    .where("payment_no", "=", paid.body.data.orderNo)
    .executeTakeFirst();
  expect(state?.state).toBe("paid");
  return { id: paid.body.data.id, orderNo: paid.body.data.orderNo, headers };
}

interface Difference {
  id: string;
  kind: string;
  entry: string;
  reference: string;
  merchantId: string | null;
  ourAmount: number | null;
  billAmount: number | null;
  state: string;
}
interface W {
  state: string;
  automatic: boolean;
  reviewReason: string | null;
}

async function signIn(m: Merchant): Promise<string> {
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: m.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  return login.body.data.token;
}

async function approvedCard(m: Merchant) {
  const saved = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws/card", {
    token: m.token,
    body: {
      companyName: "Blue Sky Trading Co",
      bank: "China Merchants Bank",
      city: "Shenzhen",
      account: "6222 0202 0011 2233",
    },
  });
  await t.call("POST", `/api/ops/queues/bankCard/items/${saved.body.data.id}/approve`, { token: ops.token });
}
const payouts = async (m: Merchant) =>
  (await t.call<{ list: W[] }>("GET", "/api/card-brander/withdraws", { token: m.token, lang: "en" })).body.data.list;

describe("reconciliation against WeChat Pay's trade bill", () => {
  it("one missing, one extra, one mismatched: exactly those, once; their merchants' payouts wait until resolved", async () => {
    const [a, b, d] = [
      await takeoutShop("Missing Wok"),
      await takeoutShop("Amount Wok"),
      await takeoutShop("Clean Wok"),
    ];
    const c = await registerMerchant(t, { orgName: "Extra Co" });
    const day = platformDay(t.clock.now());
    const payA = await paidTakeout(a);
    const payB = await paidTakeout(b);
    const payD = await paidTakeout(d);
    // D's customer cancels: a refund started that day, on the bill as ours.
    await t.call("POST", `/api/mall/takeout/orders/${payD.id}/cancel`, {
      headers: payD.headers,
      body: { reason: "late" },
    });

    // The provider's records disagree: A's payment is on another day's bill, B's total differs, and a
    // payment we never made names merchant C.
    const local = t.app.wechatpayLocal;
    if (!local) throw new Error("the local WeChat Pay platform is served in sandbox");
    const txA = local.store.transaction(payA.orderNo);
    const txB = local.store.transaction(payB.orderNo);
    const txD = local.store.transaction(payD.orderNo);
    if (!txA || !txB || !txD) throw new Error("the local platform keeps every prepay");
    local.store.putTransaction({ ...txA, success_time: "2001-01-01T10:00:00+08:00" });
    local.store.putTransaction({ ...txB, total: txB.total + 100 });
    local.store.putTransaction({
      ...txD,
      prepay_id: `wx${Date.now()}99`,
      out_trade_no: `EXTRA${Date.now()}`,
      transaction_id: `4200${Date.now()}00000000000`,
      attach: `m${c.merchantId}`,
      trade_state: "SUCCESS",
    });

    // Not before the day is over, nor a day that does not exist.
    for (const bad of [day, "2026-13-01", "2026-02-30", "yesterday"]) {
      const refused = await t.call("POST", "/api/ops/reconciliation/run", { token: ops.token, body: { day: bad } });
      expect(refused.status).toBe(400);
    }
    // The next day: everyone signs in again.
    t.clock.advance(86_400);
    ops = await registerOperator(t);
    for (const m of [a, b, c, d]) m.token = await signIn(m);

    const run = () =>
      t.call<{ provider: string; billLines: number; added: number; differences: number }[]>(
        "POST",
        "/api/ops/reconciliation/run",
        { token: ops.token, body: { day } },
      );
    // The T+1 payout of the day waits for its reconciliation.
    const status = async () =>
      (await t.call<{ reconciled: boolean }>("GET", `/api/ops/reconciliation/days/${day}`, { token: ops.token })).body
        .data.reconciled;
    expect(await status()).toBe(false);
    const first = await run();
    expect(await status()).toBe(true);
    expect(first.body.data).toEqual([{ provider: "wechatpay", day, billLines: 4, added: 3, differences: 3 }]);
    const listed = async () =>
      (
        await t.call<{ list: Difference[] }>("GET", `/api/ops/reconciliation/differences?day=${day}`, {
          token: ops.token,
        })
      ).body.data.list.sort((x, y) => x.kind.localeCompare(y.kind));
    const diffs = await listed();
    expect(diffs).toEqual([
      expect.objectContaining({
        kind: "amount",
        entry: "payment",
        reference: payB.orderNo,
        merchantId: b.merchantId,
        ourAmount: 2000,
        billAmount: 2100,
        state: "open",
      }),
      expect.objectContaining({
        kind: "extra",
        entry: "payment",
        merchantId: c.merchantId,
        ourAmount: null,
        billAmount: 2000,
      }),
      expect.objectContaining({
        kind: "missing",
        entry: "payment",
        reference: payA.orderNo,
        merchantId: a.merchantId,
        ourAmount: 2000,
        billAmount: null,
      }),
    ]);
    // Running the day again adds nothing.
    expect((await run()).body.data[0]).toMatchObject({ added: 0, differences: 3 });
    expect(await listed()).toHaveLength(3);

    // T+1: A, B and C wait for an operator, saying why; D is paid out.
    for (const m of [a, b, c, d]) {
      await established(t, m);
      await income(t, m, 10_000);
      await approvedCard(m);
    }
    const auto = await t.call("POST", "/api/ops/withdrawals/autoPayout", {
      token: ops.token,
      body: { day: platformDay(t.clock.now()) },
    });
    expect(auto.body.code).toBe(1);
    for (const m of [a, b, c]) {
      expect(await payouts(m)).toEqual([
        expect.objectContaining({
          automatic: true,
          state: "under_review",
          reviewReason: expect.stringContaining("reconciliation") as unknown,
        }),
      ]);
    }
    expect(await payouts(d)).toEqual([expect.objectContaining({ automatic: true, state: "bank_paying" })]);

    // Resolving needs a reason; A's only difference resolved releases A's payout, B's stays held.
    const missing = diffs.find((x) => x.kind === "missing");
    const resolve = (id: string, reason: string) =>
      t.call<{ released: number }>("POST", `/api/ops/reconciliation/differences/${id}/resolve`, {
        token: ops.token,
        body: { reason },
      });
    expect((await resolve(missing?.id ?? "", "  ")).body.code).not.toBe(1);
    expect((await resolve(missing?.id ?? "", "paid after midnight: on the next day's bill")).body.data).toEqual({
      released: 1,
    });
    expect(await payouts(a)).toEqual([expect.objectContaining({ state: "bank_paying" })]);
    expect(await payouts(b)).toEqual([expect.objectContaining({ state: "under_review" })]);
    expect((await resolve(missing?.id ?? "", "again")).body.code).not.toBe(1);
    const open = await t.call<{ list: Difference[] }>(
      "GET",
      `/api/ops/reconciliation/differences?day=${day}&state=open`,
      {
        token: ops.token,
      },
    );
    expect(open.body.data.list.map((x) => x.kind).sort()).toEqual(["amount", "extra"]);
    // Merchants see nothing of it.
    expect((await t.call("GET", "/api/ops/reconciliation/differences", { token: a.token })).status).toBe(403);
  });

  it("a payment made just before midnight and confirmed here just after is on the previous day's bill: no difference", async () => {
    const shop = await takeoutShop("Midnight Wok");
    const now = t.clock.now();
    const midnight = startOfPlatformDay(platformDay(new Date(now.getTime() + 86_400_000)));
    // Ordered at 23:58 (the shop closes at 23:59), paid at 23:59:30, confirmed here at 00:00:30.
    t.clock.advance(Math.floor((midnight.getTime() - now.getTime()) / 1000) - 120);
    const before = platformDay(t.clock.now());
    const paid = await paidTakeout(shop, { confirmAfter: 90, notifyAfter: 60 });
    const after = platformDay(t.clock.now());
    expect(after).not.toBe(before);
    t.clock.advance(86_400);
    ops = await registerOperator(t);
    for (const day of [before, after]) {
      const ran = await t.call<{ billLines: number }[]>("POST", "/api/ops/reconciliation/run", {
        token: ops.token,
        body: { day },
      });
      expect(ran.body.code).toBe(1);
    }
    const listed = await t.call<{ list: Difference[] }>(
      "GET",
      `/api/ops/reconciliation/differences?merchantId=${shop.merchantId}`,
      { token: ops.token },
    );
    expect(listed.body.data.list).toEqual([]);
    expect(paid.orderNo).toMatch(/\S/);
  });

  it("a bill file that is not the one the bill request's SHA1 describes is refused", async () => {
    // Between the adapter and the local platform, something changes the downloaded file by one byte.
    const origin = new URL(t.config.wechatpay?.baseUrl ?? "");
    const proxy = createServer((req, res) => {
      const up = httpRequest(
        { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (c: Buffer) => chunks.push(c));
          answer.on("end", () => {
            let body = Buffer.concat(chunks);
            if (req.url?.includes("/v3/billdownload/file")) body = Buffer.concat([body, Buffer.from("\n")]);
            res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "content-length": String(body.length) });
            res.end(body);
          });
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const config = t.config.wechatpay;
      if (!config) throw new Error("PAYMENT_ADAPTER=wechatpay has its settings");
      const tampered = createWechatPay(
        { ...config, baseUrl: `http://127.0.0.1:${port}${origin.pathname}` },
        t.config.dataDir,
        t.ctx.paymentHandlers,
        () => undefined,
      );
      const day = platformDay(new Date(t.clock.now().getTime() - 2 * 86_400_000));
      await expect(tampered.bill(day)).rejects.toMatchObject({ messageKey: "payments.billHashMismatch" });
      // The same day straight from the platform is taken.
      const straight = createWechatPay(config, t.config.dataDir, t.ctx.paymentHandlers, () => undefined);
      expect((await straight.bill(day)).length).toBeGreaterThan(0);
    } finally {
      proxy.close();
    }
  });
});
