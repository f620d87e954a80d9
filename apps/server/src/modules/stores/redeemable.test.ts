import type { DynamicCodeReply, GoodsStoresReply, Redemption, WriteOffPreview } from "@tessera/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { invariantProblems } from "../onecard";
import { cardInBagOf, clerkOf, cust, customerOf, storeOf } from "../../../test/kit/redeem-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/** Per-goods store restrictions and customers' dynamic codes (issue 27's remaining write-off parts). */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  expect(await invariantProblems(t.ctx.database.db)).toEqual([]);
});

let seq = 0;
const key = () => `rd-${Date.now()}-${++seq}`;
const addStore = (m: TestMerchant, name: string) => storeOf(t, m, name);
const clerkAt = (owner: TestMerchant, storeId: string) => clerkOf(t, owner, storeId);
const customerLogin = (phone: string) => customerOf(t, phone);
const cardInBag = (name: string, phone: string) => cardInBagOf(t, name, phone);
const redeem = (token: string, body: Record<string, unknown>, lang: "cn" | "tw" | "en" = "en") =>
  t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
    token,
    body: { requestKey: key(), ...body },
    lang,
  });

describe("redeemable stores of a goods", () => {
  it("limits a goods' codes to listed stores: redeemed there, refused elsewhere with the reason, verify agrees; another brand can neither read nor set", async () => {
    const brand = await newMerchant(t, "Limit Brand");
    const b = await newBrand(t, brand, "Limit");
    const goods = await newGoods(t, brand, b.id, {
      name: "Cake voucher",
      businessType: "card_voucher",
      faceValue: 3000,
      price: 2500,
    });
    const csv = cardCsv(["LIM0001,A1,", "LIM0002,A2,"]);
    expect((await importFile(t, brand.token, goods.id, "l.csv", csv)).body.code).toBe(1);
    const { buyer } = await dock(t, brand);
    await fundSup(t, buyer, 100_000);
    const order = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 2, orderNo: `PO${Date.now()}` },
    });
    expect(order.body.code).toBe(1);
    const listed = await t.call<{ list: { id: string }[] }>(
      "GET",
      `/api/card-user/purchasedCards?orderId=${order.body.data.id}`,
      { token: buyer.token },
    );
    const [first, second] = (
      await t.call<{ cardNumber: string; cardSecret: string }[]>("POST", "/api/card-user/purchasedCards/reveal", {
        token: buyer.token,
        body: { ids: listed.body.data.list.map((c) => c.id) },
      })
    ).body.data;
    if (!first || !second) throw new Error("no codes");

    const north = await addStore(brand, "North store");
    const south = await addStore(brand, "South store");
    const northClerk = await clerkAt(brand, north.id);
    const southClerk = await clerkAt(brand, south.id);
    const url = `/api/card-brander/product/${goods.id}/stores`;
    const verify = async (storeId: string) =>
      (
        await t.call<{ redeemable: boolean; reason: string | null }>(
          "GET",
          `/api/card-brander/product/shop/verify?storeId=${storeId}&goodsId=${goods.id}`,
          { token: brand.token, lang: "en" },
        )
      ).body.data;

    // Default: every store.
    expect((await t.call<GoodsStoresReply>("GET", url, { token: brand.token })).body.data).toEqual({
      goodsId: String(goods.id),
      all: true,
      stores: [],
    });
    expect(await verify(south.id)).toEqual({ redeemable: true, reason: null });

    // Bad input and other brands change nothing.
    const none = await t.call("PUT", url, { token: brand.token, body: { all: false, storeIds: [] }, lang: "en" });
    expect([none.status, none.body.msg]).toEqual([400, "Please choose at least one store"]);
    const rival = await newMerchant(t, "Limit Rival");
    const rivalStore = await addStore(rival, "Rival store");
    const foreignStore = await t.call("PUT", url, {
      token: brand.token,
      body: { all: false, storeIds: [north.id, rivalStore.id] },
      lang: "en",
    });
    expect([foreignStore.status, foreignStore.body.msg]).toEqual([404, "The store does not exist or is not yours"]);
    const rivalSets = await t.call("PUT", url, {
      token: rival.token,
      body: { all: false, storeIds: [rivalStore.id] },
      lang: "en",
    });
    expect([rivalSets.status, rivalSets.body.msg]).toEqual([404, "The goods does not exist"]);
    const rivalReads = await t.call("GET", url, { token: rival.token, lang: "cn" });
    expect([rivalReads.status, rivalReads.body.msg]).toEqual([404, "商品不存在"]);
    expect((await t.call<GoodsStoresReply>("GET", url, { token: brand.token })).body.data.all).toBe(true);

    const set = await t.call<GoodsStoresReply>("PUT", url, {
      token: brand.token,
      body: { all: false, storeIds: [north.id, north.id] },
    });
    expect(set.body.data).toEqual({
      goodsId: String(goods.id),
      all: false,
      stores: [{ id: north.id, name: "North store" }],
    });
    expect(await verify(north.id)).toEqual({ redeemable: true, reason: null });
    expect(await verify(south.id)).toEqual({ redeemable: false, reason: "Not valid at this store" });

    // Refused at the other store, in three languages, and the code stays unredeemed.
    const check = await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
      token: southClerk,
      body: { kind: "coupon", code: first.cardNumber, secret: first.cardSecret },
      lang: "tw",
    });
    expect([check.status, check.body.msg]).toEqual([403, "該商品不能在本門店使用"]);
    const refused = await redeem(
      southClerk,
      { kind: "coupon", code: first.cardNumber, secret: first.cardSecret },
      "cn",
    );
    expect([refused.status, refused.body.msg]).toEqual([403, "该商品不能在本门店使用"]);
    const byOwner = await redeem(brand.token, {
      kind: "coupon",
      code: first.cardNumber,
      secret: first.cardSecret,
      storeId: south.id,
    });
    expect(byOwner.body.msg).toBe("Not valid at this store");
    const hy = await t.call<{ total: number }>("GET", "/api/card-brander/hyAccounts", { token: brand.token });
    expect(hy.body.data.total).toBe(0);

    const ok = await redeem(northClerk, { kind: "coupon", code: first.cardNumber, secret: first.cardSecret });
    expect(ok.body.data).toMatchObject({ kind: "coupon", storeName: "North store", value: { amount: 3000 } });

    // Lifting the limit makes every store valid again.
    const all = await t.call<GoodsStoresReply>("PUT", url, { token: brand.token, body: { all: true, storeIds: [] } });
    expect(all.body.data.all).toBe(true);
    expect(await verify(south.id)).toEqual({ redeemable: true, reason: null });
    expect(
      (await redeem(southClerk, { kind: "coupon", code: second.cardNumber, secret: second.cardSecret })).body.data
        .storeName,
    ).toBe("South store");
  });
});

describe("customer dynamic codes", () => {
  it("a clerk redeems an amount with the customer's dynamic code once; expired, used, unknown and another brand's codes are refused", async () => {
    const { brand, cardId, customer } = await cardInBag("Dyn Brand", "13800138101");
    const store = await addStore(brand, "Dyn store");
    const clerk = await clerkAt(brand, store.id);
    const issue = (id = cardId, token = customer) =>
      t.call<DynamicCodeReply>("POST", `/api/mall/onecard/cards/${id}/dynamicCode`, { headers: cust(token) });

    const code = (await issue()).body.data;
    expect(code.code).toMatch(/^\d{18}$/);
    expect(code.ttlSeconds).toBe(60);
    expect(new Date(code.expiresAt).getTime() - t.clock.now().getTime()).toBe(60_000);
    // Only the card's holder, with a customer token.
    expect((await t.call("POST", `/api/mall/onecard/cards/${cardId}/dynamicCode`, {})).body.code).toBe(1007);
    const stranger = await customerLogin("13800138102");
    expect((await issue(cardId, stranger)).status).toBe(404);

    const preview = await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
      token: clerk,
      body: { kind: "dynamic", code: code.code },
    });
    expect(preview.body.data).toMatchObject({
      kind: "onecard",
      itemName: "Dyn Brand card",
      value: { amount: 10_000 },
      storeName: "Dyn store",
    });
    const noAmount = await redeem(clerk, { kind: "dynamic", code: code.code });
    expect(noAmount.body.msg).toBe("Please enter the amount to take off the card");
    const missingSecret = await redeem(clerk, { kind: "onecard", code: "12345", amount: 100 });
    expect([missingSecret.status, missingSecret.body.msg]).toEqual([400, "Please enter the secret or password"]);
    const unknown = await redeem(clerk, { kind: "dynamic", code: "123456789012345678", amount: 100 }, "tw");
    expect([unknown.status, unknown.body.msg]).toEqual([404, "動態碼不正確"]);

    const k = key();
    const first = await redeem(clerk, { kind: "dynamic", code: code.code, amount: 3_000, requestKey: k });
    expect(first.body.data).toMatchObject({ kind: "onecard", value: { amount: 3_000 }, storeName: "Dyn store" });
    // A retry after a lost reply answers with the same redemption; a new request is refused.
    expect((await redeem(clerk, { kind: "dynamic", code: code.code, amount: 3_000, requestKey: k })).body.data.id).toBe(
      first.body.data.id,
    );
    const used = await redeem(clerk, { kind: "dynamic", code: code.code, amount: 3_000 }, "cn");
    expect([used.status, used.body.msg]).toEqual([409, "该动态码已使用"]);
    const bag = await t.call<{ cards: { id: string; balance: { amount: number } }[] }>("GET", "/api/mall/onecard/bag", {
      headers: cust(customer),
    });
    expect(bag.body.data.cards.find((c) => c.id === cardId)?.balance.amount).toBe(7_000);
    // The card bag's 变动 names the store, not its id.
    const moves = await t.call<{ list: { kind: string; note: string }[] }>("GET", "/api/mall/onecard/moves", {
      headers: cust(customer),
    });
    expect(moves.body.data.list[0]).toMatchObject({ kind: "redeem", note: "Dyn store" });

    // Expired after 60 s; nothing changes.
    const late = (await issue()).body.data;
    t.clock.advance(61);
    const expired = await redeem(clerk, { kind: "dynamic", code: late.code, amount: 1_000 });
    expect([expired.status, expired.body.msg]).toEqual([
      409,
      "The dynamic code has expired; ask the customer to refresh it",
    ]);
    // A newer code retires the one shown before it.
    const older = (await issue()).body.data;
    const newer = (await issue()).body.data;
    expect((await redeem(clerk, { kind: "dynamic", code: older.code, amount: 1_000 })).body.msg).toBe(
      "The dynamic code has expired; ask the customer to refresh it",
    );

    // Another brand's store refuses this brand's card, and the code stays usable at this brand.
    const rival = await newMerchant(t, "Dyn Rival");
    const rivalStore = await addStore(rival, "Rival dyn store");
    const rivalClerk = await clerkAt(rival, rivalStore.id);
    const foreign = await redeem(rivalClerk, { kind: "dynamic", code: newer.code, amount: 1_000 });
    expect([foreign.status, foreign.body.msg]).toEqual([403, "This code cannot be redeemed at this store"]);
    const foreignCheck = await t.call("POST", "/api/card-brander/writeOff/check", {
      token: rivalClerk,
      body: { kind: "dynamic", code: newer.code },
      lang: "en",
    });
    expect(foreignCheck.status).toBe(403);
    expect((await redeem(clerk, { kind: "dynamic", code: newer.code, amount: 1_000 })).body.data.value.amount).toBe(
      1_000,
    );
    const after = await t.call<{ cards: { id: string; balance: { amount: number } }[] }>(
      "GET",
      "/api/mall/onecard/bag",
      { headers: cust(customer) },
    );
    expect(after.body.data.cards.find((c) => c.id === cardId)?.balance.amount).toBe(6_000);
  });
});
