import type { Page, PurchaseOrder } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();

const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);

describe("brand owner GET order/search (spec 01 §7)", () => {
  it("answers the supplier's orders with the query and reply of supplyOrders, and only its own", async () => {
    const supplier = await newMerchant(t, "Search Supplier");
    const brand = await newBrand(t, supplier, "Search Cards");
    const goods = await newGoods(t, supplier, brand.id, {
      name: "Search card",
      price: 1000,
      settlementPrice: 900,
      faceValue: 1200,
    });
    await importFile(t, supplier.token, goods.id, "s.csv", csv(3, "OSR"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    for (const orderNo of ["OSEARCH-1", "OSEARCH-2"]) {
      const o = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 1, orderNo },
      });
      expect(o.body.data.state).toBe("success");
    }
    for (const query of ["", "?orderNo=OSEARCH-1", `?counterpartId=${buyer.merchantId}&page=1&pageSize=20`]) {
      const alias = await t.call<Page<PurchaseOrder>>("GET", `/api/card-brander/order/search${query}`, {
        token: supplier.token,
      });
      const original = await t.call<Page<PurchaseOrder>>("GET", `/api/card-brander/supplyOrders${query}`, {
        token: supplier.token,
      });
      expect(alias.status, JSON.stringify(alias.body)).toBe(200);
      expect(alias.body).toEqual(original.body);
    }
    const one = await t.call<Page<PurchaseOrder>>("GET", "/api/card-brander/order/search?orderNo=OSEARCH-1", {
      token: supplier.token,
    });
    expect(one.body.data.list.map((o) => o.orderNo)).toEqual(["OSEARCH-1"]);
    expect(
      (await t.call<Page<PurchaseOrder>>("GET", "/api/card-brander/order/search", { token: supplier.token })).body.data
        .total,
    ).toBe(2);
    // Another supplier sees none of them, nor does the purchaser as a supplier; no token, no orders.
    const other = await newMerchant(t, "Other Supplier");
    expect(
      (await t.call<Page<PurchaseOrder>>("GET", "/api/card-brander/order/search", { token: other.token })).body.data
        .total,
    ).toBe(0);
    expect(
      (await t.call<Page<PurchaseOrder>>("GET", "/api/card-brander/order/search", { token: buyer.token })).body.data
        .total,
    ).toBe(0);
    expect((await t.call("GET", "/api/card-brander/order/search")).status).toBe(401);
  });
});
