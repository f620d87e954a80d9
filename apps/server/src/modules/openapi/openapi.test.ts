import type { Brand, PurchaseOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { createServer, type IncomingMessage } from "node:http";
import { ApiCredentialsService } from "../onboarding";
import { CALLBACK_BACKOFF_SECONDS, CallbackService } from "../callbacks";
import { canonicalString, sign } from "./signature";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let ops: { token: string };
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  ops = await registerOperator(t);
  supplier = await newMerchant(t, "API Supplier Co");
  brand = await newBrand(t, supplier, "API Cards");
});

interface Client {
  appKey: string;
  secret: string;
}

/** A docked purchaser with money whose API permission an operator opened; its app key and secret. */
async function apiPurchaser(): Promise<{ buyer: Awaited<ReturnType<typeof registerMerchant>>; client: Client }> {
  const buyer = await registerMerchant(t, { orgName: "API Buyer Ltd" });
  await t.ctx.database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "=", Number(buyer.merchantId))
    .execute();
  const applied = await t.call<{ request: { id: string } }>("POST", "/api/card-brander/api/apply", {
    token: buyer.token,
    body: { purpose: "Buy by API" },
  });
  await t.call("POST", `/api/ops/queues/apiPermission/items/${applied.body.data.request.id}/approve`, {
    token: ops.token,
  });
  const view = await t.call<Client>("POST", "/api/card-brander/api/view", {
    token: buyer.token,
    body: { password: STRONG_PASSWORD },
  });
  await dock(t, supplier, buyer);
  await fundSup(t, buyer, 100_000);
  return { buyer, client: view.body.data };
}

let nonceSeq = 0;
async function signed<T>(
  client: Client,
  method: "GET" | "POST",
  url: string,
  body?: unknown,
  tweak: { timestamp?: number; nonce?: string; secret?: string; ip?: string } = {},
) {
  const raw = body === undefined ? "" : JSON.stringify(body);
  const timestamp = String(tweak.timestamp ?? Math.floor(t.clock.now().getTime() / 1000));
  const nonce = tweak.nonce ?? `nonce-${Date.now()}-${++nonceSeq}`;
  const signature = sign(tweak.secret ?? client.secret, canonicalString(method, url, timestamp, nonce, raw));
  const res = await t.app.inject({
    method,
    url,
    headers: {
      "x-app-key": client.appKey,
      "x-timestamp": timestamp,
      "x-nonce": nonce,
      "x-signature": signature,
      lang: "en",
      ...(raw && { "content-type": "application/json" }),
    },
    ...(raw && { payload: raw }),
    ...(tweak.ip && { remoteAddress: tweak.ip }),
  });
  return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: T }>() };
}

describe("the purchase API", () => {
  it("places an order by signed request, idempotent on the purchaser's order number; order and balance queries", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "API card", price: 1_500, settlementPrice: 1_400 });
    await importFile(
      t,
      supplier.token,
      goods.id,
      "cards.csv",
      cardCsv(["APIC000001,S1,", "APIC000002,S2,", "APIC000003,S3,"], { end: false }),
    );
    const { client } = await apiPurchaser();
    const body = { goodsId: String(goods.id), quantity: 2, orderNo: `API-${Date.now()}` };
    const first = await signed<PurchaseOrder>(client, "POST", "/api/card-api/openapi/order", body);
    expect(first.body.data).toMatchObject({ state: "success", quantity: 2, amount: { amount: 3_000 } });
    const again = await signed<PurchaseOrder>(client, "POST", "/api/card-api/openapi/order", body);
    expect(again.body.data.id).toBe(first.body.data.id);
    const changed = await signed(client, "POST", "/api/card-api/openapi/order", { ...body, quantity: 1 });
    expect(changed.status).toBe(409);
    expect(changed.body.msg).toBe("This order number was already used for a different order");
    const query = await signed<PurchaseOrder>(client, "GET", `/api/card-api/openapi/order?orderNo=${body.orderNo}`);
    expect(query.body.data.id).toBe(first.body.data.id);
    const balance = await signed<{ sup: { amount: number } }>(client, "GET", "/api/card-api/openapi/balance");
    expect(balance.body.data.sup.amount).toBe(100_000 - 3_000);
  });

  it("refuses a top-up to an account its goods' type cannot take (issue 40, item 4), before anything is spent", async () => {
    const goods = await newGoods(t, supplier, brand.id, {
      name: "API mobile top-up 30",
      businessType: "top_up",
      faceValue: 3_000,
      price: 2_900,
      settlementPrice: 2_800,
      topUpAccountType: "mobile",
    });
    const { client } = await apiPurchaser();
    const order = (topUpAccount: string) => ({
      goodsId: String(goods.id),
      quantity: 1,
      topUpAccount,
      orderNo: `APT-${Date.now()}-${++nonceSeq}`,
    });
    const bad = order("1381234");
    const refused = await signed(client, "POST", "/api/card-api/openapi/order", bad);
    expect([refused.status, refused.body.msg]).toEqual([400, "Enter a valid 11-digit mobile number"]);
    expect(
      (await signed<{ sup: { amount: number } }>(client, "GET", "/api/card-api/openapi/balance")).body.data.sup.amount,
    ).toBe(100_000);
    const none = await t.ctx.database.db
      .selectFrom("purchase_orders")
      .select("id")
      .where("order_no", "=", bad.orderNo)
      .execute();
    expect(none).toEqual([]);
    const placed = await signed<PurchaseOrder>(client, "POST", "/api/card-api/openapi/order", order("13812345678"));
    expect(placed.body.data).toMatchObject({ state: "processing", topUpAccount: "13812345678" });
    expect(
      (await signed<{ sup: { amount: number } }>(client, "GET", "/api/card-api/openapi/balance")).body.data.sup.amount,
    ).toBe(100_000 - 2_900);
  });

  it("refuses a wrong signature, a replayed nonce, a stale timestamp, an unknown key and a missing header, each with its own error and no order", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Guarded card", price: 1_000, settlementPrice: 900 });
    await importFile(t, supplier.token, goods.id, "cards.csv", cardCsv(["GUARD00001,S1,"], { end: false }));
    const { client } = await apiPurchaser();
    const order = (n: string) => ({ goodsId: String(goods.id), quantity: 1, orderNo: `G-${n}-${Date.now()}` });
    const wrong = await signed(client, "POST", "/api/card-api/openapi/order", order("a"), { secret: "not-the-secret" });
    expect([wrong.status, wrong.body.msg]).toEqual([401, "The signature does not match"]);
    const stale = await signed(client, "POST", "/api/card-api/openapi/order", order("b"), {
      timestamp: Math.floor(t.clock.now().getTime() / 1000) - 3600,
    });
    expect([stale.status, stale.body.msg]).toEqual([
      401,
      "The timestamp is more than 5 minutes away from the server's time",
    ]);
    const unknown = await signed(
      { appKey: "no-such-key", secret: client.secret },
      "POST",
      "/api/card-api/openapi/order",
      order("c"),
    );
    expect([unknown.status, unknown.body.msg]).toEqual([401, "Unknown app key"]);
    const unsigned = await t.app.inject({
      method: "GET",
      url: "/api/card-api/openapi/balance",
      headers: { lang: "en" },
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json<{ msg: string }>().msg).toContain("Missing signature headers");

    const nonce = `replay-${Date.now()}`;
    const once = await signed(client, "GET", "/api/card-api/openapi/balance", undefined, { nonce });
    expect(once.status).toBe(200);
    const replay = await signed(client, "GET", "/api/card-api/openapi/balance", undefined, { nonce });
    expect([replay.status, replay.body.msg]).toEqual([401, "This nonce was already used: the request is a replay"]);
    const orders = await t.ctx.database.db
      .selectFrom("purchase_orders")
      .select("id")
      .where("goods_id", "=", goods.id)
      .execute();
    expect(orders).toEqual([]);
  });

  it("enforces the IP allowlist and the API permission", async () => {
    const { buyer, client } = await apiPurchaser();
    const set = await t.call("POST", "/api/card-brander/api/ip", { token: buyer.token, body: { ips: "10.1.2.3" } });
    expect(set.body.code).toBe(1);
    const outside = await signed(client, "GET", "/api/card-api/openapi/balance", undefined, { ip: "10.9.9.9" });
    expect([outside.status, outside.body.msg]).toEqual([403, "The request IP is not on the allowlist"]);
    const inside = await signed(client, "GET", "/api/card-api/openapi/balance", undefined, { ip: "10.1.2.3" });
    expect(inside.status).toBe(200);
    await t.ctx.database.db
      .updateTable("merchants")
      .set({ api_permission: "not_opened" })
      .where("id", "=", Number(buyer.merchantId))
      .execute();
    const closed = await signed(client, "GET", "/api/card-api/openapi/balance", undefined, { ip: "10.1.2.3" });
    expect([closed.status, closed.body.msg]).toEqual([403, "API permission is not opened"]);
  });
});

describe("order result callbacks", () => {
  it("are signed, retried on the published schedule until acknowledged, logged, and replayable", async () => {
    // The purchaser's server: fails the first delivery, accepts the next ones.
    const received: { headers: IncomingMessage["headers"]; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.statusCode = received.length === 1 ? 500 : 200;
        res.end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const goods = await newGoods(t, supplier, brand.id, {
        name: "Callback card",
        price: 1_000,
        settlementPrice: 900,
      });
      await importFile(t, supplier.token, goods.id, "cards.csv", cardCsv(["CALLB00001,S1,"], { end: false }));
      const { buyer, client } = await apiPurchaser();
      await t.call("POST", "/api/card-brander/api/ip", {
        token: buyer.token,
        body: { ips: "", callbackUrl: `http://127.0.0.1:${port}/results` },
      });
      const orderNo = `CB-${Date.now()}`;
      await signed(client, "POST", "/api/card-api/openapi/order", { goodsId: String(goods.id), quantity: 1, orderNo });

      const api = new ApiCredentialsService({
        db: t.ctx.database.db,
        clock: t.clock,
        secret: t.ctx.secret,
        checkPassword: () => Promise.resolve(false),
      });
      const callbacks = new CallbackService({
        db: t.ctx.database.db,
        clock: t.clock,
        targetOf: (db, m) => api.callbackTarget(db, m),
        callbackUrlOf: (m) => api.callbackUrlSql(m),
        allowPrivateNetworks: true,
      });
      expect(await callbacks.dispatchDue()).toBe(1);
      type Log = {
        list: { id: string; state: string; attempts: number; lastStatus: number | null; eventId: string }[];
      };
      const afterFail = await t.call<Log>("GET", "/api/card-brander/api/callbacks", { token: buyer.token });
      expect(afterFail.body.data.list[0]).toMatchObject({ state: "pending", attempts: 1, lastStatus: 500 });
      // Not due again before the first backoff step.
      expect(await callbacks.dispatchDue()).toBe(0);
      t.clock.advance(CALLBACK_BACKOFF_SECONDS[0] + 1);
      expect(await callbacks.dispatchDue()).toBe(1);
      const delivered = await t.call<Log>("GET", "/api/card-brander/api/callbacks", { token: buyer.token });
      expect(delivered.body.data.list[0]).toMatchObject({ state: "delivered", attempts: 2, lastStatus: 200 });

      // Signed over the timestamped body, with the event id; the body names the order and its result.
      const last = received[1];
      const body = JSON.parse(last?.body ?? "{}") as { eventId: string; order: { orderNo: string; state: string } };
      expect(body.order).toMatchObject({ orderNo, state: "success" });
      expect(last?.headers["x-event-id"]).toBe(body.eventId);
      expect(last?.headers["x-signature"]).toBe(
        sign(client.secret, `${String(last?.headers["x-timestamp"])}\n${last?.body ?? ""}`),
      );

      // Replay by hand: sent again with the same event id.
      const id = delivered.body.data.list[0]?.id ?? "";
      expect(
        (await t.call("POST", `/api/card-brander/api/callbacks/${id}/replay`, { token: buyer.token })).body.code,
      ).toBe(1);
      expect(await callbacks.dispatchDue()).toBe(1);
      expect(received[2]?.headers["x-event-id"]).toBe(body.eventId);
      const stranger = await registerMerchant(t);
      expect(
        (await t.call("POST", `/api/card-brander/api/callbacks/${id}/replay`, { token: stranger.token })).status,
      ).toBe(404);

      // Without the local-testing switch, a private-network URL is refused and never contacted.
      const strict = new CallbackService({
        db: t.ctx.database.db,
        clock: t.clock,
        targetOf: (db, m) => api.callbackTarget(db, m),
        callbackUrlOf: (m) => api.callbackUrlSql(m),
        allowPrivateNetworks: false,
      });
      await t.call("POST", `/api/card-brander/api/callbacks/${id}/replay`, { token: buyer.token });
      expect(await strict.dispatchDue()).toBe(1);
      const refused = await t.call<{ list: { lastError: string | null; state: string }[] }>(
        "GET",
        "/api/card-brander/api/callbacks",
        { token: buyer.token },
      );
      expect(refused.body.data.list[0]?.lastError).toContain("private network");
      expect(received).toHaveLength(3);
    } finally {
      server.close();
    }
  });

  // Which addresses are private, in every spelling, is platform/http/ssrf.test.ts.
});

describe("the product list of the open API", () => {
  it("answers a signed request, refuses bad signatures and replays, and still answers a purchaser's session", async () => {
    const goods = await newGoods(t, supplier, brand.id, {
      name: "Listed API card",
      price: 1_200,
      settlementPrice: 1_100,
    });
    const { buyer, client } = await apiPurchaser();
    const url = `/api/card-api/openapi/product?type=card&brandId=${brand.id}&pageSize=100`;
    const listed = await signed<{ list: { id: number | string; name: string }[]; total: number }>(client, "GET", url);
    expect(listed.status).toBe(200);
    expect(listed.body.data.list.map((g) => g.name)).toContain("Listed API card");
    expect(listed.body.data.list.map((g) => String(g.id))).toContain(String(goods.id));

    // The same refusals as every signed call, each with its own message.
    expect((await signed(client, "GET", url, undefined, { secret: "wrong" })).body.msg).toMatch(/signature/i);
    const nonce = `product-${Date.now()}`;
    expect((await signed(client, "GET", url, undefined, { nonce })).status).toBe(200);
    const replay = await signed(client, "GET", url, undefined, { nonce });
    expect(replay.status).toBe(401);
    const stale = await signed(client, "GET", url, undefined, {
      timestamp: Math.floor(t.clock.now().getTime() / 1000) - 3600,
    });
    expect(stale.status).toBe(401);
    // The signature covers the query: a changed filter with the old signature is refused.
    const ts = String(Math.floor(t.clock.now().getTime() / 1000));
    const sig = sign(client.secret, canonicalString("GET", url, ts, "product-tamper-1", ""));
    const tampered = await t.app.inject({
      method: "GET",
      url: `${url}&keyword=x`,
      headers: { "x-app-key": client.appKey, "x-timestamp": ts, "x-nonce": "product-tamper-1", "x-signature": sig },
    });
    expect(tampered.statusCode).toBe(401);

    // The session path keeps working for the web app; nothing answers without one or the other.
    const bySession = await t.call<{ list: { name: string }[] }>("GET", url, { token: buyer.token });
    expect(bySession.body.data.list.map((g) => g.name)).toContain("Listed API card");
    expect((await t.call("GET", url)).status).toBe(401);
  });
});
