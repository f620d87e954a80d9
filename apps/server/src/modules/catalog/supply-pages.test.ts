import type { Goods, Page, PurchaseOrder, ResaleMerchandise } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { platformDay } from "../../platform/clock";
import { addSubAccount } from "../../../test/kit/onboarding-fixtures";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/** The calls behind business/ResaleGoods, business/CommoditySupply and providers/SuppliedProductsP. */
const t = useTestApp();
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(5, "0")},S${i},`);
let seq = 0;

describe("resale goods (business/ResaleGoods, resale/merchandises)", () => {
  it("lists the goods the merchant bought, with counts, filtered by keyword and purchase days; nobody else's", async () => {
    const supplier = await newMerchant(t, "Resale Source");
    const brand = await newBrand(t, supplier, "Resale Brand");
    const g1 = await newGoods(t, supplier, brand.id, { name: "Resale game card", price: 1000, settlementPrice: 900 });
    const g2 = await newGoods(t, supplier, brand.id, { name: "Resale music card", price: 1000, settlementPrice: 900 });
    await importFile(t, supplier.token, g1.id, "a.csv", csv(5, "RSA"));
    await importFile(t, supplier.token, g2.id, "b.csv", csv(5, "RSB"));
    const { buyer } = await dock(t, supplier, await registerMerchant(t, { orgName: "Reseller Ltd" }));
    await fundSup(t, buyer, 100_000);
    const buy = (goodsId: number, quantity: number) =>
      t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goodsId), quantity, orderNo: `RS${Date.now()}${++seq}` },
      });
    expect((await buy(g1.id, 3)).body.data.state).toBe("success");
    expect((await buy(g2.id, 1)).body.data.state).toBe("success");

    const list = (qs = "", token = buyer.token) =>
      t.call<Page<ResaleMerchandise>>("GET", `/api/card-user/resale/merchandises?pageSize=20${qs}`, { token });
    const all = await list();
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list.map((r) => [r.goods.name, r.bought]).sort()).toEqual([
      ["Resale game card", 3],
      ["Resale music card", 1],
    ]);
    expect(all.body.data.list[0]?.goods).not.toHaveProperty("settlementPrice");
    expect((await list("&keyword=game")).body.data.list.map((r) => r.goods.id)).toEqual([g1.id]);
    expect((await list(`&keyword=${g2.id}`)).body.data.list.map((r) => r.goods.id)).toEqual([g2.id]);
    const today = platformDay(t.clock.now());
    expect((await list(`&from=${today}&to=${today}`)).body.data.total).toBe(2);
    expect((await list("&to=2020-01-01")).body.data.total).toBe(0);
    expect((await list("&page=2")).body.data).toMatchObject({ list: [], total: 2, page: 2 });
    const bad = await t.call("GET", "/api/card-user/resale/merchandises?from=yesterday", {
      token: buyer.token,
      lang: "en",
    });
    expect(bad.status).toBe(400);

    // The supplier and another merchant see none of the buyer's purchases.
    expect((await list("", supplier.token)).body.data.total).toBe(0);
    // A sub-account given only business/ResaleGoods reaches it; one given another page does not.
    const clerk = await addSubAccount(t, buyer.token, ["business/ResaleGoods"]);
    expect((await list("", clerk.token)).body.data.total).toBe(2);
    const other = await addSubAccount(t, buyer.token, ["business/BasicInfo"]);
    expect((await list("", other.token)).status).toBe(403);
  });
});

describe("commodity supply figures (business/CommoditySupply, insupply/merchandises)", () => {
  it("shows stock, sold, voided and expired per goods, for the supplier alone", async () => {
    const supplier = await newMerchant(t, "Figures Supply");
    const brand = await newBrand(t, supplier, "Figures");
    const g = await newGoods(t, supplier, brand.id, { name: "Figures card", price: 1000, settlementPrice: 900 });
    await importFile(t, supplier.token, g.id, "f.csv", csv(6, "FIG"));
    const cards = await t.call<Page<{ id: number }>>(
      "GET",
      `/api/card-brander/sup/merchandises/${g.id}/cards?pageSize=20`,
      { token: supplier.token },
    );
    await t.call("POST", `/api/card-brander/sup/merchandises/${g.id}/cards/void`, {
      token: supplier.token,
      body: { ids: cards.body.data.list.slice(0, 2).map((c) => c.id) },
    });
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(g.id), quantity: 1, orderNo: `FG${Date.now()}` },
    });

    const mine = await t.call<Page<Goods>>(
      "GET",
      `/api/card-user/insupply/merchandises?keyword=${encodeURIComponent("Figures card")}`,
      { token: supplier.token },
    );
    expect(mine.body.data.list.map((r) => [r.stock, r.sold, r.voided, r.expired])).toEqual([[3, 1, 2, 0]]);
    const other = await newMerchant(t, "Nosy Supply");
    expect(
      (await t.call<Page<Goods>>("GET", `/api/card-user/insupply/merchandises?keyword=${g.id}`, { token: other.token }))
        .body.data.total,
    ).toBe(0);
    const clerk = await addSubAccount(t, supplier.token, ["business/CommoditySupply"]);
    expect(
      (await t.call<Page<Goods>>("GET", `/api/card-user/insupply/merchandises?keyword=${g.id}`, { token: clerk.token }))
        .body.data.total,
    ).toBe(1);
  });
});

describe("a provider's view of supplied goods (providers/SuppliedProductsP)", () => {
  async function provider(orgName: string) {
    const p = await registerMerchant(t, { orgName });
    await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, {
      token: ops.token,
      body: { grant: true },
    });
    return p;
  }

  it("lists and filters the goods of a merchant it serves; never of one it does not serve", async () => {
    const p = await provider("Goods Services");
    const stranger = await provider("Other Services");
    const merchant = await newMerchant(t, "Served Supplier");
    const brand = await newBrand(t, merchant, "Served Brand");
    await newGoods(t, merchant, brand.id, {
      name: "Served card 10",
      faceValue: 1000,
      price: 1000,
      settlementPrice: 900,
    });
    await newGoods(t, merchant, brand.id, {
      name: "Served topup",
      businessType: "top_up",
      faceValue: 2000,
      price: 2000,
      settlementPrice: 1900,
    });
    const unserved = await newMerchant(t, "Unserved Supplier");
    await newGoods(t, unserved, (await newBrand(t, unserved, "Unserved Brand")).id, { name: "Unserved card" });

    const list = (token: string, merchantId: string, qs = "") =>
      t.call<Page<Goods>>("GET", `/api/card-servicer/insupply/merchandises?merchantId=${merchantId}${qs}`, {
        token,
        lang: "en",
      });
    // Before the binding, nothing.
    expect((await list(p.token, merchant.merchantId)).status).toBe(404);
    const bound = await t.call<{ id: string }>("POST", "/api/card-servicer/brander/service", {
      token: merchant.token,
      body: { providerId: p.merchantId, kind: "brand" },
    });
    expect(bound.body.code).toBe(1);

    const all = await list(p.token, merchant.merchantId);
    expect(all.body.data.list.map((g) => g.name).sort()).toEqual(["Served card 10", "Served topup"]);
    expect(
      (await list(p.token, merchant.merchantId, "&businessType=top_up")).body.data.list.map((g) => g.name),
    ).toEqual(["Served topup"]);
    expect((await list(p.token, merchant.merchantId, "&keyword=card")).body.data.list.map((g) => g.name)).toEqual([
      "Served card 10",
    ]);
    expect((await list(p.token, merchant.merchantId, "&page=2")).body.data).toMatchObject({
      list: [],
      total: 2,
      page: 2,
    });

    // Not served: another merchant, another provider; a merchant without the provider role is refused.
    expect((await list(p.token, unserved.merchantId)).status).toBe(404);
    expect((await list(stranger.token, merchant.merchantId)).status).toBe(404);
    expect((await list(merchant.token, merchant.merchantId)).status).toBe(403);
    expect((await t.call("GET", "/api/card-servicer/insupply/merchandises", { token: p.token })).status).toBe(400);

    // The binding ends: so does the view.
    await t.call("DELETE", `/api/card-servicer/brander/${bound.body.data.id}`, { token: merchant.token });
    expect((await list(p.token, merchant.merchantId)).status).toBe(404);
  });
});
