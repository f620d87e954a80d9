import type { Brand, PurchaseOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock, markVerified, signDocking } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  supplier = await newMerchant(t, "Card Supplier Co");
  brand = await newBrand(t, supplier, "Star Cards");
});

interface D {
  id: string;
  status: string;
  docked: boolean;
  side: string;
  counterpartName: string;
  purchaserSigned: boolean;
  supplierSigned: boolean;
}
let seq = 0;
const orderNo = () => `PO${Date.now()}${++seq}`;
const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},SECRET${i},`);
const balances = async (token: string) =>
  (
    await t.call<{ balances: { sup: { amount: number }; income: { amount: number } } }>(
      "GET",
      "/api/card-user/userInfo",
      { token },
    )
  ).body.data.balances;

describe("docking", () => {
  it("apply, review, sign by both sides; the record shows the counterpart and the states", async () => {
    const buyer = await registerMerchant(t, { orgName: "Buyer One" });
    const empty = await t.call("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: { supplierId: "" },
      lang: "en",
    });
    expect(empty.body.msg).toBe("Please enter the supplier ID");
    const missing = await t.call("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: {},
      lang: "en",
    });
    expect(missing.body.msg).toBe("Please fill in complete information");
    const self = await t.call("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: { supplierId: buyer.merchantId },
      lang: "en",
    });
    expect(self.body.msg).toBe("You cannot dock with yourself");

    for (const m of [buyer, supplier]) await markVerified(t, m.merchantId);
    const applied = await t.call<D>("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: { supplierId: supplier.merchantId },
    });
    expect(applied.body.data).toMatchObject({
      status: "pending_review",
      docked: false,
      side: "purchaser",
      counterpartName: "Card Supplier Co",
    });
    const again = await t.call("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: { supplierId: supplier.merchantId },
      lang: "en",
    });
    expect(again.status).toBe(409);
    const id = applied.body.data.id;

    // The purchaser cannot approve its own application; the supplier sees it from its side.
    expect(
      (
        await t.call("POST", `/api/card-user/abutment/brander/review/${id}`, {
          token: buyer.token,
          body: { approve: true },
        })
      ).status,
    ).toBe(404);
    const incoming = await t.call<{ list: D[] }>(
      "GET",
      "/api/card-user/abutment/brander/apply?side=supplier&status=pending_review",
      { token: supplier.token },
    );
    expect(incoming.body.data.list.map((d) => [d.id, d.side, d.counterpartName])).toContainEqual([
      id,
      "supplier",
      "Buyer One",
    ]);
    const noReason = await t.call("POST", `/api/card-user/abutment/brander/review/${id}`, {
      token: supplier.token,
      body: { approve: false },
      lang: "en",
    });
    expect(noReason.body.msg).toBe("Please enter the reason for rejecting");
    const approved = await t.call<D>("POST", `/api/card-user/abutment/brander/review/${id}`, {
      token: supplier.token,
      body: { approve: true },
    });
    expect(approved.body.data).toMatchObject({ status: "approved", docked: false });

    expect((await signDocking(t, buyer.token, id)).code).toBe(1);
    const half = await t.call<{ list: D[] }>("GET", "/api/card-user/abutment/brander/apply", { token: buyer.token });
    expect(half.body.data.list[0]).toMatchObject({ purchaserSigned: true, supplierSigned: false, docked: false });
    expect((await signDocking(t, supplier.token, id)).code).toBe(1);
    const done = await t.call<{ list: D[] }>("GET", "/api/card-user/abutment/brander/apply", { token: buyer.token });
    expect(done.body.data.list[0]).toMatchObject({ docked: true });

    const stranger = await registerMerchant(t);
    expect((await t.call("DELETE", `/api/card-user/apply/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.call("DELETE", `/api/card-user/apply/${id}`, { token: supplier.token })).body.code).toBe(1);
    const ended = await t.call<{ list: D[] }>("GET", "/api/card-user/abutment/brander/apply", { token: buyer.token });
    expect(ended.body.data.list[0]).toMatchObject({ status: "cancelled", docked: false });
  });
});

describe("orders", () => {
  it("card-secret goods: one transaction pays the supplier and gives the buyer exactly its codes", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Game card 30", price: 2700 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(5, "GAME"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    const before = await balances(supplier.token);

    const placed = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 3, orderNo: orderNo() },
    });
    expect(placed.body.data).toMatchObject({
      state: "success",
      quantity: 3,
      amount: { amount: 8_100, currency: "CNY" },
      goodsName: "Game card 30",
    });
    expect((await balances(buyer.token)).sup.amount).toBe(1_900);
    expect((await balances(supplier.token)).income.amount).toBe(before.income.amount + 8_100);
    const cards = await t.call<{ list: { orderId: string }[]; total: number }>(
      "GET",
      `/api/card-user/purchasedCards?orderId=${placed.body.data.id}`,
      { token: buyer.token },
    );
    expect(cards.body.data.total).toBe(3);

    // Short stock and short balance each fail cleanly: no order, no money, no codes.
    const tooMany = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 3, orderNo: orderNo() },
      lang: "en",
    });
    expect(tooMany.status).toBe(409);
    const poor = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 1, orderNo: orderNo() },
      lang: "en",
    });
    expect(poor.body.msg).toBe("Insufficient balance");
    const list = await t.call<{ total: number }>("GET", "/api/card-user/orders", { token: buyer.token });
    expect(list.body.data.total).toBe(1);
    expect((await balances(buyer.token)).sup.amount).toBe(1_900);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("the order that takes the stock below the goods' low-stock threshold notifies the supplier, once per dip", async () => {
    const goods = await newGoods(t, supplier, brand.id, {
      name: "Thin card",
      price: 100,
      settlementPrice: 90,
      lowStockThreshold: 3,
    });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(6, "THIN"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    const notices = async () => {
      const outbox = await t.call<{ list: { subject: string }[] }>(
        "GET",
        `/api/dev/outbox?to=${encodeURIComponent(supplier.email)}`,
      );
      return outbox.body.data.list.filter((m) => m.subject.includes("Thin card")).length;
    };
    const buy = async (quantity: number) =>
      (
        await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
          token: buyer.token,
          body: { goodsId: String(goods.id), quantity, orderNo: orderNo() },
        })
      ).body.code;
    expect(await buy(2)).toBe(1); // 4 left
    expect(await notices()).toBe(0);
    expect(await buy(2)).toBe(1); // 2 left: below 3
    // The notice is sent before the order answers.
    expect(await notices()).toBe(1);
    expect(await buy(1)).toBe(1); // 1 left: still the same dip
    expect(await buy(5)).not.toBe(1); // short stock: refused, nothing moved
    const stock = await t.call<{ stock: number }>("GET", `/api/card-brander/product/${goods.id}`, {
      token: supplier.token,
    });
    expect(stock.body.data.stock).toBe(1);
    expect(await notices()).toBe(1);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("the same order number makes one order; with another request it is refused", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Replay card" });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(5, "REPL"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 100_000);
    const body = { goodsId: String(goods.id), quantity: 1, orderNo: orderNo() };
    const first = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", { token: buyer.token, body });
    const second = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", { token: buyer.token, body });
    expect(second.body.data.id).toBe(first.body.data.id);
    const other = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { ...body, quantity: 2 },
      lang: "en",
    });
    expect(other.status).toBe(409);
    expect(other.body.msg).toBe("This order number was already used for a different order");
    expect((await balances(buyer.token)).sup.amount).toBe(100_000 - 2_700);
  });

  it("more than the goods' limit per order is refused with that limit, in three languages, and buys nothing", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Limited card", perOrderMax: 10 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(20, "LIMT"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 100_000);
    for (const [lang, msg] of [
      ["cn", "该商品单次最多购买10件"],
      ["tw", "該商品單次最多購買10件"],
      ["en", "This goods can be bought at most 10 per order"],
    ] as const) {
      const res = await t.call("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 11, orderNo: orderNo() },
        lang,
      });
      expect([res.status, res.body.msg]).toEqual([400, msg]);
    }
    expect((await balances(buyer.token)).sup.amount).toBe(100_000);
  });

  it("only docked purchasers buy; direct top-ups wait in escrow until the supplier reports success or failure", async () => {
    const topUp = await newGoods(t, supplier, brand.id, {
      name: "Mobile top-up 50",
      businessType: "top_up",
      faceValue: 5000,
      price: 4900,
      settlementPrice: 4800,
    });
    const stranger = await registerMerchant(t);
    await markVerified(t, stranger.merchantId);
    await fundSup(t, stranger, 10_000);
    const refused = await t.call("POST", "/api/card-user/orders", {
      token: stranger.token,
      body: { goodsId: String(topUp.id), quantity: 1, topUpAccount: "13800000000", orderNo: orderNo() },
      lang: "en",
    });
    expect(refused.body.msg).toBe(
      "You cannot buy this supplier's goods: you are not docked with it, authorised by its brand or on its whitelist",
    );

    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 20_000);
    const noAccount = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(topUp.id), quantity: 1, orderNo: orderNo() },
      lang: "en",
    });
    expect(noAccount.body.msg).toBe("Please enter the account to top up");
    const supplierBefore = (await balances(supplier.token)).income.amount;
    const a = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(topUp.id), quantity: 1, topUpAccount: "13800000000", orderNo: orderNo() },
    });
    const b = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(topUp.id), quantity: 2, topUpAccount: "13900000000", orderNo: orderNo() },
    });
    expect(a.body.data.state).toBe("processing");
    expect((await balances(buyer.token)).sup.amount).toBe(20_000 - 3 * 4_900);
    expect((await balances(supplier.token)).income.amount).toBe(supplierBefore);

    const pending = await t.call<{ list: PurchaseOrder[] }>("GET", "/api/card-brander/supplyOrders?state=processing", {
      token: supplier.token,
    });
    expect(pending.body.data.list.map((o) => o.id)).toEqual(expect.arrayContaining([a.body.data.id, b.body.data.id]));
    expect(
      (
        await t.call("PUT", `/api/card-brander/supplyOrders/${a.body.data.id}/fulfil`, {
          token: buyer.token,
          body: { result: "success", upstreamChannelId: "X" },
        })
      ).status,
    ).toBe(404);
    const ok = await t.call<PurchaseOrder>("PUT", `/api/card-brander/supplyOrders/${a.body.data.id}/fulfil`, {
      token: supplier.token,
      body: { result: "success", upstreamChannelId: "CH-778" },
    });
    expect(ok.body.data).toMatchObject({ state: "success", upstreamChannelId: "CH-778" });
    const failed = await t.call<PurchaseOrder>("PUT", `/api/card-brander/supplyOrders/${b.body.data.id}/fulfil`, {
      token: supplier.token,
      body: { result: "failure", reason: "Number not recognised" },
    });
    expect(failed.body.data).toMatchObject({ state: "failure", refunded: true, failReason: "Number not recognised" });
    const twice = await t.call("PUT", `/api/card-brander/supplyOrders/${b.body.data.id}/fulfil`, {
      token: supplier.token,
      body: { result: "failure", reason: "again" },
      lang: "en",
    });
    expect(twice.body.msg).toBe("This order has already been settled");
    expect((await balances(buyer.token)).sup.amount).toBe(20_000 - 4_900);
    expect((await balances(supplier.token)).income.amount).toBe(supplierBefore + 4_900);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});

interface R {
  id: string;
  state: string;
  quantity: number;
  amount: { amount: number };
  failReason: string | null;
}

describe("refunds and reports", () => {
  it("a refund of unused codes: the supplier accepts, the codes are voided and the money returns once", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Refund card", price: 1_000, settlementPrice: 900 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(4, "REFD"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    const order = (
      await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 3, orderNo: orderNo() },
      })
    ).body.data;
    const tooMany = await t.call("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: order.id, quantity: 4, reason: "unused" },
      lang: "en",
    });
    expect(tooMany.body.msg).toBe("More than the codes left to refund");
    const stranger = await registerMerchant(t);
    expect(
      (
        await t.call("POST", "/api/card-user/refunds", {
          token: stranger.token,
          body: { orderId: order.id, quantity: 1, reason: "x" },
        })
      ).status,
    ).toBe(404);

    const asked = await t.call<R>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: order.id, quantity: 2, reason: "Customer cancelled" },
    });
    expect(asked.body.data).toMatchObject({ state: "processing", quantity: 2, amount: { amount: 2_000 } });
    const second = await t.call("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: order.id, quantity: 1, reason: "again" },
      lang: "en",
    });
    expect(second.body.msg).toBe("This order already has a refund in progress");
    expect(
      (
        await t.call("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
          token: buyer.token,
          body: { approve: true },
        })
      ).status,
    ).toBe(404);

    const accepted = await t.call<R>("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
      token: supplier.token,
      body: { approve: true },
    });
    expect(accepted.body.data.state).toBe("success");
    expect((await balances(buyer.token)).sup.amount).toBe(10_000 - 3_000 + 2_000);
    const again = await t.call("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
      token: supplier.token,
      body: { approve: true },
      lang: "en",
    });
    expect(again.body.msg).toBe("This refund has already been settled");
    expect((await balances(buyer.token)).sup.amount).toBe(9_000);
    const codes = await t.call<{ list: { state: string }[] }>(
      "GET",
      `/api/card-user/purchasedCards?orderId=${order.id}`,
      { token: buyer.token },
    );
    expect(codes.body.data.list.filter((c) => c.state === "sold")).toHaveLength(1);

    // A refused refund moves nothing.
    const last = await t.call<R>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: order.id, quantity: 1, reason: "one more" },
    });
    const refused = await t.call<R>("PUT", `/api/card-brander/supplyRefunds/${last.body.data.id}`, {
      token: supplier.token,
      body: { approve: false, reason: "Already used" },
    });
    expect(refused.body.data).toMatchObject({ state: "failure", failReason: "Already used" });
    expect((await balances(buyer.token)).sup.amount).toBe(9_000);

    const mine = await t.call<{ list: R[] }>("GET", "/api/card-user/refunds", { token: buyer.token });
    expect(mine.body.data.list.map((r) => r.state)).toEqual(["failure", "success"]);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);

    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const purchases = await t.call<
      { orders: number; quantity: number; faceAmount: number; amount: number; supplierName: string }[]
    >("GET", `/api/card-user/orders/reports?unit=month&from=2026-01-01&to=${today}`, { token: buyer.token });
    expect(purchases.body.data).toEqual([
      expect.objectContaining({
        orders: 1,
        quantity: 3,
        faceAmount: 9_000,
        amount: 3_000,
        supplierName: "Card Supplier Co",
      }),
    ]);
    const refundsReport = await t.call<{ quantity: number; amount: number }[]>(
      "GET",
      `/api/card-user/orders/reports?kind=refund&unit=week&from=2026-01-01&to=${today}`,
      { token: buyer.token },
    );
    expect(refundsReport.body.data).toEqual([expect.objectContaining({ quantity: 2, amount: 2_000 })]);
    const sales = await t.call<{ amount: number }[]>(
      "GET",
      `/api/card-brander/sup/reports?unit=day&from=${today}&to=${today}`,
      { token: supplier.token },
    );
    expect(sales.body.data.reduce((sum, r) => sum + r.amount, 0)).toBeGreaterThanOrEqual(3_000);
  });

  it("a failed direct top-up appears as a successful automatic refund", async () => {
    const topUp = await newGoods(t, supplier, brand.id, {
      name: "Auto refund top-up",
      businessType: "top_up",
      faceValue: 1000,
      price: 990,
      settlementPrice: 900,
    });
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 5_000);
    const o = (
      await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(topUp.id), quantity: 1, topUpAccount: "13700000000", orderNo: orderNo() },
      })
    ).body.data;
    await t.call("PUT", `/api/card-brander/supplyOrders/${o.id}/fulfil`, {
      token: supplier.token,
      body: { result: "failure", reason: "Operator busy" },
    });
    const refunds = await t.call<{ list: R[] }>("GET", "/api/card-user/refunds", { token: buyer.token });
    expect(refunds.body.data.list).toEqual([
      expect.objectContaining({ state: "success", quantity: 1, amount: { amount: 990, currency: "CNY" } }),
    ]);
    expect((await balances(buyer.token)).sup.amount).toBe(5_000);
  });
});

describe("brand authorisation", () => {
  it("lets an authorised purchaser buy without a docking until the brand revokes it or it ends", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Authorised card", price: 500, settlementPrice: 450 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(5, "AUTH"));
    const buyer = await registerMerchant(t, { orgName: "Authorised Buyer" });
    await markVerified(t, buyer.merchantId);
    await fundSup(t, buyer, 10_000);
    const buy = () =>
      t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 1, orderNo: orderNo() },
        lang: "en",
      });
    expect((await buy()).body.msg).toBe(
      "You cannot buy this supplier's goods: you are not docked with it, authorised by its brand or on its whitelist",
    );

    const self = await t.call("POST", "/api/card-user/brandAuth", {
      token: supplier.token,
      body: { granteeId: supplier.merchantId, kind: "purchaser" },
      lang: "en",
    });
    expect(self.body.msg).toBe("You cannot authorise yourself");
    const notProvider = await t.call("POST", "/api/card-user/brandAuth", {
      token: supplier.token,
      body: { granteeId: buyer.merchantId, kind: "provider" },
      lang: "en",
    });
    expect(notProvider.body.msg).toBe("This merchant is not a service provider");
    const granted = await t.call<{ id: string; active: boolean; granteeName: string }>(
      "POST",
      "/api/card-user/brandAuth",
      { token: supplier.token, body: { granteeId: buyer.merchantId, kind: "purchaser", remark: "Partner" } },
    );
    expect(granted.body.data).toMatchObject({ active: true, granteeName: "Authorised Buyer" });
    expect(
      (
        await t.call("POST", "/api/card-user/brandAuth", {
          token: supplier.token,
          body: { granteeId: buyer.merchantId, kind: "purchaser" },
        })
      ).status,
    ).toBe(409);
    expect((await buy()).body.code).toBe(1);

    const received = await t.call<{ list: { id: string }[] }>("POST", "/api/card-user/brandAuth/list", {
      token: buyer.token,
      body: { side: "grantee" },
    });
    expect(received.body.data.list.map((a) => a.id)).toEqual([granted.body.data.id]);
    // The grantee cannot change or revoke it; an end date in the past ends it.
    expect(
      (await t.call("DELETE", `/api/card-user/brandAuth/${granted.body.data.id}`, { token: buyer.token })).status,
    ).toBe(404);
    await t.call("PUT", `/api/card-user/brandAuth/${granted.body.data.id}`, {
      token: supplier.token,
      body: { validUntil: "2020-01-01" },
    });
    expect((await buy()).body.msg).toBe(
      "You cannot buy this supplier's goods: you are not docked with it, authorised by its brand or on its whitelist",
    );
    await t.call("PUT", `/api/card-user/brandAuth/${granted.body.data.id}`, {
      token: supplier.token,
      body: { validUntil: null },
    });
    expect((await buy()).body.code).toBe(1);
    const revoked = await t.call<{ active: boolean }>("DELETE", `/api/card-user/brandAuth/${granted.body.data.id}`, {
      token: supplier.token,
    });
    expect(revoked.body.data.active).toBe(false);
    expect((await buy()).body.msg).toBe(
      "You cannot buy this supplier's goods: you are not docked with it, authorised by its brand or on its whitelist",
    );
  });
});

describe("purchase applications", () => {
  it("the supplier approves with a price for that purchaser, which its orders then pay (the secret price first)", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Applied card", price: 2_000, settlementPrice: 1_800 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(5, "APPL"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    type A = { id: string; state: string; price: { amount: number } | null; secretPrice: { amount: number } | null };
    const applied = await t.call<A>("POST", "/api/card-user/purchaseApplications", {
      token: buyer.token,
      body: { goodsId: String(goods.id), remark: "Monthly 500 codes" },
    });
    expect(applied.body.data).toMatchObject({ state: "pending_review", price: null });
    expect(
      (
        await t.call("POST", "/api/card-user/purchaseApplications", {
          token: buyer.token,
          body: { goodsId: String(goods.id) },
        })
      ).status,
    ).toBe(409);
    const stranger = await registerMerchant(t);
    expect(
      (
        await t.call("PUT", `/api/card-brander/purchaseApplications/${applied.body.data.id}`, {
          token: stranger.token,
          body: { approve: true, price: 1 },
        })
      ).status,
    ).toBe(404);
    const bad = await t.call("PUT", `/api/card-brander/purchaseApplications/${applied.body.data.id}`, {
      token: supplier.token,
      body: { approve: true, price: 0 },
      lang: "en",
    });
    expect(bad.body.msg).toBe("Please enter a correct price");
    const approved = await t.call<A>("PUT", `/api/card-brander/purchaseApplications/${applied.body.data.id}`, {
      token: supplier.token,
      body: { approve: true, price: 1_900, secretPrice: 1_850 },
    });
    expect(approved.body.data).toMatchObject({
      state: "purchasing",
      price: { amount: 1_900 },
      secretPrice: { amount: 1_850 },
    });
    expect(
      (
        await t.call("PUT", `/api/card-brander/purchaseApplications/${applied.body.data.id}`, {
          token: supplier.token,
          body: { approve: false, reason: "late" },
        })
      ).status,
    ).toBe(409);
    // What the purchaser is shown before buying is what it pays: the goods detail and the selection list.
    type Offered = { id: number; price: number; listPrice: number; ownPrice: boolean; stock: number };
    const shown = await t.call<Offered>("GET", `/api/card-user/merchandises/${goods.id}`, { token: buyer.token });
    expect(shown.body.data).toMatchObject({ price: 1_850, listPrice: 2_000, ownPrice: true, stock: 5 });
    const listed = await t.call<{ list: Offered[] }>("GET", "/api/card-user/merchandises?type=card&pageSize=100", {
      token: buyer.token,
    });
    expect(listed.body.data.list.find((g) => g.id === goods.id)).toMatchObject({ price: 1_850, ownPrice: true });
    const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 2, orderNo: orderNo() },
    });
    expect(order.body.data).toMatchObject({ unitPrice: { amount: 1_850 }, amount: { amount: 3_700 } });
    expect(
      (await t.call<Offered>("GET", `/api/card-user/merchandises/${goods.id}`, { token: buyer.token })).body.data.stock,
    ).toBe(3);
    // Another purchaser, without an application, is shown and charged the list price.
    const { buyer: other } = await dock(t, supplier);
    expect(
      (await t.call<Offered>("GET", `/api/card-user/merchandises/${goods.id}`, { token: other.token })).body.data,
    ).toMatchObject({ price: 2_000, ownPrice: false });
    const seen = await t.call<{ list: A[] }>("GET", "/api/card-brander/purchaseApplications?state=purchasing", {
      token: supplier.token,
    });
    expect(seen.body.data.list.map((a) => a.id)).toContain(applied.body.data.id);
  });
});
