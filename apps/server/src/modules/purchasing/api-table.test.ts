import type { ApiPurchaseGoods, Page } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { dock, markVerified } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";

/** The API purchase table (marketplace screen 11): the goods a purchaser may buy, as the open API buys them. */
const t = useTestApp();

describe("API purchase table", () => {
  it("lists only what the purchaser may buy, at its own price, with the SKU code; keyword filters", async () => {
    const supplier = await newMerchant(t, "Api Table Supplier");
    const brand = await newBrand(t, supplier, "Api Table Brand");
    const card = await newGoods(t, supplier, brand.id, { name: "Api card 50", price: 4_800, settlementPrice: 4_500 });
    const topUp = await newGoods(t, supplier, brand.id, {
      name: "Api top-up 30",
      businessType: "top_up",
      faceValue: 3_000,
      price: 2_950,
      settlementPrice: 2_900,
    });
    const otherSupplier = await newMerchant(t, "Undocked Supplier");
    const otherBrand = await newBrand(t, otherSupplier, "Undocked Brand");
    await newGoods(t, otherSupplier, otherBrand.id, { name: "Not yours", price: 1_000, settlementPrice: 900 });

    const { buyer } = await dock(t, supplier);
    // The supplier agrees a price of 46.00 for the card goods.
    const applied = await t.call<{ id: string }>("POST", "/api/card-user/purchaseApplications", {
      token: buyer.token,
      body: { goodsId: String(card.id) },
    });
    expect(applied.body.code).toBe(1);
    expect(
      (
        await t.call("PUT", `/api/card-brander/purchaseApplications/${applied.body.data.id}`, {
          token: supplier.token,
          body: { approve: true, price: 4_600 },
        })
      ).body.code,
    ).toBe(1);

    const table = await t.call<Page<ApiPurchaseGoods>>("GET", "/api/card-user/apiPurchase/goods", {
      token: buyer.token,
    });
    expect(table.status).toBe(200);
    expect(table.body.data.total).toBe(2);
    const byId = new Map(table.body.data.list.map((g) => [g.goodsId, g]));
    expect(byId.get(String(card.id))).toMatchObject({
      code: card.code,
      name: "Api card 50",
      brandName: "Api Table Brand",
      fromStock: true,
      price: { amount: 4_600, currency: "CNY" },
      listPrice: { amount: 4_800 },
    });
    expect(byId.get(String(topUp.id))).toMatchObject({ code: topUp.code, fromStock: false, price: { amount: 2_950 } });

    const found = await t.call<Page<ApiPurchaseGoods>>(
      "GET",
      `/api/card-user/apiPurchase/goods?keyword=${encodeURIComponent(topUp.code)}`,
      { token: buyer.token },
    );
    expect(found.body.data.list.map((g) => g.goodsId)).toEqual([String(topUp.id)]);

    // A purchaser docked with nobody may buy nothing here; a supplier account is refused.
    const stranger = await registerMerchant(t);
    await markVerified(t, stranger.merchantId);
    expect(
      (await t.call<Page<ApiPurchaseGoods>>("GET", "/api/card-user/apiPurchase/goods", { token: stranger.token })).body
        .data.total,
    ).toBe(0);
    const bad = await t.call("GET", "/api/card-user/apiPurchase/goods?pageSize=100000", {
      token: buyer.token,
      lang: "en",
    });
    expect(bad.status).toBe(400);
  });
});
