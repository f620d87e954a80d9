import ExcelJS from "exceljs";
import type { Brand, PurchaseOrder, RefundOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { platformDay } from "../../platform/clock";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  supplier = await newMerchant(t, "Export Supplier");
  brand = await newBrand(t, supplier, "Export Cards");
});

const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);

async function sheet(token: string, url: string, lang: "cn" | "tw" | "en" = "en"): Promise<unknown[][]> {
  const file = await t.app.inject({ method: "GET", url, headers: { "x-auth-token": token, lang } });
  expect(file.statusCode).toBe(200);
  expect(file.headers["content-type"]).toContain("spreadsheetml");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  return (wb.worksheets[0]?.getSheetValues() ?? []).slice(1).map((r) => (Array.isArray(r) ? r.slice(1) : []));
}

describe("xlsx export of every order list", () => {
  it("orders, refund orders and both reports, for the purchaser and the supplier, with the list's filters", async () => {
    const goods = await newGoods(t, supplier, brand.id, {
      name: "Export card",
      price: 1000,
      settlementPrice: 900,
      faceValue: 1200,
    });
    await importFile(t, supplier.token, goods.id, "e.csv", csv(5, "EXP"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 10_000);
    const o1 = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 2, orderNo: "EXPORT-0001" },
    });
    const o2 = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 1, orderNo: "EXPORT-0002" },
    });
    expect([o1.body.data.state, o2.body.data.state]).toEqual(["success", "success"]);
    const refund = await t.call<RefundOrder>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: o1.body.data.id, quantity: 1, reason: "unused" },
    });
    expect(
      (
        await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
          token: supplier.token,
          body: { approve: true },
        })
      ).body.code,
    ).toBe(1);

    const orders = await sheet(buyer.token, "/api/card-user/orders/export");
    expect(orders[0]?.slice(0, 4)).toEqual(["Time", "Order number", "Goods ID", "Goods name"]);
    expect(orders.slice(1).map((r) => [r[1], r[9], r[10], r[12]])).toEqual([
      ["EXPORT-0002", 1, 10, "Success"],
      ["EXPORT-0001", 2, 20, "Success"],
    ]);
    // The list's filters apply to the file.
    const one = await sheet(buyer.token, "/api/card-user/orders/export?orderNo=EXPORT-0001");
    expect(one.slice(1).map((r) => r[1])).toEqual(["EXPORT-0001"]);
    const today = platformDay(t.ctx.clock.now());
    expect((await sheet(buyer.token, `/api/card-user/orders/export?from=${today}&to=${today}`)).length).toBe(3);
    expect((await sheet(buyer.token, "/api/card-user/orders/export?from=2001-01-01&to=2001-01-02")).length).toBe(1);
    expect((await sheet(buyer.token, "/api/card-user/orders/export?state=failure")).length).toBe(1);

    const refunds = await sheet(buyer.token, "/api/card-user/refunds/export", "cn");
    expect(refunds[0]?.slice(0, 3)).toEqual(["退款时间", "充值账号", "退款金额"]);
    expect(refunds.slice(1).map((r) => [r[2], r[4], r[10]])).toEqual([[10, "EXPORT-0001", "成功"]]);

    const purchaseReport = await sheet(
      buyer.token,
      `/api/card-user/orders/reports/export?kind=purchase&unit=day&from=${today}&to=${today}`,
    );
    expect(purchaseReport[0]).toContain("Purchase amount");
    expect(purchaseReport.slice(1).map((r) => [r[0], r[3], r[4], r[5], r[6]])).toEqual([[today, 2, 3, 36, 30]]);
    const refundReport = await sheet(
      buyer.token,
      `/api/card-user/orders/reports/export?kind=refund&unit=month&from=${today}&to=${today}`,
      "tw",
    );
    expect(refundReport[0]).toContain("退款金額");
    expect(refundReport.slice(1).map((r) => [r[3], r[6]])).toEqual([[1, 10]]);

    const sales = await sheet(
      supplier.token,
      `/api/card-brander/supplyOrders/export?counterpartId=${buyer.merchantId}`,
    );
    expect(sales.slice(1).map((r) => r[1])).toEqual(["EXPORT-0002", "EXPORT-0001"]);
    expect((await sheet(supplier.token, "/api/card-brander/supplyRefunds/export")).slice(1).map((r) => r[4])).toEqual([
      "EXPORT-0001",
    ]);
    expect(
      (
        await sheet(
          supplier.token,
          `/api/card-brander/sup/reports/export?kind=purchase&unit=week&from=${today}&to=${today}`,
        )
      ).length,
    ).toBe(2);

    // Nobody exports another merchant's orders; no session, no file.
    const stranger = await registerMerchant(t);
    expect((await sheet(stranger.token, "/api/card-user/orders/export")).length).toBe(1);
    expect((await sheet(stranger.token, "/api/card-brander/supplyOrders/export")).length).toBe(1);
    expect((await t.app.inject({ method: "GET", url: "/api/card-user/orders/export" })).statusCode).toBe(401);
    const bad = await t.call("GET", "/api/card-user/orders/export?from=yesterday", { token: buyer.token, lang: "en" });
    expect(bad.status).toBe(400);
  });
});
