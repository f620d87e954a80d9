import type { Brand, MallOrder, PurchaseOrder } from "@tessera/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { key, login, newShop, stockMall } from "../../../test/kit/mall-fixtures";
import { checkInvariants } from "../ledger";

/**
 * A top-up's account is checked against its goods' account type before any money moves (issue 40, item 4):
 * a purchaser's order and a mall checkout refuse "1381234" for a mobile top-up with nothing changed, and
 * take a real number. (The open API: openapi.test.ts; a card-paid equity: onecard.test.ts.)
 */
const t = useTestApp();
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  supplier = await newMerchant(t, "Top-up Supplier Co");
  brand = await newBrand(t, supplier, "Tele Top-ups");
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

let seq = 0;
const orderNo = () => `TUA${Date.now()}${++seq}`;
const supOf = async (token: string) =>
  (await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", { token })).body.data
    .balances.sup.amount;
const ordersOf = async (purchaserId: string) =>
  (
    await t.ctx.database.db
      .selectFrom("purchase_orders")
      .select("id")
      .where("purchaser_merchant_id", "=", Number(purchaserId))
      .execute()
  ).length;

describe("a purchaser's top-up order", () => {
  it("refuses an account its goods' type cannot take, in three languages, with nothing spent", async () => {
    const mobile = await newGoods(t, supplier, brand.id, {
      name: "Mobile top-up 30",
      businessType: "top_up",
      faceValue: 3_000,
      price: 2_900,
      settlementPrice: 2_800,
      topUpAccountType: "mobile",
    });
    const qq = await newGoods(t, supplier, brand.id, {
      name: "QQ coins 10",
      businessType: "top_up",
      faceValue: 1_000,
      price: 950,
      settlementPrice: 900,
      topUpAccountType: "qq",
    });
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 20_000);
    const order = (goodsId: number, topUpAccount: string, lang: "cn" | "tw" | "en" = "en") =>
      t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goodsId), quantity: 1, topUpAccount, orderNo: orderNo() },
        lang,
      });
    for (const [lang, msg] of [
      ["cn", "请输入正确的11位手机号"],
      ["tw", "請輸入正確的11位手機號"],
      ["en", "Enter a valid 11-digit mobile number"],
    ] as const) {
      const res = await order(mobile.id, "1381234", lang);
      expect([res.status, res.body.msg]).toEqual([400, msg]);
    }
    for (const bad of ["23812345678", "138123456789", "1381234567a"]) {
      expect((await order(mobile.id, bad)).status).toBe(400);
    }
    for (const bad of ["1234", "012345", "123456789012"]) {
      const res = await order(qq.id, bad);
      expect([res.status, res.body.msg]).toEqual([400, "Enter a valid QQ number (5-11 digits, not starting with 0)"]);
    }
    expect(await supOf(buyer.token)).toBe(20_000);
    expect(await ordersOf(buyer.merchantId)).toBe(0);

    const a = await order(mobile.id, "13812345678");
    expect(a.body.data).toMatchObject({ state: "processing", topUpAccount: "13812345678" });
    const b = await order(qq.id, "10001");
    expect(b.body.data).toMatchObject({ state: "processing", topUpAccount: "10001" });
    expect(await supOf(buyer.token)).toBe(20_000 - 2_900 - 950);
  });
});

describe("a mall checkout with a top-up", () => {
  it("refuses the account before the customer pays or anything is bought; a good one is ordered", async () => {
    const shop = await newShop(t, { codes: 4 });
    await t.ctx.database.db
      .updateTable("catalog_goods")
      .set({ top_up_account_type: "mobile" })
      .where("id", "=", shop.topupGoodsId)
      .execute();
    const ids = await stockMall(t, shop);
    const c = await login(t, shop);
    // The storefront tells the cart which account the top-up takes, so its form checks the same rule.
    const listed = await t.call<{ list: { id: string; topUpAccountType: string }[] }>("GET", "/api/mall/shop/goods", {
      headers: c.headers,
    });
    expect(listed.body.data.list.find((g) => g.id === ids.topupSelf)?.topUpAccountType).toBe("mobile");
    expect(listed.body.data.list.find((g) => g.id === ids.cardSelf)?.topUpAccountType).toBe("none");
    const supBefore = await supOf(shop.purchaser.token);
    const ordersBefore = await ordersOf(shop.purchaser.merchantId);
    const checkout = (topUpAccount: string, lang: "cn" | "en" = "en") =>
      t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
        headers: c.headers,
        body: {
          // A card-secret line too: the merchant holds none, so a checkout that went on would buy it.
          lines: [
            { kind: "goods", id: ids.cardSelf, quantity: 1 },
            { kind: "goods", id: ids.topupSelf, quantity: 1 },
          ],
          payMethod: "wallet",
          topUpAccount,
          requestKey: key(),
        },
        lang,
      });
    const refused = await checkout("1381234");
    expect([refused.status, refused.body.msg]).toEqual([400, "Enter a valid 11-digit mobile number"]);
    expect((await checkout("1381234", "cn")).body.msg).toBe("请输入正确的11位手机号");
    const customerOrders = await t.ctx.database.db
      .selectFrom("mall_orders")
      .select("id")
      .where("merchant_id", "=", Number(shop.purchaser.merchantId))
      .execute();
    expect(customerOrders).toEqual([]);
    expect(await supOf(shop.purchaser.token)).toBe(supBefore);
    expect(await ordersOf(shop.purchaser.merchantId)).toBe(ordersBefore);

    const paid = await checkout("13800001111");
    expect(paid.body.data).toMatchObject({ state: "delivering", topUpAccount: "13800001111" });
  });
});
