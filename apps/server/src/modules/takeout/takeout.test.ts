import { afterAll, describe, expect, it } from "vitest";
import { lastCode, registerMerchant, STRONG_PASSWORD, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";
import { distanceM, insidePolygon, openAt } from "./delivery";

const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
interface Order {
  id: string;
  state: string;
  total: { amount: number };
  refunded: { amount: number };
  lines: { name: string; options: string[]; amount: { amount: number } }[];
  cancelReason: string | null;
}
interface Item {
  id: string;
  name: string;
  stock: number | null;
  sold: number;
}

let seq = 0;
const key = () => `to-${Date.now()}-${++seq}`;
const newPhone = () => uniquePhone("16");
const SHOP = { lat: 30.2741, lng: 120.1551 };
const NEAR = { lat: 30.28, lng: 120.16 };
const FAR = { lat: 31.23, lng: 121.47 };
const allDay = [{ days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59" }];
// Takeout is paid through the sandbox payment adapter here: the brand is paid test money (sandbox income),
// never withdrawable income.
const balancesOf = async (m: Merchant) =>
  (
    await t.call<{ balances: { income: { amount: number }; sandboxIncome: { amount: number } } }>(
      "GET",
      "/api/card-user/userInfo",
      { token: m.token },
    )
  ).body.data.balances;
const incomeOf = async (m: Merchant) => {
  const b = await balancesOf(m);
  expect(b.income.amount).toBe(0);
  return b.sandboxIncome.amount;
};

async function customer(): Promise<string> {
  const phone = newPhone();
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
  const res = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  expect(res.body.code).toBe(1);
  return res.body.data.token;
}
const cust = (token: string) => ({ "x-customer-token": token });

async function shop(options: { hours?: typeof allDay; stock?: number | null } = {}) {
  const brand = await registerMerchant(t, { orgName: "Noodle House Co" });
  const b = (method: "GET" | "POST" | "PUT", url: string, body?: unknown) =>
    t.call<unknown>(method, `/api/card-brander/takeout/${url}`, { token: brand.token, body });
  const saved = await b("PUT", "shop", {
    name: "Noodle House",
    open: true,
    hours: options.hours ?? allDay,
    address: "West Lake",
    ...SHOP,
    areaKind: "radius",
    radiusM: 5000,
    deliveryFee: 500,
    minOrder: 2000,
    packingFee: 100,
    tableware: true,
  });
  expect(saved.body.code).toBe(1);
  const types = (await b("POST", "types", { name: "Noodles", sort: 1 })).body as { data: { id: string }[] };
  const typeId = types.data[0]?.id;
  const items = (
    await b("POST", "items", {
      typeId,
      name: "Beef noodles",
      price: 1800,
      stock: options.stock === undefined ? 10 : options.stock,
      options: [
        {
          name: "Spice",
          required: true,
          max: 1,
          choices: [
            { name: "Mild", price: 0 },
            { name: "Hot", price: 100 },
          ],
        },
      ],
    })
  ).body as { data: Item[] };
  await b("POST", "items", { typeId, name: "Iced tea", price: 500 });
  const all = (await b("GET", "items")).body as { data: Item[] };
  const noodles = items.data[0]?.id ?? "";
  const tea = all.data.find((i) => i.name === "Iced tea")?.id ?? "";
  const pkg = (
    await b("POST", "packages", {
      name: "Lunch combo",
      price: 2000,
      items: [
        { itemId: noodles, quantity: 1 },
        { itemId: tea, quantity: 1 },
      ],
    })
  ).body as { data: { id: string }[] };
  return { brand, noodles, tea, combo: pkg.data[0]?.id ?? "", b };
}

const orderBody = (merchantId: string, lines: unknown[], at = NEAR) => ({
  merchantId,
  lines,
  contactName: "Han Meimei",
  contactPhone: "13900139000",
  address: "Wensan Road 9",
  ...at,
  tableware: 1,
  requestKey: key(),
});

describe("takeout", () => {
  it("a customer orders a combo; the shop accepts, delivers and completes it; the brand is paid once", async () => {
    const s = await shop();
    const menu = await t.call<{
      shop: { openNow: boolean };
      items: unknown[];
      packages: { name: string; items: { name: string }[] }[];
    }>("GET", `/api/mall/takeout/shops/${s.brand.merchantId}`);
    expect(menu.body.data.shop.openNow).toBe(true);
    expect(menu.body.data.packages[0]?.items.map((i) => i.name)).toEqual(["Beef noodles", "Iced tea"]);
    const token = await customer();
    const placed = await t.call<Order>("POST", "/api/mall/takeout/orders", {
      headers: cust(token),
      body: orderBody(s.brand.merchantId, [{ kind: "package", id: s.combo, quantity: 1 }]),
    });
    expect(placed.body.code).toBe(1);
    // 20.00 combo + 1.00 packing + 5.00 delivery.
    expect(placed.body.data).toMatchObject({ state: "pending_payment", total: { amount: 2600 } });
    const items = await t.call<Item[]>("GET", "/api/card-brander/takeout/items", { token: s.brand.token });
    expect(items.body.data.find((i) => i.name === "Beef noodles")?.stock).toBe(9);
    const id = placed.body.data.id;
    expect(
      (
        await t.call("POST", `/api/card-brander/takeout/orders/${id}/action`, {
          token: s.brand.token,
          body: { action: "accept" },
        })
      ).status,
    ).toBe(409);
    const paid = await t.call<Order>("POST", `/api/mall/takeout/orders/${id}/pay`, { headers: cust(token) });
    expect(paid.body.data.state).toBe("to_be_accepted");
    const live = await t.call<{ list: Order[] }>("GET", "/api/card-brander/takeout/orders?afterId=0", {
      token: s.brand.token,
    });
    expect(live.body.data.list.map((o) => o.id)).toEqual([id]);
    for (const [action, state] of [
      ["accept", "accepted"],
      ["deliver", "delivering"],
      ["complete", "completed"],
    ] as const) {
      const r = await t.call<Order>("POST", `/api/card-brander/takeout/orders/${id}/action`, {
        token: s.brand.token,
        body: { action },
      });
      expect(r.body.data.state).toBe(state);
    }
    expect(await incomeOf(s.brand)).toBe(2600);
    expect(
      (
        await t.call("POST", `/api/card-brander/takeout/orders/${id}/action`, {
          token: s.brand.token,
          body: { action: "complete" },
        })
      ).status,
    ).toBe(409);
    expect(await incomeOf(s.brand)).toBe(2600);
    const mine = await t.call<{ list: Order[] }>("GET", "/api/mall/takeout/orders", { headers: cust(token) });
    expect(mine.body.data.list[0]?.state).toBe("completed");
  });

  it("a refused order is refunded and gives its stock back; the reason is kept", async () => {
    const s = await shop();
    const token = await customer();
    const placed = await t.call<Order>("POST", "/api/mall/takeout/orders", {
      headers: cust(token),
      body: orderBody(s.brand.merchantId, [{ kind: "item", id: s.noodles, quantity: 2, options: [["Hot"]] }]),
    });
    expect(placed.body.data.lines[0]).toMatchObject({ options: ["Hot"], amount: { amount: 3800 } });
    await t.call("POST", `/api/mall/takeout/orders/${placed.body.data.id}/pay`, { headers: cust(token) });
    const noReason = await t.call("POST", `/api/card-brander/takeout/orders/${placed.body.data.id}/action`, {
      token: s.brand.token,
      body: { action: "cancel" },
      lang: "en",
    });
    expect(noReason.body.msg).toBe("Please give the reason for cancelling");
    const refused = await t.call<Order>("POST", `/api/card-brander/takeout/orders/${placed.body.data.id}/action`, {
      token: s.brand.token,
      body: { action: "cancel", reason: "Sold out of beef" },
    });
    expect(refused.body.data).toMatchObject({
      state: "cancelled",
      cancelReason: "Sold out of beef",
      refunded: { amount: placed.body.data.total.amount },
    });
    const items = await t.call<Item[]>("GET", "/api/card-brander/takeout/items", { token: s.brand.token });
    expect(items.body.data.find((i) => i.name === "Beef noodles")).toMatchObject({ stock: 10, sold: 0 });
    expect(await incomeOf(s.brand)).toBe(0);
  });

  it("bad orders change nothing: closed, out of range, below the minimum, a required option missing, sold out; strangers see nothing", async () => {
    const closed = await shop({ hours: [{ days: [1], from: "03:00", to: "03:01" }] });
    const token = await customer();
    const at = (s: { brand: Merchant }, lines: unknown[], where = NEAR) =>
      t.call("POST", "/api/mall/takeout/orders", {
        headers: cust(token),
        body: orderBody(s.brand.merchantId, lines, where),
        lang: "en",
      });
    expect((await at(closed, [{ kind: "package", id: closed.combo, quantity: 1 }])).body.msg).toBe(
      "The shop is closed at this time",
    );
    const s = await shop({ stock: 1 });
    expect((await at(s, [{ kind: "package", id: s.combo, quantity: 1 }], FAR)).body.msg).toBe(
      "The address is outside the delivery area",
    );
    expect((await at(s, [{ kind: "item", id: s.tea, quantity: 1 }])).body.msg).toBe(
      "The order is below the minimum of 20.00",
    );
    expect((await at(s, [{ kind: "item", id: s.noodles, quantity: 2 }])).body.msg).toBe(
      "Please choose Spice for “Beef noodles”",
    );
    const sold = await at(s, [{ kind: "item", id: s.noodles, quantity: 2, options: [["Mild"]] }]);
    expect(sold.status).toBe(409);
    expect(sold.body.msg).toBe("“Beef noodles” is sold out");
    expect(
      (await t.call<{ total: number }>("GET", "/api/mall/takeout/orders", { headers: cust(token) })).body.data.total,
    ).toBe(0);
    // Tenancy: another brand neither sees nor moves the shop's orders.
    const placed = await t.call<Order>("POST", "/api/mall/takeout/orders", {
      headers: cust(token),
      body: orderBody(s.brand.merchantId, [{ kind: "package", id: s.combo, quantity: 1 }]),
    });
    const other = await registerMerchant(t);
    expect(
      (await t.call("GET", `/api/card-brander/takeout/orders/${placed.body.data.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (
        await t.call("POST", `/api/card-brander/takeout/orders/${placed.body.data.id}/action`, {
          token: other.token,
          body: { action: "accept" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/takeout/orders", { token: other.token })).body.data
        .total,
    ).toBe(0);
    const someone = await customer();
    expect(
      (await t.call("GET", `/api/mall/takeout/orders/${placed.body.data.id}`, { headers: cust(someone) })).status,
    ).toBe(404);
    expect(
      (
        await t.call("POST", "/api/mall/takeout/orders", {
          body: orderBody(s.brand.merchantId, [{ kind: "package", id: s.combo, quantity: 1 }]),
        })
      ).body.code,
    ).toBe(1007);
    // The customer cancels an unpaid order: the stock comes back.
    const cancelled = await t.call<Order>("POST", `/api/mall/takeout/orders/${placed.body.data.id}/cancel`, {
      headers: cust(token),
      body: {},
    });
    expect(cancelled.body.data.state).toBe("cancelled");
    const items = await t.call<Item[]>("GET", "/api/card-brander/takeout/items", { token: s.brand.token });
    expect(items.body.data.find((i) => i.name === "Beef noodles")?.stock).toBe(1);
  });

  it("delivery area, hours and settings are checked", async () => {
    expect(distanceM(SHOP, NEAR)).toBeLessThan(1500);
    expect(
      insidePolygon({ lat: 1, lng: 1 }, [
        [0, 0],
        [0, 2],
        [2, 2],
        [2, 0],
      ]),
    ).toBe(true);
    expect(
      insidePolygon({ lat: 3, lng: 1 }, [
        [0, 0],
        [0, 2],
        [2, 2],
        [2, 0],
      ]),
    ).toBe(false);
    // 2026-11-26 is a Thursday (4); 22:00-02:00 runs past midnight.
    const night = [{ days: [4], from: "22:00", to: "02:00" }];
    expect(openAt(night, new Date("2026-11-26T15:00:00+08:00"))).toBe(false);
    expect(openAt(night, new Date("2026-11-26T23:00:00+08:00"))).toBe(true);
    expect(openAt(night, new Date("2026-11-27T01:00:00+08:00"))).toBe(true);
    const brand = await registerMerchant(t);
    const bad = await t.call("PUT", "/api/card-brander/takeout/shop", {
      token: brand.token,
      body: {
        name: "X",
        open: true,
        hours: allDay,
        ...SHOP,
        areaKind: "polygon",
        polygon: [[0, 0]],
        deliveryFee: 0,
        minOrder: 0,
        packingFee: 0,
      },
      lang: "en",
    });
    expect(bad.body.msg).toBe("The delivery area is a radius of 100 m to 50 km, or a polygon of at least 3 points");
    // A polygon drawn elsewhere (around Shanghai for a shop in Hangzhou) leaves the shop out: refused.
    const elsewhere = await t.call("PUT", "/api/card-brander/takeout/shop", {
      token: brand.token,
      body: {
        name: "X",
        open: true,
        hours: allDay,
        ...SHOP,
        areaKind: "polygon",
        polygon: [
          [31.2, 121.4],
          [31.2, 121.5],
          [31.3, 121.5],
          [31.3, 121.4],
        ],
        deliveryFee: 0,
        minOrder: 0,
        packingFee: 0,
      },
      lang: "tw",
    });
    expect(elsewhere.body.msg).toBe("店鋪位置不在配送範圍內：請核對店鋪的經緯度和多邊形的各個頂點");
    expect((await t.call("GET", "/api/card-brander/takeout/shop", { token: brand.token })).body.data).toBeNull();
  });

  it("TakeoutApplet: a provider sees the takeout shops of the brands it serves, and no others", async () => {
    const s = await shop();
    const other = await shop();
    const ops = await registerOperator(t);
    const p = await registerMerchant(t, { orgName: "Harbour Services" });
    await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, {
      token: ops.token,
      body: { grant: true },
    });
    const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: p.email, password: STRONG_PASSWORD, version: "domestic" },
    });
    const token = login.body.data.token;
    expect(
      (
        await t.call("POST", "/api/card-servicer/brander/service", {
          token: s.brand.token,
          body: { providerId: p.merchantId, kind: "brand" },
        })
      ).body.code,
    ).toBe(1);
    const customerToken = await customer();
    const placed = await t.call<Order>("POST", "/api/mall/takeout/orders", {
      headers: cust(customerToken),
      body: orderBody(s.brand.merchantId, [{ kind: "package", id: s.combo, quantity: 1 }]),
    });
    await t.call("POST", `/api/mall/takeout/orders/${placed.body.data.id}/pay`, { headers: cust(customerToken) });
    const applets = await t.call<
      {
        merchantId: string;
        shop: { name: string; openNow: boolean } | null;
        link: string;
        ordersToday: number;
        waiting: number;
      }[]
    >("GET", "/api/card-servicer/takeout/applets", { token });
    expect(applets.body.data).toHaveLength(1);
    expect(applets.body.data[0]).toMatchObject({
      merchantId: s.brand.merchantId,
      shop: { name: "Noodle House", openNow: true },
      link: `/takeout/${s.brand.merchantId}`,
      ordersToday: 1,
      waiting: 1,
    });
    expect(applets.body.data.some((a) => a.merchantId === other.brand.merchantId)).toBe(false);
    // A merchant that is no provider is refused.
    expect((await t.call("GET", "/api/card-servicer/takeout/applets", { token: s.brand.token })).status).toBe(403);
  });
});
