import type { BrandAuth, OcProduct, Page } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { newMerchant } from "../../../test/kit/catalog-fixtures";

/**
 * The brand-context pages of a service provider (FaceValueCardP, DiscountCardP, BrandAuthorizationP):
 * the brand's card products (the one-card module's) and brand authorisations, read and changed with a brand token (spec 01 §6)
 * that works only inside its brand.
 */
const t = useTestApp();
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

async function providerWithBrand(brandName: string) {
  const provider = await registerMerchant(t, { orgName: `${brandName} Services` });
  await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
    token: ops.token,
    body: { grant: true },
  });
  const brand = await newMerchant(t, brandName);
  const bound = await t.call<{ id: string }>("POST", "/api/card-servicer/brander/service", {
    token: brand.token,
    body: { providerId: provider.merchantId, kind: "brand" },
  });
  const exchanged = await t.call<{ token: string; branderId: string }>(
    "POST",
    `/api/card-servicer/brander/${bound.body.data.id}/token`,
    { token: provider.token },
  );
  expect(exchanged.body.data.branderId).toBe(brand.merchantId);
  return { provider, brand, brandToken: exchanged.body.data.token };
}

const cards = (token: string, qs: string) =>
  t.call<Page<OcProduct>>("GET", `/api/card-brander/cardProducts?${qs}`, { token, lang: "en" });
const names = (r: { body: { data: Page<OcProduct> } }) => r.body.data.list.map((g) => g.name).sort();

/** A card product of the brand (the one-card module's), optionally taken off sale. */
async function cardProduct(
  m: { token: string },
  name: string,
  faceValue: number,
  salePrice: number,
  onSale = true,
): Promise<OcProduct> {
  const kind = salePrice === faceValue ? "face_value" : "discount";
  const res = await t.call<OcProduct>("POST", "/api/card-brander/onecard/products", {
    token: m.token,
    body: { kind, name, faceValue, salePrice, named: true, validity: { kind: "none" }, rechargeAllowed: true },
  });
  if (res.body.code !== 1) throw new Error(`card product: ${res.body.msg}`);
  if (!onSale) {
    await t.call("PUT", `/api/card-brander/onecard/products/${res.body.data.id}/onSale`, {
      token: m.token,
      body: { onSale: false },
    });
  }
  return res.body.data;
}

describe("card products (FaceValueCardP, DiscountCardP)", () => {
  it("lists the brand's face value and discount cards with the brand token, filtered and paged; nothing of another brand", async () => {
    const { provider, brand, brandToken } = await providerWithBrand("Lumen Cards");
    await cardProduct(brand, "Lumen gift card 100", 10000, 10000);
    await cardProduct(brand, "Lumen gift card 50", 5000, 5000);
    await cardProduct(brand, "Lumen discount card 100", 10000, 9200);
    await cardProduct(brand, "Lumen old card", 2000, 2000, false);
    const other = await newMerchant(t, "Other Brand");
    await cardProduct(other, "Other gift card", 10000, 10000);

    expect(names(await cards(brandToken, "kind=faceValue"))).toEqual([
      "Lumen gift card 100",
      "Lumen gift card 50",
      "Lumen old card",
    ]);
    expect(names(await cards(brandToken, "kind=discount"))).toEqual(["Lumen discount card 100"]);
    expect(names(await cards(brandToken, "kind=faceValue&keyword=50"))).toEqual(["Lumen gift card 50"]);
    expect(names(await cards(brandToken, "kind=faceValue&onSale=false"))).toEqual(["Lumen old card"]);
    expect((await cards(brandToken, "kind=faceValue&page=2")).body.data).toMatchObject({ list: [], total: 3, page: 2 });
    // The brand sees the same on its own pages; the provider's own session sees its own (none).
    expect(names(await cards(brand.token, "kind=discount"))).toEqual(["Lumen discount card 100"]);
    expect((await cards(provider.token, "kind=faceValue")).body.data.total).toBe(0);
    const bad = await cards(brandToken, "kind=gift");
    expect([bad.status, bad.body.msg]).toEqual([400, "Invalid parameter: kind"]);
  });

  it("a brand token works only inside its brand: other calls refused, and it ends when the brand revokes it", async () => {
    const { brand, brandToken } = await providerWithBrand("North Cards");
    const g = await cardProduct(brand, "North card", 3000, 3000);
    expect(names(await cards(brandToken, "kind=faceValue"))).toEqual(["North card"]);
    // The brand's other pages and calls stay closed to the token.
    for (const url of [
      "/api/card-brander/product/search",
      "/api/card-brander/brander",
      "/api/card-brander/onecard/batches",
      `/api/card-brander/onecard/batches/${g.id}/cards`,
      "/api/card-user/insupply/merchandises",
    ]) {
      expect((await t.call("GET", url, { token: brandToken })).status, url).toBe(403);
    }
    expect(
      (
        await t.call("PUT", `/api/card-brander/onecard/products/${g.id}/onSale`, {
          token: brandToken,
          body: { onSale: false },
        })
      ).status,
    ).toBe(403);
    // Another brand's provider token reads only its own brand.
    const { brandToken: otherToken } = await providerWithBrand("South Cards");
    expect((await cards(otherToken, "kind=faceValue")).body.data.total).toBe(0);

    await t.call("POST", "/api/card-servicer/brander/service/revokeTokens", { token: brand.token });
    expect((await cards(brandToken, "kind=faceValue")).status).toBe(401);
  });
});

describe("brand authorisation inside a brand (BrandAuthorizationP)", () => {
  it("the provider grants and revokes the brand's authorisations with the brand token; they are the brand's", async () => {
    const { provider, brand, brandToken } = await providerWithBrand("Delta Cards");
    const buyer = await registerMerchant(t, { orgName: "Delta Buyer" });
    const granted = await t.call<BrandAuth>("POST", "/api/card-user/brandAuth", {
      token: brandToken,
      body: { granteeId: buyer.merchantId, kind: "purchaser", remark: "via provider" },
    });
    expect(granted.body.data).toMatchObject({ active: true, granteeName: "Delta Buyer" });
    const ofBrand = await t.call<Page<BrandAuth>>("POST", "/api/card-user/brandAuth/list", {
      token: brand.token,
      body: { side: "brand" },
    });
    expect(ofBrand.body.data.list.map((a) => a.id)).toEqual([granted.body.data.id]);
    // Not the provider's own: its own list is empty.
    expect(
      (
        await t.call<Page<BrandAuth>>("POST", "/api/card-user/brandAuth/list", {
          token: provider.token,
          body: { side: "brand" },
        })
      ).body.data.total,
    ).toBe(0);
    const viaToken = await t.call<Page<BrandAuth>>("POST", "/api/card-user/brandAuth/list", {
      token: brandToken,
      body: { side: "brand" },
    });
    expect(viaToken.body.data.total).toBe(1);
    expect(
      (await t.call<BrandAuth>("DELETE", `/api/card-user/brandAuth/${granted.body.data.id}`, { token: brandToken }))
        .body.data.active,
    ).toBe(false);
  });
});
