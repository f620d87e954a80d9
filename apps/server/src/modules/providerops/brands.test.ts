import type { ServedBrand } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { newBrand, newGoods } from "../../../test/kit/catalog-fixtures";

const t = useTestApp();

async function provider(ops: { token: string }, orgName: string) {
  const p = await registerMerchant(t, { orgName });
  await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, { token: ops.token, body: { grant: true } });
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: p.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  return { ...p, token: login.body.data.token };
}

describe("brandManagement: the served brands' states and bindings", () => {
  it("gives each brand its state (on sale, off sale, no goods) and the brand binding it is served by, since when", async () => {
    const ops = await registerOperator(t);
    const mine = await provider(ops, "Brands Provider");
    const theirs = await provider(ops, "Other Brands Provider");
    const owner = await registerMerchant(t, { orgName: "Brand Owner" });
    const vendorOnly = await registerMerchant(t, { orgName: "Vendor Only" });
    const bind = async (who: typeof owner, providerId: string, kind: "brand" | "vendor") =>
      expect(
        (await t.call("POST", "/api/card-servicer/brander/service", { token: who.token, body: { providerId, kind } }))
          .body,
      ).toMatchObject({ code: 1 });
    const before = t.clock.now();
    await bind(owner, mine.merchantId, "brand");
    // A merchant served as a purchaser only: its brands are not the provider's to manage.
    await bind(vendorOnly, mine.merchantId, "vendor");
    await newBrand(t, vendorOnly, "Vendor's own brand");

    const selling = await newBrand(t, owner, "Selling brand");
    await newGoods(t, owner, selling.id, {
      name: "Top-up",
      price: 5_000,
      settlementPrice: 4_500,
      businessType: "top_up",
      faceValue: 5_000,
    });
    const offSale = await newBrand(t, owner, "Sold-out brand");
    // Goods the owner disabled are not on sale.
    const disabled = await newGoods(t, owner, offSale.id, { name: "Disabled", price: 5_000, settlementPrice: 4_500 });
    expect(
      (
        await t.call("PUT", `/api/card-brander/product/${disabled.id}/state`, {
          token: owner.token,
          body: { state: "disabled" },
        })
      ).body,
    ).toMatchObject({ code: 1 });
    await newBrand(t, owner, "Empty brand");

    const brands = (await t.call<ServedBrand[]>("GET", "/api/card-servicer/ops/brands", { token: mine.token })).body
      .data;
    expect(brands.map((b) => [b.name, b.goods, b.onSale, b.state, b.binding.kind])).toEqual([
      ["Selling brand", 1, 1, "on_sale", "brand"],
      ["Sold-out brand", 1, 0, "off_sale", "brand"],
      ["Empty brand", 0, 0, "no_goods", "brand"],
    ]);
    for (const b of brands) {
      expect(new Date(b.binding.since).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(new Date(b.binding.since).getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    }
    // Another provider serves none of them.
    expect(
      (await t.call<ServedBrand[]>("GET", "/api/card-servicer/ops/brands", { token: theirs.token })).body.data,
    ).toEqual([]);
  });
});
