import type { FiguresReply, Page, PurchaseOrder, ServedBrand, ServedOrder, ServedSettlement } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { platformDay } from "../../platform/clock";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();

let seq = 0;
const csv = (n: number) => cardCsv(n, (i) => `POPS${Date.now()}${++seq}${i},S${i},`);

async function provider(ops: { token: string }, orgName: string) {
  const p = await registerMerchant(t, { orgName });
  await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, { token: ops.token, body: { grant: true } });
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: p.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  return { ...p, token: login.body.data.token };
}

describe("the provider's operations pages", () => {
  it("orders, figures, settlements and brands of served merchants only", async () => {
    const ops = await registerOperator(t);
    const mine = await provider(ops, "Ops Provider");
    const theirs = await provider(ops, "Other Ops Provider");
    const servedBrand = await registerMerchant(t, { orgName: "Served Brand" });
    const otherBrand = await registerMerchant(t, { orgName: "Unserved Brand" });
    await t.call("POST", "/api/card-servicer/brander/service", {
      token: servedBrand.token,
      body: { providerId: mine.merchantId, kind: "brand" },
    });
    await t.call("POST", "/api/card-servicer/brander/service", {
      token: otherBrand.token,
      body: { providerId: theirs.merchantId, kind: "brand" },
    });
    const goodsOf = async (owner: typeof servedBrand, name: string, businessType?: "top_up") => {
      const brand = await newBrand(t, owner, `${name} brand`);
      const goods = await newGoods(
        t,
        owner,
        brand.id,
        businessType
          ? { name, price: 5_000, settlementPrice: 4_500, businessType, faceValue: 5_000 }
          : { name, price: 5_000, settlementPrice: 4_500 },
      );
      if (!businessType) await importFile(t, owner.token, goods.id, "cards.csv", csv(4));
      return goods;
    };
    const servedGoods = await goodsOf(servedBrand, "Served card");
    const otherGoods = await goodsOf(otherBrand, "Unserved card");
    const { buyer } = await dock(t, servedBrand);
    await dock(t, otherBrand, buyer);
    await fundSup(t, buyer, 100_000);
    const order = async (goodsId: number, quantity: number) =>
      (
        await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
          token: buyer.token,
          body: { goodsId: String(goodsId), quantity, orderNo: `PO${Date.now()}${++seq}` },
        })
      ).body.data;
    const served = await order(servedGoods.id, 2);
    const unserved = await order(otherGoods.id, 1);
    expect([served.state, unserved.state]).toEqual(["success", "success"]);

    const list = await t.call<Page<ServedOrder>>("GET", "/api/card-servicer/ops/orders", { token: mine.token });
    expect(list.body.data.list.map((o) => o.id)).toEqual([served.id]);
    expect(list.body.data.list[0]).toMatchObject({
      supplierName: "Served Brand",
      brandName: "Served card brand",
      quantity: 2,
      amount: { amount: 10_000, currency: "CNY" },
    });
    // Asking for an unserved merchant by id finds nothing; the other provider sees only its own.
    expect(
      (
        await t.call<Page<ServedOrder>>("GET", `/api/card-servicer/ops/orders?merchantId=${otherBrand.merchantId}`, {
          token: mine.token,
        })
      ).body.data.total,
    ).toBe(0);
    expect(
      (
        await t.call<Page<ServedOrder>>("GET", "/api/card-servicer/ops/orders", { token: theirs.token })
      ).body.data.list.map((o) => o.id),
    ).toEqual([unserved.id]);
    expect(
      (
        await t.call<Page<ServedOrder>>("GET", "/api/card-servicer/ops/orders?businessType=top_up", {
          token: mine.token,
        })
      ).body.data.total,
    ).toBe(0);
    expect(
      (
        await t.call<Page<ServedOrder>>(
          "GET",
          `/api/card-servicer/ops/orders?orderNo=${served.orderNo}&state=success`,
          { token: mine.token },
        )
      ).body.data.total,
    ).toBe(1);
    const badDate = await t.call("GET", "/api/card-servicer/ops/orders?from=2026-02-30", {
      token: mine.token,
      lang: "en",
    });
    expect(badDate.status).toBe(400);
    const xlsx = await t.app.inject({
      method: "GET",
      url: "/api/card-servicer/ops/orders/export",
      headers: { "x-auth-token": mine.token },
    });
    expect(xlsx.statusCode).toBe(200);
    // A merchant that is no provider is refused.
    expect((await t.call("GET", "/api/card-servicer/ops/orders", { token: buyer.token })).status).toBe(403);

    const today = platformDay(t.clock.now());
    const figures = await t.call<FiguresReply>("GET", `/api/card-servicer/ops/figures?from=${today}&to=${today}`, {
      token: mine.token,
    });
    expect(figures.body.data.totals).toEqual({
      orders: 1,
      amount: { amount: 10_000, currency: "CNY" },
      refunds: { amount: 0, currency: "CNY" },
    });
    const month = today.slice(0, 7);
    const settlements = await t.call<ServedSettlement[]>(
      "GET",
      `/api/card-servicer/ops/settlements?from=${month}&to=${month}`,
      { token: mine.token },
    );
    expect(settlements.body.data).toEqual([
      expect.objectContaining({
        supplierId: servedBrand.merchantId,
        month,
        orders: 1,
        sales: { amount: 10_000, currency: "CNY" },
        net: { amount: 10_000, currency: "CNY" },
      }),
    ]);
    const brands = await t.call<ServedBrand[]>("GET", "/api/card-servicer/ops/brands", { token: mine.token });
    expect(brands.body.data.map((b) => [b.name, b.merchantName, b.goods, b.onSale])).toEqual([
      ["Served card brand", "Served Brand", 1, 1],
    ]);
    expect(
      (await t.call<ServedBrand[]>("GET", "/api/card-servicer/ops/brands", { token: theirs.token })).body.data.map(
        (b) => b.name,
      ),
    ).toEqual(["Unserved card brand"]);
  });
});
