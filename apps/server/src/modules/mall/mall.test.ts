import type { MallBagCode, MallOrder, SelfGoods, SmsSummary, Storefront, StoreGoods } from "@tessera/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { checkInvariants } from "../ledger";
import { creditCard, invariantProblems } from "../onecard";
import { withTx } from "../../db/tx";
import { key, login, newPhone, newShop, stockMall, type Shop } from "../../../test/kit/mall-fixtures";

const t = useTestApp();
let shop: Shop;
let ids: { cardSelf: string; topupSelf: string; bag: string };
beforeAll(async () => {
  shop = await newShop(t, { codes: 6 });
  ids = await stockMall(t, shop);
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  expect(await invariantProblems(t.ctx.database.db)).toEqual([]);
});

const balances = async (token: string) =>
  (
    await t.call<{
      balances: { sup: { amount: number }; income: { amount: number }; sandboxIncome: { amount: number } };
    }>("GET", "/api/card-user/userInfo", { token })
  ).body.data.balances;
const smsLeft = async (s: Shop) =>
  (await t.call<SmsSummary>("GET", "/api/card-user/mall/sms", { token: s.purchaser.token })).body.data.remaining;

describe("the mall's back-office", () => {
  it("SelfSupport: goods the purchaser may buy, its own price, never twice; bad input in three languages", async () => {
    const cands = await t.call<{ list: { goodsId: string; inMall: boolean }[] }>(
      "GET",
      "/api/card-user/mall/selfGoods/candidates",
      { token: shop.purchaser.token },
    );
    expect(
      cands.body.data.list
        .filter((c) => c.inMall)
        .map((c) => c.goodsId)
        .sort(),
    ).toEqual([String(shop.cardGoodsId), String(shop.topupGoodsId)].sort());
    const list = await t.call<{ list: SelfGoods[] }>("GET", "/api/card-user/mall/selfGoods", {
      token: shop.purchaser.token,
    });
    const card = list.body.data.list.find((g) => g.id === ids.cardSelf);
    expect(card).toMatchObject({
      delivery: "code",
      price: { amount: 2990 },
      cost: { amount: 2700 },
      ownStock: 0,
      onSale: true,
    });
    const twice = await t.call("POST", "/api/card-user/mall/selfGoods", {
      token: shop.purchaser.token,
      body: { goodsId: String(shop.cardGoodsId), price: 100 },
      lang: "en",
    });
    expect([twice.status, twice.body.msg]).toEqual([409, "This goods is in the mall already"]);
    for (const [lang, msg] of [
      ["cn", "请输入正确的售价"],
      ["tw", "請輸入正確的售價"],
      ["en", "Please enter a correct selling price"],
    ] as const) {
      const bad = await t.call("POST", "/api/card-user/mall/selfGoods", {
        token: shop.purchaser.token,
        body: { goodsId: String(shop.cardGoodsId), price: -1 },
        lang,
      });
      expect([bad.status, bad.body.msg]).toEqual([400, msg]);
    }
    // A goods of a supplier the purchaser is not docked with cannot go into its mall.
    const other = await newShop(t, { codes: 1 });
    const notMine = await t.call("POST", "/api/card-user/mall/selfGoods", {
      token: shop.purchaser.token,
      body: { goodsId: String(other.cardGoodsId), price: 100 },
      lang: "en",
    });
    expect(notMine.status).toBe(409);
    const bag = await t.call("POST", "/api/card-user/mall/giftBags", {
      token: shop.purchaser.token,
      body: { name: "", price: 1, stock: 1, validDays: 1, items: [] },
      lang: "en",
    });
    expect([bag.status, bag.body.msg]).toEqual([400, "Please enter a name"]);
  });

  it("tenancy: another merchant sees none of this mall's goods, packs, orders, members, SMS", async () => {
    const other = await newShop(t, { codes: 1 });
    for (const path of ["selfGoods", "giftBags", "orders", "members", "sms/records"]) {
      const res = await t.call<{ list: unknown[] }>("GET", `/api/card-user/mall/${path}`, {
        token: other.purchaser.token,
      });
      expect(res.body.data.list).toEqual([]);
    }
    const change = await t.call("PUT", `/api/card-user/mall/selfGoods/${ids.cardSelf}`, {
      token: other.purchaser.token,
      body: { price: 1 },
    });
    expect(change.status).toBe(404);
    const pack = await t.call("PUT", `/api/card-user/mall/giftBags/${ids.bag}`, {
      token: other.purchaser.token,
      body: { name: "x", price: 1, stock: 1, validDays: 1, items: [{ selfGoodsId: ids.cardSelf, quantity: 1 }] },
    });
    expect(pack.status).toBe(400);
  });
});

describe("the storefront", () => {
  it("is rendered from the released config; the mall calls need v 1, the app id and the seller id", async () => {
    const sf = await t.call<Storefront>("GET", "/api/mall/shop/storefront", { headers: shop.headers });
    expect(sf.body.data).toMatchObject({
      appId: shop.appId,
      name: "Star Mall",
      theme: 2,
      locked: false,
      sellerId: shop.purchaser.merchantId,
    });
    expect(sf.body.data.bottomMenus.map((m) => m.title)).toEqual(["Home", "Orders"]);
    const noV = await t.call("GET", "/api/mall/shop/storefront", { headers: { ...shop.headers, v: "2" }, lang: "en" });
    expect([noV.status, noV.body.msg]).toEqual([400, "The request lacks the mall parameters (v, app id, seller id)"]);
    const wrongSeller = await t.call("GET", "/api/mall/shop/storefront", {
      headers: { ...shop.headers, "x-seller-id": "999999" },
    });
    expect(wrongSeller.status).toBe(404);
    const goods = await t.call<{ list: StoreGoods[] }>("GET", "/api/mall/shop/goods", { headers: shop.headers });
    expect(goods.body.data.list.map((g) => [g.kind, g.name]).sort()).toEqual(
      [
        ["bag", "Video pack"],
        ["goods", expect.stringContaining("Phone top-up")],
        ["goods", expect.stringContaining("Video VIP")],
      ].sort(),
    );
  });

  it("an expired or missing customer token is code 1007", async () => {
    for (const headers of [shop.headers, { ...shop.headers, "x-customer-token": "nope" }]) {
      const res = await t.call("GET", "/api/mall/shop/orders", { headers });
      expect(res.body.code).toBe(1007);
    }
    const c = await login(t, shop);
    t.clock.advance(8 * 86_400);
    expect((await t.call("GET", "/api/mall/shop/orders", { headers: c.headers })).body.code).toBe(1007);
    t.clock.advance(-8 * 86_400);
  });

  it("a customer logs in by SMS (counted), buys a gift pack and codes by wallet; codes from smart purchase, then from own stock", async () => {
    const smsBefore = await smsLeft(shop);
    const c = await login(t, shop);
    expect(await smsLeft(shop)).toBe(smsBefore - 1);
    const records = await t.call<{ list: { phone: string; state: string }[] }>(
      "GET",
      "/api/card-user/mall/sms/records",
      { token: shop.purchaser.token },
    );
    expect(records.body.data.list[0]).toMatchObject({ phone: c.phone, state: "sent" });

    const before = await balances(shop.purchaser.token);
    const requestKey = key();
    const body = {
      lines: [
        { kind: "bag", id: ids.bag, quantity: 1 },
        { kind: "goods", id: ids.cardSelf, quantity: 1 },
      ],
      payMethod: "wallet",
      requestKey,
    };
    const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", { headers: c.headers, body });
    expect(paid.body.code).toBe(1);
    const o = paid.body.data;
    expect(o).toMatchObject({ state: "delivered", payMethod: "wallet", amount: { amount: 5500 + 2990 } });
    expect(o.deliveries).toHaveLength(3);
    expect(o.deliveries.every((d) => d.cardSecret?.startsWith("SECRET-"))).toBe(true);
    expect(new Set(o.deliveries.map((d) => d.cardNumber)).size).toBe(3);
    // The same request key is the same order; nothing bought or paid twice.
    const again = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", { headers: c.headers, body });
    expect(again.body.data.id).toBe(o.id);
    const after = await balances(shop.purchaser.token);
    // The wallet is the sandbox payment adapter: test money, never the withdrawable income.
    expect(after.sandboxIncome.amount - before.sandboxIncome.amount).toBe(8490);
    expect(after.income.amount).toBe(before.income.amount);
    expect(before.sup.amount - after.sup.amount).toBe(3 * 2700);

    // The merchant sees the order with the codes masked, and the pack's stock went down.
    const list = await t.call<{ list: MallOrder[] }>("GET", "/api/card-user/mall/orders", {
      token: shop.purchaser.token,
    });
    const seen = list.body.data.list.find((x) => x.id === o.id);
    expect(seen?.deliveries.every((d) => d.cardSecret === "******")).toBe(true);
    const bags = await t.call<{ list: { id: string; sold: number }[] }>("GET", "/api/card-user/mall/giftBags", {
      token: shop.purchaser.token,
    });
    expect(bags.body.data.list.find((b) => b.id === ids.bag)?.sold).toBe(1);
    const members = await t.call<{ list: { phone: string; orders: number }[] }>("GET", "/api/card-user/mall/members", {
      token: shop.purchaser.token,
    });
    expect(members.body.data.list.find((m) => m.phone === c.phone)?.orders).toBe(1);

    // A customer sees only their own orders.
    const d = await login(t, shop);
    expect(
      (await t.call<{ list: MallOrder[] }>("GET", "/api/mall/shop/orders", { headers: d.headers })).body.data.list,
    ).toEqual([]);
    expect((await t.call("GET", `/api/mall/shop/orders/${o.id}`, { headers: d.headers })).status).toBe(404);
    const mine = await t.call<MallOrder>("GET", `/api/mall/shop/orders/${o.id}`, { headers: c.headers });
    expect(mine.body.data.deliveries.map((x) => x.cardSecret)).toEqual(o.deliveries.map((x) => x.cardSecret));

    // The codes land in the customer's card bag (masked; the order's page reveals them); others see none.
    const bagCodes = async (h: Record<string, string>) =>
      (
        await t.call<{ list: MallBagCode[] }>("GET", "/api/mall/codes", {
          headers: { "x-customer-token": h["x-customer-token"] ?? "" },
        })
      ).body.data.list;
    const inBag = await bagCodes(c.headers);
    expect(inBag.filter((x) => x.orderId === o.id)).toHaveLength(3);
    expect(inBag[0]).toMatchObject({ appId: shop.appId, mallName: "Star Mall", orderNo: o.orderNo });
    expect(JSON.stringify(inBag)).not.toContain("SECRET-");
    expect(await bagCodes(d.headers)).toEqual([]);
    expect((await t.call("GET", "/api/mall/codes")).body.code).toBe(1007);
  });

  it("uses the purchaser's own stock before buying", async () => {
    const s = await newShop(t, { codes: 5 });
    const m = await stockMall(t, s);
    // The purchaser bought 2 codes itself: the mall sells those first.
    const bought = await t.call("POST", "/api/card-user/orders", {
      token: s.purchaser.token,
      body: { goodsId: String(s.cardGoodsId), quantity: 2, orderNo: `OWN${Date.now()}` },
    });
    expect(bought.body.code).toBe(1);
    const stock = await t.call<{ list: SelfGoods[] }>("GET", "/api/card-user/mall/selfGoods", {
      token: s.purchaser.token,
    });
    expect(stock.body.data.list.find((g) => g.id === m.cardSelf)?.ownStock).toBe(2);
    const before = await balances(s.purchaser.token);
    const c = await login(t, s);
    const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
      headers: c.headers,
      body: { lines: [{ kind: "goods", id: m.cardSelf, quantity: 3 }], payMethod: "wallet", requestKey: key() },
    });
    expect(paid.body.data.state).toBe("delivered");
    const after = await balances(s.purchaser.token);
    expect(before.sup.amount - after.sup.amount).toBe(2700);
  });

  it("top-ups go to the account the customer names, through the supplier's fulfilment", async () => {
    const c = await login(t, shop);
    const noAccount = await t.call("POST", "/api/mall/shop/checkout", {
      headers: c.headers,
      body: { lines: [{ kind: "goods", id: ids.topupSelf, quantity: 1 }], payMethod: "wallet", requestKey: key() },
      lang: "en",
    });
    expect([noAccount.status, noAccount.body.msg]).toEqual([400, "Please enter the account to top up"]);
    const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
      headers: c.headers,
      body: {
        lines: [{ kind: "goods", id: ids.topupSelf, quantity: 1 }],
        payMethod: "wallet",
        topUpAccount: "13800001111",
        requestKey: key(),
      },
    });
    expect(paid.body.data).toMatchObject({ state: "delivering", topUpAccount: "13800001111" });
    const supplied = await t.call<{ list: { id: string; orderNo: string }[] }>(
      "GET",
      "/api/card-brander/supplyOrders?state=processing",
      { token: shop.supplier.token },
    );
    const po = supplied.body.data.list.find((x) => x.orderNo.startsWith("MALLD"));
    expect(po).toBeDefined();
    const done = await t.call("PUT", `/api/card-brander/supplyOrders/${po?.id}/fulfil`, {
      token: shop.supplier.token,
      body: { result: "success", upstreamChannelId: "CH-1" },
    });
    expect(done.body.code).toBe(1);
    // The customer's order page follows up the supplier's outcome (so does the job).
    const seen = (await t.call<MallOrder>("GET", `/api/mall/shop/orders/${paid.body.data.id}`, { headers: c.headers }))
      .body.data;
    expect(seen.state).toBe("delivered");
    expect(seen.deliveries[0]).toMatchObject({ kind: "topup", state: "success", account: "13800001111" });
  });

  it("SMS run out: the login code is refused; a private mall needs its code", async () => {
    const s = await newShop(t, { codes: 1 });
    const none = await t.call("POST", "/api/mall/shop/customer/sendSms", {
      headers: s.headers,
      body: { phone: newPhone() },
      lang: "en",
    });
    expect([none.status, none.body.msg]).toEqual([409, "This mall has no SMS left; please contact the merchant"]);
    await t.call("POST", "/api/card-user/mall/sms/packages", {
      token: s.purchaser.token,
      body: { code: "sms1000", requestKey: key() },
    });
    const set = await t.call("PUT", "/api/card-user/mall/settings", {
      token: s.purchaser.token,
      body: { privateCode: "VIP2026", brandTitle: "Star", brandIntro: "Our brand", brandImage: "" },
    });
    expect(set.body.code).toBe(1);
    const sf = await t.call<Storefront>("GET", "/api/mall/shop/storefront", { headers: s.headers });
    expect(sf.body.data).toMatchObject({ locked: true, brand: { title: "Star", intro: "Our brand" } });
    expect((await t.call("GET", "/api/mall/shop/goods", { headers: s.headers })).status).toBe(403);
    expect(
      (await t.call("GET", "/api/mall/shop/goods", { headers: { ...s.headers, "x-mall-code": "VIP2026" } })).body.code,
    ).toBe(1);
  });

  it("the merchant refunds a wallet order once, from its income", async () => {
    const c = await login(t, shop);
    const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
      headers: c.headers,
      body: { lines: [{ kind: "goods", id: ids.cardSelf, quantity: 1 }], payMethod: "wallet", requestKey: key() },
    });
    const before = await balances(shop.purchaser.token);
    const noReason = await t.call("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
      token: shop.purchaser.token,
      body: { reason: "" },
      lang: "tw",
    });
    expect([noReason.status, noReason.body.msg]).toEqual([400, "請輸入退款原因"]);
    const other = await newShop(t, { codes: 1 });
    expect(
      (
        await t.call("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
          token: other.purchaser.token,
          body: { reason: "x" },
        })
      ).status,
    ).toBe(404);
    const r = await t.call<MallOrder>("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
      token: shop.purchaser.token,
      body: { reason: "Customer changed mind" },
    });
    expect(r.body.data).toMatchObject({ state: "refunded", refundReason: "Customer changed mind" });
    expect(
      (
        await t.call("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
          token: shop.purchaser.token,
          body: { reason: "again" },
        })
      ).status,
    ).toBe(409);
    const after = await balances(shop.purchaser.token);
    expect(before.sandboxIncome.amount - after.sandboxIncome.amount).toBe(2990);
    expect(after.income.amount).toBe(before.income.amount);
  });
  it("a card-paid order: paid from the customer's card of the mall's brand, refunded in full back onto it, once", async () => {
    const s = await newShop(t, { codes: 4 });
    const m = await stockMall(t, s);
    // The mall's merchant is the card's brand: it issues cards, a purchaser of its cards gifts one to the customer.
    const product = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
      token: s.purchaser.token,
      body: {
        kind: "face_value",
        name: "Star card 100",
        faceValue: 10_000,
        salePrice: 10_000,
        named: false,
        validity: { kind: "days", days: 1200 },
        rechargeAllowed: false,
        scope: "Star Mall",
        terms: "No cash back",
      },
    });
    expect(product.body.code).toBe(1);
    const batch = await t.call("POST", "/api/card-brander/onecard/batches", {
      token: s.purchaser.token,
      body: { productId: product.body.data.id, count: 1, requestKey: key() },
    });
    expect(batch.body.code).toBe(1);
    const seller = await registerMerchant(t, { orgName: "Card Reseller Co" });
    await dock(t, s.purchaser, seller);
    await fundSup(t, seller, 100_000);
    await t.call("POST", "/api/card-user/onecard/purchase", {
      token: seller.token,
      body: { productId: product.body.data.id, quantity: 1, requestKey: key() },
    });
    const cards = (
      await t.call<{ list: { id: string }[] }>("GET", "/api/card-user/onecard/cards", { token: seller.token })
    ).body.data.list;
    expect(
      (
        await t.call("POST", "/api/card-user/onecard/activate", {
          token: seller.token,
          body: { cardIds: cards.map((c) => c.id), requestKey: key() },
        })
      ).body.code,
    ).toBe(1);
    const c = await login(t, s);
    const gift = await t.call<{ id: string }>("POST", "/api/card-user/onecard/gifts", {
      token: seller.token,
      body: { cardIds: cards.map((x) => x.id), phone: c.phone, requestKey: key() },
    });
    const claimed = await t.call("POST", `/api/mall/onecard/gifts/${gift.body.data.id}/claim`, {
      headers: { "x-customer-token": c.headers["x-customer-token"] ?? "" },
    });
    expect(claimed.body.code).toBe(1);
    const usable = await t.call<{ id: string; balance: { amount: number } }[]>("GET", "/api/mall/shop/cards", {
      headers: c.headers,
    });
    expect(usable.body.data).toHaveLength(1);
    const cardId = usable.body.data[0]?.id ?? "";
    expect(usable.body.data[0]?.balance.amount).toBe(10_000);

    const before = await balances(s.purchaser.token);
    const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
      headers: c.headers,
      body: { lines: [{ kind: "goods", id: m.cardSelf, quantity: 1 }], payMethod: "card", cardId, requestKey: key() },
    });
    expect(paid.body.data).toMatchObject({ state: "delivered", payMethod: "card", amount: { amount: 2990 } });
    const cardBalance = async () =>
      (
        await t.call<{ id: string; balance: { amount: number } }[]>("GET", "/api/mall/shop/cards", {
          headers: c.headers,
        })
      ).body.data[0]?.balance.amount;
    expect(await cardBalance()).toBe(10_000 - 2990);
    // A card payment moves no ledger money (the brand was paid at activation): income unchanged.
    expect((await balances(s.purchaser.token)).income.amount).toBe(before.income.amount);
    const tooMuch = await t.call("POST", "/api/mall/shop/checkout", {
      headers: c.headers,
      body: { lines: [{ kind: "goods", id: m.cardSelf, quantity: 3 }], payMethod: "card", cardId, requestKey: key() },
      lang: "en",
    });
    expect([tooMuch.status, tooMuch.body.msg]).toEqual([409, "Insufficient card balance"]);

    const refundKey = key();
    const other = await newShop(t, { codes: 1 });
    expect(
      (
        await t.call("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
          token: other.purchaser.token,
          body: { reason: "x", requestKey: refundKey },
        })
      ).status,
    ).toBe(404);
    const r = await t.call<MallOrder>("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
      token: s.purchaser.token,
      body: { reason: "Out of stock at the brand", requestKey: refundKey },
    });
    expect(r.body.data).toMatchObject({ state: "refunded", refundReason: "Out of stock at the brand" });
    expect(await cardBalance()).toBe(10_000);
    // A refunded order's codes leave the card bag.
    const bag = await t.call<{ list: MallBagCode[] }>("GET", "/api/mall/codes", {
      headers: { "x-customer-token": c.headers["x-customer-token"] ?? "" },
    });
    expect(bag.body.data.list.filter((x) => x.orderId === paid.body.data.id)).toEqual([]);
    // The same key again: the same refunded order, nothing changed; another request is refused.
    const replay = await t.call<MallOrder>("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
      token: s.purchaser.token,
      body: { reason: "Out of stock at the brand", requestKey: refundKey },
    });
    expect([replay.status, replay.body.data.state, replay.body.data.refundedAt]).toEqual([
      200,
      "refunded",
      r.body.data.refundedAt,
    ]);
    expect(
      (
        await t.call("POST", `/api/card-user/mall/orders/${paid.body.data.id}/refund`, {
          token: s.purchaser.token,
          body: { reason: "again", requestKey: key() },
        })
      ).status,
    ).toBe(409);
    expect(await cardBalance()).toBe(10_000);
    expect((await balances(s.purchaser.token)).income.amount).toBe(before.income.amount);
    // onecard's credit never gives back more than the debit it reverses.
    const over = withTx(t.ctx.database.db, (tx) =>
      creditCard(
        tx,
        { cardId: Number(cardId), amount: 2991, requestKey: key(), debitKey: `mall:${paid.body.data.id}`, note: "" },
        new Date(),
      ),
    );
    await expect(over).rejects.toMatchObject({ messageKey: "onecard.refundExceeds" });
    // The card's moves: the payment and its refund, once each.
    const moves = await t.ctx.database.db
      .selectFrom("onecard_moves")
      .select(["kind", "amount"])
      .where("card_id", "=", Number(cardId))
      .orderBy("id")
      .execute();
    expect(moves.map((x) => [x.kind, Number(x.amount)])).toEqual([
      ["activate", 10_000],
      ["redeem", -2990],
      ["refund", 2990],
    ]);
  });
});
