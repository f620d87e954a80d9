import type { CardsElsewhere, MallBagCode, MallOrder, WriteOffPreview } from "@tessera/contracts";
import { expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { importFile, newGoods } from "../../../test/kit/catalog-fixtures";
import { cardInBagOf, clerkOf, storeOf } from "../../../test/kit/redeem-fixtures";
import { key, login, newPhone, newShop } from "../../../test/kit/mall-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/**
 * Issue 40, items 6 and 7, as a first-time customer meets them.
 *
 * Item 6: a store voucher bought in a mall gift pack (the pack valid 30 days, the voucher itself
 * until 2027-12-31). The customer's order and card bag show the date the clerk's screen shows, and once a
 * clerk redeems it, both say it was used.
 */
const t = useTestApp();

it("a mall voucher shows the clerk's expiry, and shows as used once a store redeems it", async () => {
  const shop = await newShop(t, { codes: 1 });
  const goods = await newGoods(t, shop.supplier, shop.brand.id, {
    name: "State coffee voucher",
    businessType: "card_voucher",
    faceValue: 3000,
    price: 2500,
    settlementPrice: 2000,
    perOrderMax: 5,
  });
  const number = `MVU${Date.now().toString(36).toUpperCase()}`;
  const csv = cardCsv([`${number},MVU-SECRET,2027-12-31`]);
  expect((await importFile(t, shop.supplier.token, goods.id, "vouchers.csv", csv)).body.code).toBe(1);
  const self = await t.call<{ id: string }>("POST", "/api/card-user/mall/selfGoods", {
    token: shop.purchaser.token,
    body: { goodsId: String(goods.id), price: 2990 },
  });
  expect(self.body.code).toBe(1);
  const bag = await t.call<{ id: string }>("POST", "/api/card-user/mall/giftBags", {
    token: shop.purchaser.token,
    body: {
      name: "Coffee month",
      price: 2990,
      stock: 5,
      validDays: 30,
      items: [{ selfGoodsId: self.body.data.id, quantity: 1 }],
    },
  });
  expect(bag.body.code).toBe(1);
  const sms = await t.call("POST", "/api/card-user/mall/sms/packages", {
    token: shop.purchaser.token,
    body: { code: "sms1000", requestKey: key() },
  });
  expect(sms.body.code).toBe(1);

  const customer = await login(t, shop);
  const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
    headers: customer.headers,
    body: { lines: [{ kind: "bag", id: bag.body.data.id, quantity: 1 }], payMethod: "wallet", requestKey: key() },
  });
  expect(paid.body.code).toBe(1);
  const delivered = paid.body.data.deliveries[0];
  expect(delivered).toMatchObject({ cardNumber: number, usedAt: null });

  const clerk = await clerkOf(t, shop.supplier, (await storeOf(t, shop.supplier, "State voucher store")).id);
  const look = await t.call<WriteOffPreview>("POST", "/api/card-brander/writeOff/check", {
    token: clerk,
    body: { kind: "coupon", code: number, secret: "MVU-SECRET" },
  });
  expect(look.body.code).toBe(1);
  // The same day on both screens: the voucher's own last day (23:59:59 in the platform's zone).
  expect(look.body.data.expiresOn?.slice(0, 10)).toBe("2027-12-31");
  expect(delivered?.expiresAt).toBe("2027-12-31T15:59:59.000Z");
  const codes = async () =>
    (await t.call<{ list: MallBagCode[] }>("GET", "/api/mall/codes", { headers: customer.headers })).body.data.list;
  expect((await codes()).find((c) => c.orderId === paid.body.data.id)).toMatchObject({
    expiresAt: "2027-12-31T15:59:59.000Z",
    usedAt: null,
  });

  const redeemed = await t.call("POST", "/api/card-brander/writeOff/redeem", {
    token: clerk,
    body: { kind: "coupon", code: number, secret: "MVU-SECRET", requestKey: key() },
  });
  expect(redeemed.body.code).toBe(1);
  const order = await t.call<MallOrder>("GET", `/api/mall/shop/orders/${paid.body.data.id}`, {
    headers: customer.headers,
  });
  expect(order.body.data.deliveries[0]?.usedAt).toEqual(expect.any(String));
  expect((await codes()).find((c) => c.orderId === paid.body.data.id)?.usedAt).toEqual(expect.any(String));
});

it("a mall that cannot take the customer's cards says which cards they hold and where those pay", async () => {
  const shop = await newShop(t, { codes: 1 });
  // A customer of the brand Chenguang (a card in their bag) opens this shop, which is not Chenguang's.
  const held = await cardInBagOf(t, "Chenguang", newPhone());
  const customer = { headers: { ...shop.headers, "x-customer-token": held.customer } };
  const usable = await t.call<unknown[]>("GET", "/api/mall/shop/cards", { headers: customer.headers });
  expect(usable.body.data).toEqual([]);
  const elsewhere = await t.call<CardsElsewhere[]>("GET", "/api/mall/shop/cards/elsewhere", {
    headers: customer.headers,
  });
  expect(elsewhere.body.data).toHaveLength(1);
  expect(elsewhere.body.data[0]?.brandName).toContain("Chenguang");
  expect(elsewhere.body.data[0]).toMatchObject({ cards: 1, balance: { amount: 10_000, currency: "CNY" } });
});
