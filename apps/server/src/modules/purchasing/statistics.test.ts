import type {
  Brand,
  PurchaseOrder,
  RefundOrder,
  SalesStatsRow,
  SettlementRow,
  SupOrderRow,
  SupplyCheckRow,
} from "@tessera/contracts";
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
  supplier = await newMerchant(t, "Stats Supplier");
  brand = await newBrand(t, supplier, "Stats Cards");
});

const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);
let seq = 0;
const orderNo = () => `ST${Date.now()}${++seq}`;

describe("SalesStatistics, PurchaseSettlement, CheckSupOrder, SUPOrder", () => {
  it("are real figures over orders, refunds and the ledger, and each merchant sees only its own", async () => {
    const card = await newGoods(t, supplier, brand.id, {
      name: "Stats card",
      price: 1000,
      settlementPrice: 900,
      faceValue: 1200,
    });
    const topUp = await newGoods(t, supplier, brand.id, {
      name: "Stats top-up",
      businessType: "top_up",
      faceValue: 5000,
      price: 4900,
      settlementPrice: 4800,
    });
    await importFile(t, supplier.token, card.id, "s.csv", csv(5, "STA"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 50_000);
    const buy = async (goodsId: number, quantity: number, topUpAccount?: string) =>
      (
        await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
          token: buyer.token,
          body: { goodsId: String(goodsId), quantity, orderNo: orderNo(), ...(topUpAccount && { topUpAccount }) },
        })
      ).body.data;
    const first = await buy(card.id, 2);
    await buy(card.id, 1);
    const settled = await buy(topUp.id, 1, "13800000000");
    const failed = await buy(topUp.id, 1, "13800000001");
    const pending = await buy(topUp.id, 1, "13800000002");
    await t.call("PUT", `/api/card-brander/supplyOrders/${settled.id}/fulfil`, {
      token: supplier.token,
      body: { result: "success", upstreamChannelId: "CH-1" },
    });
    await t.call("PUT", `/api/card-brander/supplyOrders/${failed.id}/fulfil`, {
      token: supplier.token,
      body: { result: "failure", reason: "busy" },
    });
    const refund = await t.call<RefundOrder>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: first.id, quantity: 1, reason: "unused" },
    });
    await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
      token: supplier.token,
      body: { approve: true },
    });
    const today = platformDay(t.ctx.clock.now());
    const range = `from=${today}&to=${today}`;

    // SalesStatistics: per goods, failed orders left out, refunds subtracted.
    const byGoods = await t.call<{ list: SalesStatsRow[]; total: number }>(
      "GET",
      `/api/card-user/salesStatistics?dimension=goods&${range}`,
      { token: buyer.token },
    );
    expect(byGoods.body.data.total).toBe(2);
    const rows = Object.fromEntries(
      byGoods.body.data.list.map((r) => [
        r.name,
        [r.orders, r.quantity, r.faceAmount, r.amount, r.refundedQuantity, r.refundedAmount, r.netAmount],
      ]),
    );
    expect(rows).toEqual({
      "Stats card": [2, 3, 3600, 3000, 1, 1000, 2000],
      "Stats top-up": [2, 2, 10_000, 9800, 0, 0, 9800],
    });
    const bySupplier = await t.call<{ list: SalesStatsRow[] }>(
      "GET",
      `/api/card-user/salesStatistics?dimension=supplier&${range}`,
      { token: buyer.token },
    );
    expect(bySupplier.body.data.list.map((r) => [r.name, r.orders, r.netAmount])).toEqual([
      ["Stats Supplier", 4, 11_800],
    ]);
    const page = await t.call<{ list: SalesStatsRow[]; total: number }>(
      "GET",
      `/api/card-user/salesStatistics?dimension=goods&${range}&pageSize=20&page=2`,
      { token: buyer.token },
    );
    expect([page.body.data.list.length, page.body.data.total]).toEqual([0, 2]);

    // PurchaseSettlement: purchases and refunds beside the SUP ledger; the closing balance is the balance.
    const settlement = await t.call<SettlementRow[]>("GET", `/api/card-user/purchaseSettlement?unit=day&${range}`, {
      token: buyer.token,
    });
    const day = settlement.body.data[0];
    const info = await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: buyer.token,
    });
    expect(day).toMatchObject({
      period: today,
      orders: 5,
      purchaseAmount: 17_700,
      refundAmount: 5900,
      netAmount: 11_800,
      closingBalance: info.body.data.balances.sup.amount,
    });
    // Money out: every order's payment, the failed top-up too; money in: the funding, its return, the refund.
    expect([day?.ledgerOut, day?.ledgerIn]).toEqual([17_700, 50_000 + 4900 + 1000]);
    expect(info.body.data.balances.sup.amount).toBe(50_000 - 11_800);

    // CheckSupOrder: the day balances against the income ledger; the pending top-up is in escrow.
    const check = await t.call<SupplyCheckRow[]>("GET", `/api/card-brander/supplyOrders/check?${range}`, {
      token: supplier.token,
    });
    expect(check.body.data).toEqual([
      {
        day: today,
        settledOrders: 3,
        settledAmount: 7900,
        refunds: 1,
        refundAmount: 1000,
        ledgerIncome: 7900,
        ledgerRefund: 1000,
        difference: 0,
        escrowOrders: 1,
        escrowAmount: 4900,
        currency: "CNY",
      },
    ]);

    // SUPOrder: where each order's money is.
    const sup = await t.call<{ list: SupOrderRow[]; total: number }>("GET", "/api/card-brander/supOrders", {
      token: supplier.token,
    });
    const states = Object.fromEntries(sup.body.data.list.map((o) => [o.orderNo, [o.settlement, o.netAmount]]));
    expect(states[first.orderNo]).toEqual(["partly_refunded", 1000]);
    expect(states[settled.orderNo]).toEqual(["settled", 4900]);
    expect(states[failed.orderNo]).toEqual(["refunded", 0]);
    expect(states[pending.orderNo]).toEqual(["escrow", 0]);
    const escrow = await t.call<{ list: SupOrderRow[]; total: number }>(
      "GET",
      "/api/card-brander/supOrders?settlement=escrow",
      { token: supplier.token },
    );
    expect(escrow.body.data.list.map((o) => o.orderNo)).toEqual([pending.orderNo]);
    const byNo = await t.call<{ total: number }>(
      "GET",
      `/api/card-brander/supOrders?orderNo=${first.orderNo}&purchaserId=${buyer.merchantId}&${range}`,
      { token: supplier.token },
    );
    expect(byNo.body.data.total).toBe(1);

    // Tenancy: another merchant's figures are empty.
    const stranger = await registerMerchant(t);
    expect(
      (await t.call<{ total: number }>("GET", `/api/card-user/salesStatistics?${range}`, { token: stranger.token }))
        .body.data.total,
    ).toBe(0);
    expect(
      (
        await t.call<SupplyCheckRow[]>("GET", `/api/card-brander/supplyOrders/check?${range}`, {
          token: stranger.token,
        })
      ).body.data,
    ).toEqual([]);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/supOrders", { token: stranger.token })).body.data
        .total,
    ).toBe(0);
  });

  it("refuses bad ranges with the spec's messages", async () => {
    const m = await registerMerchant(t);
    const reversed = await t.call("GET", "/api/card-user/purchaseSettlement?from=2026-02-02&to=2026-01-01", {
      token: m.token,
      lang: "en",
    });
    expect([reversed.status, reversed.body.msg]).toEqual([400, "The start date cannot be after the end date"]);
    const long = await t.call("GET", "/api/card-brander/supplyOrders/check?from=2024-01-01&to=2026-01-01", {
      token: m.token,
      lang: "cn",
    });
    expect(long.body.msg).toBe("查询时间跨度不能超过一年");
    const missing = await t.call("GET", "/api/card-user/salesStatistics", { token: m.token });
    expect(missing.status).toBe(400);
  });
});
