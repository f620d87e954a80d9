import type { MallTesters, Storefront, StoreGoods } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { login, newPhone, newShop, stockMall, type Shop } from "../../../test/kit/mall-fixtures";

/**
 * The experience (beta) version of a mall is for the merchant's named testers (issue 37): a mall that never
 * passed review must not sell to the public because a page asked for `x-mall-version: beta`.
 */
const t = useTestApp();
let shop: Shop;
beforeAll(async () => {
  shop = await newShop(t, { codes: 2 });
  await stockMall(t, shop);
});

const beta = (headers: Record<string, string>) => ({ ...headers, "x-mall-version": "beta" });
const betaShop = (): Shop => ({ ...shop, headers: beta(shop.headers) });
/** The shop's mall as committed but never released: its only version is the experience one. */
const unrelease = () =>
  t.ctx.database.db.updateTable("mp_versions").set({ state: "trial" }).where("app_id", "=", shop.appId).execute();

describe("the experience version", () => {
  it("is served to the merchant's testers only; others get the login and a clear refusal", async () => {
    await unrelease();
    const visitor = await t.call<Storefront>("GET", "/api/mall/shop/storefront", {
      headers: beta({ v: "1", "x-app-id": shop.appId }),
    });
    expect(visitor.body.data).toMatchObject({ name: "Star Mall", testersOnly: true });
    const goods = await t.call("GET", "/api/mall/shop/goods", { headers: beta(shop.headers), lang: "en" });
    expect(goods.status).toBe(403);
    expect(goods.body.msg).toBe("This mall is not released yet: only the merchant's testers may open it");

    // A signed-in customer who is not a tester is refused too, checkout included.
    const stranger = await login(t, betaShop());
    expect((await t.call("GET", "/api/mall/shop/goods", { headers: beta(stranger.headers) })).status).toBe(403);
    const checkout = await t.call("POST", "/api/mall/shop/checkout", {
      headers: beta(stranger.headers),
      body: { lines: [], payMethod: "wallet", requestKey: "k1" },
    });
    expect(checkout.status).toBeGreaterThanOrEqual(400);
    expect(checkout.status).toBeLessThan(500);

    // The merchant names a tester; that customer sees the mall.
    const phone = newPhone();
    const saved = await t.call<MallTesters>("PUT", "/api/card-user/mall/testers", {
      token: shop.purchaser.token,
      body: { phones: [phone, phone] },
    });
    expect(saved.body.data.phones).toEqual([phone]);
    const tester = await login(t, betaShop(), phone);
    const sf = await t.call<Storefront>("GET", "/api/mall/shop/storefront", { headers: beta(tester.headers) });
    expect(sf.body.data.testersOnly).toBe(false);
    const list = await t.call<{ list: StoreGoods[] }>("GET", "/api/mall/shop/goods", { headers: beta(tester.headers) });
    expect(list.status).toBe(200);
    expect(list.body.data.list.length).toBeGreaterThan(0);
  });

  it("testers are the merchant's own, validated, and another merchant cannot read them", async () => {
    const bad = await t.call("PUT", "/api/card-user/mall/testers", {
      token: shop.purchaser.token,
      body: { phones: ["1381234"] },
      lang: "en",
    });
    expect(bad.status).toBe(400);
    expect(
      (await t.call<MallTesters>("GET", "/api/card-user/mall/testers", { token: shop.supplier.token })).body.data
        .phones,
    ).toEqual([]);
  });
});
