import { COMMERCE_LIMITS } from "@tessera/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { checkInvariants } from "../ledger";
import { pushSign } from "../../platform/adapters/courier";
import { invariantProblems } from "./repo";
import { CommerceService } from "./service";

const t = useTestApp({
  COURIER_SIM_STEP_SECONDS: "60",
  ORDER_AUTO_CONFIRM_DAYS: "7",
  COURIER_PUSH_SALT: "test-salt",
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  expect(await invariantProblems(t.ctx.database.db)).toEqual([]);
});

type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
interface Sku {
  id: string;
  specs: string[];
  stock: number;
  sold: number;
  price: { amount: number };
}
interface Commodity {
  id: string;
  name: string;
  skus: Sku[];
  onShelf: boolean;
  stock: number;
  picked?: boolean;
  sort: number;
  videoid: string | null;
}
interface Order {
  id: string;
  orderNo: string;
  state: string;
  payAmount: { amount: number };
  freight: { amount: number };
  refundedAmount: { amount: number };
  items: { id: string; quantity: number; unitPrice: { amount: number }; amount: { amount: number } }[];
  shipment: {
    id: string;
    waybillNo: string;
    state: number | null;
    events: { state: number; context: string }[];
  } | null;
  consignee: { regionNames: string } | null;
  autoConfirmAt: string | null;
}
interface Aftersale {
  id: string;
  state: string;
  amount: { amount: number };
}

let seq = 0;
const key = () => `cm-${Date.now()}-${++seq}`;
const supOf = async (m: Merchant) =>
  (await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: m.token })).body
    .data.balances.sup.amount;
const incomeOf = async (m: Merchant) =>
  (await t.call<{ balances: { income: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: m.token }))
    .body.data.balances.income.amount;
const legacy = <T>(m: Merchant, path: string, body: unknown = {}, lang?: "en" | "cn" | "tw") =>
  t.call<T>("POST", `/api/ecommerce/${path}`, { token: m.token, body, ...(lang && { lang }) });

const tee = {
  name: "Cotton tee",
  category: "Apparel",
  specGroups: [
    { name: "Colour", values: ["Red", "Blue"] },
    { name: "Size", values: ["M", "L"] },
  ],
  skus: [
    { specs: ["Red", "M"], price: 5_900, stock: 10 },
    { specs: ["Red", "L"], price: 5_900, stock: 3 },
    { specs: ["Blue", "M"], price: 6_200, stock: 0 },
    { specs: ["Blue", "L"], price: 6_200, stock: 5 },
  ],
  weightG: 300,
  freightFirst: 800,
  freightExtra: 200,
  freeOver: 20_000,
};
const address = {
  name: "Li Lei",
  phone: "13800138000",
  provinceCode: "330000",
  cityCode: "330100",
  countyCode: "330106",
  address: "Wensan Road 1",
};

async function brandWithTee(): Promise<{ brand: Merchant; goods: Commodity }> {
  const brand = await registerMerchant(t, { orgName: "Tee Brand Co" });
  const added = await legacy<Commodity>(brand, "commodity/add", tee);
  expect(added.body.code).toBe(1);
  const shelf = await legacy<Commodity>(brand, "commodity/state/update", { id: added.body.data.id, onShelf: true });
  return { brand, goods: shelf.body.data };
}
async function buyer(sup = 1_000_000): Promise<Merchant> {
  const m = await registerMerchant(t, { orgName: "Reseller Shop Ltd" });
  await fundSup(t, m, sup);
  return m;
}
const sku = (c: Commodity, ...specs: string[]) => {
  const s = c.skus.find((x) => x.specs.join("/") === specs.join("/"));
  if (!s) throw new Error(`no sku ${specs.join("/")}`);
  return s;
};
const order = (m: Merchant, items: { skuId: string; quantity: number }[], consignee: unknown = address, lang?: "en") =>
  t.call<Order>("POST", "/api/card-user/commerce/orders", {
    token: m.token,
    body: { items, ...(consignee !== null && { consignee }), requestKey: key() },
    ...(lang && { lang }),
  });
/** After the test clock jumps past the login lifetime, the merchant logs in again. */
async function relogin(m: Merchant): Promise<void> {
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: m.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  m.token = login.body.data.token;
}

describe("commodities", () => {
  it("a brand adds a product with two specifications, one SKU per combination; lists, sorts, shelves it", async () => {
    const { brand, goods } = await brandWithTee();
    expect(goods.skus.map((s) => s.specs.join("/"))).toEqual(["Red/M", "Red/L", "Blue/M", "Blue/L"]);
    expect(goods).toMatchObject({ onShelf: true, stock: 18 });
    const sorted = await legacy<Commodity>(brand, "commodity/sort", { id: goods.id, sort: 50 });
    expect(sorted.body.data.sort).toBe(50);
    const page = await legacy<{ list: Commodity[]; total: number }>(brand, "commodity/pager", {
      page: 1,
      pagesize: 20,
    });
    expect(page.body.data.list.map((c) => c.id)).toEqual([goods.id]);

    // Update: change a price, drop a SKU never ordered, add one.
    const skus = goods.skus
      .filter((s) => s.specs.join("/") !== "Blue/M")
      .map((s) => ({ id: s.id, specs: s.specs, price: s.price.amount + 100, stock: s.stock }));
    const updated = await legacy<Commodity>(brand, "commodity/update", { ...tee, id: goods.id, skus });
    expect(updated.body.code).toBe(1);
    expect(updated.body.data.skus.map((s) => [s.specs.join("/"), s.price.amount])).toEqual([
      ["Red/M", 6_000],
      ["Red/L", 6_000],
      ["Blue/L", 6_300],
    ]);
  });

  it("bad specifications, prices and another brand's product are refused with clear messages", async () => {
    const { brand, goods } = await brandWithTee();
    const other = await registerMerchant(t);
    const dup = await legacy(brand, "commodity/add", { ...tee, skus: [tee.skus[0], tee.skus[0]] }, "en");
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe("Each SKU must name one value of every specification group, and no two SKUs the same");
    const wrong = await legacy(
      brand,
      "commodity/add",
      { ...tee, skus: [{ specs: ["Green", "M"], price: 100, stock: 1 }] },
      "tw",
    );
    expect(wrong.body.msg).toBe("SKU的規格須與規格組一一對應且不重複");
    const price = await legacy(
      brand,
      "commodity/add",
      { ...tee, skus: [{ specs: ["Red", "M"], price: 0, stock: 1 }] },
      "en",
    );
    expect(price.body.msg).toBe("Please enter a correct price");
    const noName = await legacy(brand, "commodity/add", { ...tee, name: " " }, "cn");
    expect(noName.body.msg).toBe("请输入商品名称");
    const video = await legacy(brand, "commodity/video/update", { id: goods.id, videoid: "999999" }, "en");
    expect(video.status).toBe(404);
    // Another merchant can neither see nor change it.
    expect((await legacy(other, "commodity/state/update", { id: goods.id, onShelf: false })).status).toBe(404);
    expect((await legacy(other, "commodity/update", { ...tee, id: goods.id })).status).toBe(404);
    expect((await legacy<{ total: number }>(other, "commodity/pager", {})).body.data.total).toBe(0);
    const page = await legacy<{ total: number }>(brand, "commodity/pager", {});
    expect(page.body.data.total).toBe(1);
  });

  it("purchasers see goods on shelf, pick them to resell (RealGoods) and drop them", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const sel = await t.call<{ list: Commodity[] }>(
      "GET",
      "/api/card-user/commerce/selection?kind=physical&pageSize=100",
      { token: p.token },
    );
    expect(sel.body.data.list.find((c) => c.id === goods.id)?.picked).toBe(false);
    expect(
      (
        await t.call("POST", "/api/card-user/commerce/resales", {
          token: p.token,
          body: { commodityId: goods.id, retailPrice: 7_900 },
        })
      ).body.code,
    ).toBe(1);
    const mine = await t.call<{ list: Commodity[] }>("GET", "/api/card-user/commerce/selection?picked=yes", {
      token: p.token,
    });
    expect(mine.body.data.list.map((c) => c.id)).toEqual([goods.id]);
    const own = await t.call("POST", "/api/card-user/commerce/resales", {
      token: brand.token,
      body: { commodityId: goods.id },
      lang: "en",
    });
    expect(own.body.msg).toBe("You cannot buy your own products");
    await legacy(brand, "commodity/state/update", { id: goods.id, onShelf: false });
    const off = await t.call<{ list: Commodity[] }>(
      "GET",
      "/api/card-user/commerce/selection?kind=physical&pageSize=100",
      { token: p.token },
    );
    expect(off.body.data.list.some((c) => c.id === goods.id)).toBe(false);
    expect((await t.call("DELETE", `/api/card-user/commerce/resales/${goods.id}`, { token: p.token })).body.code).toBe(
      1,
    );
  });
});

describe("orders, express and tracking", () => {
  it("an order reserves stock, is paid into escrow, shipped through the courier simulator, tracked to signed and confirmed: the brand is paid", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const redM = sku(goods, "Red", "M");
    const placed = await order(p, [{ skuId: redM.id, quantity: 2 }]);
    expect(placed.body.code).toBe(1);
    // 2 × 59.00 + freight 8.00 (0.6 kg: first kilogram only).
    expect(placed.body.data).toMatchObject({
      state: "to_pay",
      payAmount: { amount: 12_600 },
      freight: { amount: 800 },
      consignee: { regionNames: "浙江省 杭州市 西湖区" },
    });
    const after = await legacy<{ list: Commodity[] }>(brand, "commodity/pager", {});
    expect(sku(after.body.data.list[0] as Commodity, "Red", "M")).toMatchObject({ stock: 8, sold: 2 });

    // A waybill for an unpaid order is refused.
    const early = await legacy(
      brand,
      "order/express/create",
      { orderId: placed.body.data.id, companyCode: "shunfeng" },
      "en",
    );
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe("The order is not paid and cannot be shipped");

    const paid = await t.call<Order>("POST", `/api/card-user/commerce/orders/${placed.body.data.id}/pay`, {
      token: p.token,
    });
    expect(paid.body.data.state).toBe("to_ship");
    expect(await supOf(p)).toBe(1_000_000 - 12_600);
    const orders = await legacy<{ list: Order[] }>(brand, "commodity/order/pager", { state: "to_ship" });
    expect(orders.body.data.list.map((o) => o.id)).toEqual([placed.body.data.id]);

    const shipped = await legacy<Order>(brand, "order/express/create", {
      orderId: placed.body.data.id,
      companyCode: "shunfeng",
    });
    expect(shipped.body.data.state).toBe("shipped");
    expect(shipped.body.data.shipment?.waybillNo).toMatch(/^SH\d{12}$/);
    expect(shipped.body.data.autoConfirmAt).not.toBeNull();
    const twice = await legacy(
      brand,
      "order/express/create",
      { orderId: placed.body.data.id, companyCode: "shunfeng" },
      "en",
    );
    expect(twice.body.msg).toBe("The order's current state does not allow this");

    // The simulator pushes events as time passes (60 s a step).
    t.clock.advance(130);
    await runCourier();
    const mid = await legacy<{ events: { state: number }[]; state: number }>(brand, "order/express/query", {
      orderId: placed.body.data.id,
    });
    expect(mid.body.data.events.map((e) => e.state)).toEqual([0, 1]);
    t.clock.advance(600);
    await runCourier();
    await runCourier();
    const track = await t.call<Order>("GET", `/api/card-user/commerce/orders/${placed.body.data.id}`, {
      token: p.token,
    });
    expect(track.body.data.state).toBe("received");
    expect(track.body.data.shipment?.events.map((e) => e.state)).toEqual([3, 5, 0, 0, 1]);
    expect(track.body.data.shipment?.state).toBe(3);
    // The list prints the order's times in the database: they read as the order alone does (ISO, to the millisecond).
    const listed = await legacy<{ list: Order[] }>(brand, "commodity/order/pager", { state: "received" });
    expect(listed.body.data.list).toEqual([
      { ...track.body.data, shipment: track.body.data.shipment && { ...track.body.data.shipment, events: [] } },
    ]);
    const list = await legacy<{ list: { waybillNo: string; signedAt: string | null }[] }>(brand, "expressorder/pager", {
      signed: true,
    });
    expect(list.body.data.list.map((s) => s.waybillNo)).toEqual([shipped.body.data.shipment?.waybillNo]);

    expect(await incomeOf(brand)).toBe(0);
    const done = await t.call<Order>("POST", `/api/card-user/commerce/orders/${placed.body.data.id}/confirm`, {
      token: p.token,
    });
    expect(done.body.data.state).toBe("completed");
    expect(await incomeOf(brand)).toBe(12_600);
  });

  it("shipped orders are confirmed automatically after the configured days", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const o = (await order(p, [{ skuId: sku(goods, "Blue", "L").id, quantity: 1 }])).body.data;
    await t.call("POST", `/api/card-user/commerce/orders/${o.id}/pay`, { token: p.token });
    await legacy(brand, "order/express/create", {
      orderId: o.id,
      companyCode: "zhongtong",
      waybillNo: `ZT${Date.now()}`,
    });
    t.clock.advance(6 * 86_400);
    await timers();
    await relogin(p);
    expect(
      (await t.call<Order>("GET", `/api/card-user/commerce/orders/${o.id}`, { token: p.token })).body.data.state,
    ).toBe("shipped");
    t.clock.advance(86_400 + 60);
    await timers();
    await relogin(p);
    await relogin(brand);
    expect(
      (await t.call<Order>("GET", `/api/card-user/commerce/orders/${o.id}`, { token: p.token })).body.data.state,
    ).toBe("completed");
    expect(await incomeOf(brand)).toBe(6_200 + 800);
  });

  it("bad orders change nothing: no stock, outside the regions, own goods; cancelling gives stock and money back once", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const empty = await order(p, [{ skuId: sku(goods, "Blue", "M").id, quantity: 1 }], address, "en");
    expect(empty.status).toBe(409);
    expect(empty.body.msg).toBe("“Cotton tee” does not have enough stock");
    const region = await order(
      p,
      [{ skuId: sku(goods, "Red", "L").id, quantity: 1 }],
      { ...address, countyCode: "110101" },
      "en",
    );
    expect(region.body.msg).toBe("The address is not in a listed province, city and county");
    const noAddress = await order(p, [{ skuId: sku(goods, "Red", "L").id, quantity: 1 }], null, "en");
    expect(noAddress.body.msg).toBe("Please fill in the delivery address");
    const own = await order(brand, [{ skuId: sku(goods, "Red", "L").id, quantity: 1 }], address, "en");
    expect(own.body.msg).toBe("You cannot buy your own products");
    const more = await order(p, [{ skuId: sku(goods, "Red", "L").id, quantity: 4 }], address, "en");
    expect(more.status).toBe(409);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/commerce/orders", { token: p.token })).body.data.total,
    ).toBe(0);

    const o = (await order(p, [{ skuId: sku(goods, "Red", "L").id, quantity: 3 }])).body.data;
    await t.call("POST", `/api/card-user/commerce/orders/${o.id}/pay`, { token: p.token });
    // Another purchaser cannot see or cancel it; the brand cannot pay it.
    const stranger = await buyer();
    expect((await t.call("GET", `/api/card-user/commerce/orders/${o.id}`, { token: stranger.token })).status).toBe(404);
    expect(
      (await t.call("POST", `/api/card-user/commerce/orders/${o.id}/cancel`, { token: stranger.token, body: {} }))
        .status,
    ).toBe(404);
    expect((await legacy<{ total: number }>(stranger, "commodity/order/pager", {})).body.data.total).toBe(0);
    const cancelled = await t.call<Order>("POST", `/api/card-user/commerce/orders/${o.id}/cancel`, {
      token: p.token,
      body: { reason: "changed my mind" },
    });
    expect(cancelled.body.data).toMatchObject({ state: "closed", refundedAmount: { amount: o.payAmount.amount } });
    expect(await supOf(p)).toBe(1_000_000);
    expect(
      (await t.call("POST", `/api/card-user/commerce/orders/${o.id}/cancel`, { token: p.token, body: {} })).status,
    ).toBe(409);
    const back = await legacy<{ list: Commodity[] }>(brand, "commodity/pager", {});
    expect(sku(back.body.data.list[0] as Commodity, "Red", "L").stock).toBe(3);
  });

  it("unpaid orders close after 30 minutes and give their stock back", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const o = (await order(p, [{ skuId: sku(goods, "Red", "L").id, quantity: 2 }])).body.data;
    t.clock.advance(31 * 60);
    await timers();
    expect(
      (await t.call<Order>("GET", `/api/card-user/commerce/orders/${o.id}`, { token: p.token })).body.data.state,
    ).toBe("closed");
    const back = await legacy<{ list: Commodity[] }>(brand, "commodity/pager", {});
    expect(sku(back.body.data.list[0] as Commodity, "Red", "L").stock).toBe(3);
  });

  it("tracking pushes: the signature is checked, replays store events once, unknown waybills change nothing", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const o = (await order(p, [{ skuId: sku(goods, "Red", "M").id, quantity: 1 }])).body.data;
    await t.call("POST", `/api/card-user/commerce/orders/${o.id}/pay`, { token: p.token });
    const waybill = `YT${Date.now()}`;
    await legacy(brand, "order/express/create", { orderId: o.id, companyCode: "yuantong", waybillNo: waybill });
    // A recorded Kuaidi100 push (resultv2=1), newest event first.
    const param = JSON.stringify({
      status: "polling",
      billstatus: "got",
      message: "",
      autoCheck: "0",
      comOld: "",
      comNew: "",
      lastResult: {
        message: "ok",
        state: "5",
        status: "200",
        condition: "F00",
        ischeck: "0",
        com: "yuantong",
        nu: waybill,
        data: [
          {
            context: "【杭州市】快件已到达 西湖区营业点，正在派件",
            time: "2026-11-20 09:05:10",
            ftime: "2026-11-20 09:05:10",
            status: "派件",
            statusCode: "5",
            areaName: "浙江,杭州市,西湖区",
          },
          {
            context: "【杭州市】快件已由 杭州转运中心 发往 西湖区营业点",
            time: "2026-11-19 21:00:00",
            ftime: "2026-11-19 21:00:00",
            status: "在途",
            statusCode: "1002",
            areaName: "浙江,杭州市",
          },
          {
            context: "【上海市】圆通快递员 已揽收",
            time: "2026-11-19 15:30:00",
            ftime: "2026-11-19 15:30:00",
            status: "揽收",
            statusCode: "103",
            areaName: "上海",
          },
        ],
      },
    });
    const push = (sign: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/ecommerce/express/push",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ param, sign }).toString(),
      });
    const forged = await push(pushSign(param, "wrong-salt"));
    expect(forged.statusCode).toBe(400);
    const first = await push(pushSign(param, "test-salt"));
    expect(first.json()).toMatchObject({ result: true, returnCode: "200" });
    await push(pushSign(param, "test-salt"));
    const tr = await legacy<{ events: { state: number; area: string }[]; state: number }>(
      brand,
      "order/express/query",
      { orderId: o.id },
    );
    expect(tr.body.data.events.map((e) => e.state)).toEqual([5, 0, 1]);
    expect(tr.body.data.state).toBe(5);
    const unknown = JSON.stringify({
      status: "polling",
      lastResult: { state: "0", com: "yuantong", nu: "YT0000000000", data: [] },
    });
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/ecommerce/express/push",
          payload: { param: unknown, sign: pushSign(unknown, "test-salt") },
        })
      ).json(),
    ).toMatchObject({ result: true });
    // The waybill cannot be renumbered once picked up; the remark can change.
    const sh = await legacy<{ list: { id: string }[] }>(brand, "expressorder/pager", { waybillNo: waybill });
    const id = sh.body.data.list[0]?.id;
    const renumber = await legacy(brand, "expressorder/update", { id, waybillNo: "YT1234567890" }, "en");
    expect(renumber.body.msg).toBe("The parcel has been picked up; the waybill cannot be changed");
    expect(
      (await legacy<{ remark: string }>(brand, "expressorder/update", { id, remark: "fragile" })).body.data.remark,
    ).toBe("fragile");
    expect((await legacy(p, "expressorder/update", { id, remark: "x" })).status).toBe(404);
  });

  it("express companies and the region lists", async () => {
    const m = await registerMerchant(t);
    const companies = await legacy<{ list: { code: string }[] }>(m, "express_company/pager", { page: 1, pagesize: 20 });
    expect(companies.body.data.list.map((c) => c.code)).toContain("shunfeng");
    const provinces = await legacy<{ code: string; name: string }[]>(m, "province/list");
    expect(provinces.body.data).toContainEqual({ code: "330000", name: "浙江省" });
    const cities = await legacy<{ code: string; name: string }[]>(m, "city/list", { provinceCode: "330000" });
    expect(cities.body.data).toContainEqual({ code: "330100", name: "杭州市" });
    const counties = await legacy<{ code: string; name: string }[]>(m, "county/list", { cityCode: "330100" });
    expect(counties.body.data).toContainEqual({ code: "330106", name: "西湖区" });
    expect((await legacy<unknown[]>(m, "city/list", { provinceCode: "999999" })).body.data).toEqual([]);
    expect((await t.call("POST", "/api/ecommerce/province/list", { body: {} })).status).toBe(401);
  });
});

describe("after-sales", () => {
  async function receivedOrder() {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const o = (
      await order(p, [
        { skuId: sku(goods, "Red", "M").id, quantity: 2 },
        { skuId: sku(goods, "Blue", "L").id, quantity: 1 },
      ])
    ).body.data;
    await t.call("POST", `/api/card-user/commerce/orders/${o.id}/pay`, { token: p.token });
    await legacy(brand, "order/express/create", { orderId: o.id, companyCode: "yunda" });
    tokens.set(o.id, p.token);
    return { brand, goods, p, o };
  }
  const tokens = new Map<string, string>();
  const p0 = (o: Order) => tokens.get(o.id) ?? "";

  it("return and refund to the end: agree, ship back, receive; the money and the stock come back once", async () => {
    const { brand, goods, p, o } = await receivedOrder();
    const line = o.items[0];
    if (!line) throw new Error("no line");
    // One of two units returned: at most what was paid for that one unit (issue 37: 1 unit worth 59.00 is never refunded more).
    const tooMuch = await t.call("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: {
        orderItemId: line.id,
        way: "return_and_refund",
        quantity: 1,
        amount: line.unitPrice.amount + 1,
        reason: "Too small",
        requestKey: key(),
      },
      lang: "en",
    });
    expect([tooMuch.status, tooMuch.body.msg]).toEqual([
      400,
      `The refund cannot exceed ${(line.unitPrice.amount / 100).toFixed(2)}, what was paid for the 1 unit(s) returned`,
    ]);
    const tooMuchCn = await t.call("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: {
        orderItemId: line.id,
        way: "return_and_refund",
        quantity: 1,
        amount: line.amount.amount,
        reason: "Too small",
        requestKey: key(),
      },
      lang: "cn",
    });
    expect(tooMuchCn.body.msg).toBe(`退款金额不能超过退回的1件商品实付金额${(line.unitPrice.amount / 100).toFixed(2)}`);
    const applied = await t.call<Aftersale>("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: {
        orderItemId: line.id,
        way: "return_and_refund",
        quantity: 1,
        amount: 5_900,
        reason: "Too small",
        requestKey: key(),
      },
    });
    expect(applied.body.data.state).toBe("apply");
    const second = await t.call("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: { orderItemId: line.id, way: "refund", quantity: 1, amount: 100, reason: "again", requestKey: key() },
      lang: "cn",
    });
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe("该商品已有售后申请");
    const id = applied.body.data.id;
    // Another brand cannot dispose of it; the brand cannot receive before the goods are sent.
    const other = await registerMerchant(t);
    expect((await legacy(other, "afterservice/dispose", { id, action: "agree" })).status).toBe(404);
    expect((await legacy(brand, "afterservice/dispose", { id, action: "receive" })).status).toBe(409);
    // Agreeing to a return names where the goods go back; the buyer is shown it.
    const noAddress = await legacy(brand, "afterservice/dispose", { id, action: "agree" }, "tw");
    expect([noAddress.status, noAddress.body.msg]).toEqual([400, "同意退貨請填寫退貨地址"]);
    expect(
      (
        await legacy<Aftersale>(brand, "afterservice/dispose", {
          id,
          action: "agree",
          returnAddress: "Tee Returns, 13800138000, 1 Wensan Road, Hangzhou",
        })
      ).body.data.state,
    ).toBe("seller_agree");
    const seen = await t.call<{ list: Aftersale[] }>("GET", "/api/card-user/commerce/aftersales", { token: p.token });
    expect(seen.body.data.list.find((a) => a.id === id)).toMatchObject({
      state: "seller_agree",
      returnAddress: "Tee Returns, 13800138000, 1 Wensan Road, Hangzhou",
    });
    const shipped = await t.call<Aftersale>("POST", `/api/card-user/commerce/aftersales/${id}/ship`, {
      token: p.token,
      body: { companyCode: "zhongtong", waybillNo: "ZT998877665544" },
    });
    // The courier shows by its name, not its code.
    expect(shipped.body.data).toMatchObject({
      state: "buyer_delivery",
      returnCompany: "zhongtong",
      returnCompanyName: "中通快递",
    });
    const pager = await legacy<{ list: Aftersale[] }>(brand, "afterservice/pager", { state: "buyer_delivery" });
    expect(pager.body.data.list.map((a) => a.id)).toEqual([id]);
    const supBefore = await supOf(p);
    const received = await legacy<Aftersale>(brand, "afterservice/dispose", { id, action: "receive" });
    expect(received.body.data.state).toBe("complete");
    expect(await supOf(p)).toBe(supBefore + 5_900);
    const stock = await legacy<{ list: Commodity[] }>(brand, "commodity/pager", {});
    expect(sku(stock.body.data.list[0] as Commodity, "Red", "M")).toMatchObject({ stock: 9, sold: 1 });
    expect((await legacy(brand, "afterservice/dispose", { id, action: "receive" })).status).toBe(409);
    expect(await supOf(p)).toBe(supBefore + 5_900);
    // The order completes with what is left: the brand gets the rest.
    await t.call("POST", `/api/card-user/commerce/orders/${o.id}/confirm`, { token: p.token });
    expect(await incomeOf(brand)).toBe(o.payAmount.amount - 5_900);
    void goods;
  });

  it("a return refunds what was paid for its units; the freight only with the order's last units (issue 37)", async () => {
    const { brand, o } = await receivedOrder();
    const [red, blue] = o.items;
    if (!red || !blue) throw new Error("no lines");
    const apply = (line: typeof red, quantity: number, amount: number) =>
      t.call<Aftersale>("POST", "/api/card-user/commerce/aftersales", {
        token: p0(o),
        body: { orderItemId: line.id, way: "return_and_refund", quantity, amount, reason: "Return", requestKey: key() },
        lang: "en",
      });
    // The whole red line (2 units) but not the blue one: the freight stays.
    const withFreight = await apply(red, 2, red.amount.amount + o.freight.amount);
    expect([withFreight.status, withFreight.body.msg]).toEqual([
      400,
      `The refund cannot exceed ${(red.amount.amount / 100).toFixed(2)}, what was paid for the 2 unit(s) returned`,
    ]);
    const redCase = await apply(red, 2, red.amount.amount);
    expect(redCase.body.code).toBe(1);
    const address = "Tee Returns, 13800138000, 1 Wensan Road, Hangzhou";
    expect(
      (
        await legacy<Aftersale>(brand, "afterservice/dispose", {
          id: redCase.body.data.id,
          action: "agree",
          returnAddress: address,
        })
      ).body.data.state,
    ).toBe("seller_agree");
    await t.call("POST", `/api/card-user/commerce/aftersales/${redCase.body.data.id}/ship`, {
      token: p0(o),
      body: { companyCode: "zhongtong", waybillNo: "ZT112233445566" },
    });
    expect(
      (await legacy<Aftersale>(brand, "afterservice/dispose", { id: redCase.body.data.id, action: "receive" })).body
        .data.state,
    ).toBe("complete");
    // The last unit of the order: its price and the freight, not a cent more.
    const over = await apply(blue, 1, blue.amount.amount + o.freight.amount + 1);
    expect(over.body.msg).toBe(
      `The refund cannot exceed ${((blue.amount.amount + o.freight.amount) / 100).toFixed(2)}, what was paid for the 1 unit(s) returned`,
    );
    const last = await apply(blue, 1, blue.amount.amount + o.freight.amount);
    expect(last.body.code).toBe(1);
    expect(
      (
        await legacy<Aftersale>(brand, "afterservice/dispose", {
          id: last.body.data.id,
          action: "agree",
          returnAddress: address,
        })
      ).body.data.state,
    ).toBe("seller_agree");
    expect(
      (
        await t.call<Aftersale>("POST", `/api/card-user/commerce/aftersales/${last.body.data.id}/ship`, {
          token: p0(o),
          body: { companyCode: "yunda", waybillNo: "YD112233445566" },
        })
      ).body.data.state,
    ).toBe("buyer_delivery");
    const received = await legacy<Aftersale>(brand, "afterservice/dispose", {
      id: last.body.data.id,
      action: "receive",
    });
    expect([received.body.code, received.body.data.state]).toEqual([1, "complete"]);
    const after = await t.call<Order>("GET", `/api/card-user/commerce/orders/${o.id}`, { token: p0(o) });
    expect(after.body.data.refundedAmount.amount).toBe(o.payAmount.amount);
  });

  it("refund only before shipping closes a fully refunded order and returns the stock; declined and cancelled cases may be followed by another", async () => {
    const { brand, goods } = await brandWithTee();
    const p = await buyer();
    const o = (await order(p, [{ skuId: sku(goods, "Red", "L").id, quantity: 1 }])).body.data;
    await t.call("POST", `/api/card-user/commerce/orders/${o.id}/pay`, { token: p.token });
    const line = o.items[0];
    if (!line) throw new Error("no line");
    const ret = await t.call("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: {
        orderItemId: line.id,
        way: "return_and_refund",
        quantity: 1,
        amount: 100,
        reason: "x",
        requestKey: key(),
      },
      lang: "en",
    });
    expect(ret.body.msg).toBe("The order has not been shipped: choose refund only");
    const a1 = await t.call<Aftersale>("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: { orderItemId: line.id, way: "refund", quantity: 1, amount: 100, reason: "x", requestKey: key() },
    });
    const declined = await legacy<Aftersale>(brand, "afterservice/dispose", {
      id: a1.body.data.id,
      action: "disagree",
      reason: "No",
    });
    expect(declined.body.data.state).toBe("seller_disagree");
    const a2 = await t.call<Aftersale>("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: { orderItemId: line.id, way: "refund", quantity: 1, amount: 100, reason: "y", requestKey: key() },
    });
    expect(
      (
        await t.call<Aftersale>("POST", `/api/card-user/commerce/aftersales/${a2.body.data.id}/cancel`, {
          token: p.token,
        })
      ).body.data.state,
    ).toBe("buyer_cancel");
    const a3 = await t.call<Aftersale>("POST", "/api/card-user/commerce/aftersales", {
      token: p.token,
      body: {
        orderItemId: line.id,
        way: "refund",
        quantity: 1,
        amount: line.amount.amount,
        reason: "z",
        requestKey: key(),
      },
    });
    const agreed = await legacy<Aftersale>(brand, "afterservice/dispose", { id: a3.body.data.id, action: "agree" });
    expect(agreed.body.data.state).toBe("complete");
    const after = await t.call<Order>("GET", `/api/card-user/commerce/orders/${o.id}`, { token: p.token });
    // The goods' price is back; the freight stays with the order (the order is not fully refunded).
    expect(after.body.data.refundedAmount.amount).toBe(line.amount.amount);
    const stock = await legacy<{ list: Commodity[] }>(brand, "commodity/pager", {});
    expect(sku(stock.body.data.list[0] as Commodity, "Red", "L").stock).toBe(3);
    const list = await t.call<{ list: Aftersale[] }>("GET", "/api/card-user/commerce/aftersales", { token: p.token });
    expect(list.body.data.list.map((a) => a.state)).toEqual(["complete", "buyer_cancel", "seller_disagree"]);
  });
});

/** The module's jobs, run by hand on the test clock (the service holds no state of its own). */
function jobs(): CommerceService {
  return new CommerceService({
    db: t.ctx.database.db,
    clock: t.clock,
    courier: { kind: "local", createWaybill: () => Promise.reject(new Error("not used")) },
    config: { autoConfirmDays: 7, courierStepSeconds: 60, pushSalt: "test-salt" },
    checkVideo: () => Promise.resolve(),
  });
}
async function runCourier(): Promise<void> {
  await jobs().runCourierSimulator();
}
async function timers(): Promise<void> {
  await jobs().runTimers(COMMERCE_LIMITS.unpaidCloseMinutes);
}
