import type { Brand, PurchaseOrder } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { withTx } from "../../db/tx";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { balancesOf, checkInvariants, post } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

/** Rebates pay for purchases (issue 29): the order records the account that paid; refunds go back to it. */
const t = useTestApp();
let supplier: TestMerchant;
let brand: Brand;
beforeAll(async () => {
  supplier = await newMerchant(t, "Rebate Supplier Co");
  brand = await newBrand(t, supplier, "Rebate Cards");
});

let seq = 0;
const orderNo = () => `RB${Date.now()}${++seq}`;
const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);

/** A rebate paid by the supplier into the purchaser's rebate account, as a paid rebate statement posts it. */
async function grantRebate(purchaserId: string, amount: number): Promise<void> {
  const supplierId = Number(supplier.merchantId);
  const key = `test-rebate-${purchaserId}-${++seq}`;
  await withTx(t.ctx.database.db, async (tx) => {
    await post(tx, {
      idempotencyKey: `${key}-income`,
      kind: "purchase",
      currency: "CNY",
      postings: [
        { account: { platform: "bank_clearing" }, amount: -amount },
        { account: { merchantId: supplierId, kind: "income" }, amount },
      ],
    });
    await post(tx, {
      idempotencyKey: key,
      kind: "rebate",
      currency: "CNY",
      postings: [
        { account: { merchantId: supplierId, kind: "income" }, amount: -amount },
        { account: { merchantId: Number(purchaserId), kind: "rebate" }, amount },
      ],
    });
  });
}
const balances = (merchantId: string) => balancesOf(t.ctx.database.db, Number(merchantId), "CNY");

describe("paying purchases from the rebate account", () => {
  it("a stock order paid by rebate; a refund returns to the rebate account; short rebate refused in 3 languages, nothing changed", async () => {
    const goods = await newGoods(t, supplier, brand.id, { name: "Rebate card 10", price: 1_000, settlementPrice: 900 });
    await importFile(t, supplier.token, goods.id, "cards.csv", csv(6, "RBPAY"));
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 50_000);
    await grantRebate(buyer.merchantId, 3_500);
    const incomeBefore = (await balances(supplier.merchantId)).income.amount;

    const body = { goodsId: String(goods.id), quantity: 3, orderNo: orderNo(), payFrom: "rebate" };
    const placed = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", { token: buyer.token, body });
    expect(placed.body.code).toBe(1);
    expect(placed.body.data).toMatchObject({ state: "success", paidFrom: "rebate", amount: { amount: 3_000 } });
    expect((await balances(buyer.merchantId)).rebate.amount).toBe(500);
    expect((await balances(buyer.merchantId)).sup.amount).toBe(50_000);
    expect((await balances(supplier.merchantId)).income.amount).toBe(incomeBefore + 3_000);

    // Idempotent on the order number: the same request answers the first order; the same number paid
    // from another account is another request, refused.
    const again = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", { token: buyer.token, body });
    expect(again.body.data.id).toBe(placed.body.data.id);
    const otherAccount = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { ...body, payFrom: "sup" },
      lang: "en",
    });
    expect(otherAccount.body.code).not.toBe(1);
    expect((await balances(buyer.merchantId)).rebate.amount).toBe(500);
    const mine = await t.call<{ list: PurchaseOrder[] }>("GET", "/api/card-user/orders", { token: buyer.token });
    expect(mine.body.data.list.find((o) => o.id === placed.body.data.id)?.paidFrom).toBe("rebate");

    // Short rebate: refused with the message in three languages, nothing written.
    const ordersBefore = (await t.call<{ total: number }>("GET", "/api/card-user/orders", { token: buyer.token })).body
      .data.total;
    const short = { goodsId: String(goods.id), quantity: 1, payFrom: "rebate" };
    const en = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { ...short, orderNo: orderNo() },
      lang: "en",
    });
    expect(en.status).toBe(409);
    expect(en.body.msg).toBe("Insufficient balance in the rebate account");
    expect(
      (
        await t.call("POST", "/api/card-user/orders", {
          token: buyer.token,
          body: { ...short, orderNo: orderNo() },
          lang: "cn",
        })
      ).body.msg,
    ).toBe("返利账户余额不足");
    expect(
      (
        await t.call("POST", "/api/card-user/orders", {
          token: buyer.token,
          body: { ...short, orderNo: orderNo() },
          lang: "tw",
        })
      ).body.msg,
    ).toBe("返利賬戶餘額不足");
    const bad = await t.call("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { ...short, payFrom: "income", orderNo: orderNo() },
      lang: "en",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Please choose the paying account (SUP or rebate account)");
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/orders", { token: buyer.token })).body.data.total,
    ).toBe(ordersBefore);
    expect((await balances(buyer.merchantId)).rebate.amount).toBe(500);
    expect((await balances(buyer.merchantId)).sup.amount).toBe(50_000);

    // Paid from SUP (the default) the same goods still works and records SUP.
    const bySup = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 1, orderNo: orderNo() },
    });
    expect(bySup.body.data.paidFrom).toBe("sup");
    expect((await balances(buyer.merchantId)).sup.amount).toBe(49_000);

    // A refund of the rebate-paid order returns to the rebate account, once.
    const asked = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
      token: buyer.token,
      body: { orderId: placed.body.data.id, quantity: 2, reason: "unused" },
    });
    expect(asked.body.code).toBe(1);
    const accepted = await t.call<{ state: string }>("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
      token: supplier.token,
      body: { approve: true },
    });
    expect(accepted.body.data.state).toBe("success");
    expect(
      (
        await t.call("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
          token: supplier.token,
          body: { approve: true },
        })
      ).body.code,
    ).not.toBe(1);
    expect((await balances(buyer.merchantId)).rebate.amount).toBe(2_500);
    expect((await balances(buyer.merchantId)).sup.amount).toBe(49_000);
    // The rebate account's changes (RebateFundChange) show the purchase and the refund.
    const changes = await t.call<{ list: { type: string; amount: { amount: number } }[]; balance: { amount: number } }>(
      "GET",
      "/api/card-user/rebate/changes",
      { token: buyer.token },
    );
    expect(changes.body.data.balance.amount).toBe(2_500);
    expect(changes.body.data.list.map((c) => c.amount.amount)).toEqual([2_000, -3_000, 3_500]);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("a direct top-up paid by rebate that fails returns to the rebate account", async () => {
    const topUp = await newGoods(t, supplier, brand.id, {
      name: "Rebate top-up 20",
      businessType: "top_up",
      faceValue: 2_000,
      price: 1_900,
      settlementPrice: 1_800,
    });
    const { buyer } = await dock(t, supplier);
    await grantRebate(buyer.merchantId, 2_000);
    const o = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: {
        goodsId: String(topUp.id),
        quantity: 1,
        topUpAccount: "13800000001",
        orderNo: orderNo(),
        payFrom: "rebate",
      },
    });
    expect(o.body.data).toMatchObject({ state: "processing", paidFrom: "rebate" });
    expect((await balances(buyer.merchantId)).rebate.amount).toBe(100);
    const failed = await t.call<PurchaseOrder>("PUT", `/api/card-brander/supplyOrders/${o.body.data.id}/fulfil`, {
      token: supplier.token,
      body: { result: "failure", reason: "Number not recognised" },
    });
    expect(failed.body.data).toMatchObject({ state: "failure", refunded: true });
    expect((await balances(buyer.merchantId)).rebate.amount).toBe(2_000);
    expect((await balances(buyer.merchantId)).sup.amount).toBe(0);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});
