import type { PurchaseOrder } from "@tessera/contracts";
import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { withTx } from "../../db/tx";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { balancesOf, checkInvariants, post } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

/** On the PostgreSQL server only: parallel orders paid from a rebate account that covers only some of them. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);

it("40 parallel orders against a rebate balance for 7: exactly 7 paid, never negative, the ledger sums to zero", async () => {
  const supplier = await newMerchant(t, "Rebate Race Co");
  const brand = await newBrand(t, supplier, "Rebate Race");
  const goods = await newGoods(t, supplier, brand.id, { name: "Rebate race card", price: 1_000, settlementPrice: 900 });
  await importFile(t, supplier.token, goods.id, "cards.csv", csv(60, `RBRACE${Date.now()}`));
  const { buyer } = await dock(t, supplier);
  const supplierId = Number(supplier.merchantId);
  // 7,500 of rebate from the supplier: seven orders of 1,000 fit, the eighth does not.
  await withTx(t.ctx.database.db, async (tx) => {
    await post(tx, {
      idempotencyKey: `race-income-${buyer.merchantId}`,
      kind: "purchase",
      currency: "CNY",
      postings: [
        { account: { platform: "bank_clearing" }, amount: -7_500 },
        { account: { merchantId: supplierId, kind: "income" }, amount: 7_500 },
      ],
    });
    await post(tx, {
      idempotencyKey: `race-rebate-${buyer.merchantId}`,
      kind: "rebate",
      currency: "CNY",
      postings: [
        { account: { merchantId: supplierId, kind: "income" }, amount: -7_500 },
        { account: { merchantId: Number(buyer.merchantId), kind: "rebate" }, amount: 7_500 },
      ],
    });
  });

  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 1, orderNo: `RBRACE-${buyer.merchantId}-${i}`, payFrom: "rebate" },
        lang: "en",
      }),
    ),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  const paid = results.filter((r) => r.body.code === 1);
  expect(paid).toHaveLength(7);
  expect(paid.every((r) => r.body.data.paidFrom === "rebate")).toBe(true);
  expect(
    results.filter((r) => r.body.code !== 1).every((r) => r.body.msg === "Insufficient balance in the rebate account"),
  ).toBe(true);

  const b = await balancesOf(t.ctx.database.db, Number(buyer.merchantId), "CNY");
  expect(b.rebate.amount).toBe(500);
  expect(b.sup.amount).toBe(0);
  const orders = await sql<{ n: string; sum: string }>`
    SELECT count(*)::text AS n, COALESCE(SUM(amount), 0)::text AS sum FROM purchase_orders
      WHERE purchaser_merchant_id = ${Number(buyer.merchantId)} AND paid_from = 'rebate'`.execute(t.ctx.database.db);
  expect(orders.rows[0]).toEqual({ n: "7", sum: "7000" });
  const sold = await sql<{
    n: string;
  }>`SELECT count(*)::text AS n FROM supply_cards WHERE goods_id = ${goods.id} AND state = 'sold'`.execute(
    t.ctx.database.db,
  );
  expect(sold.rows[0]?.n).toBe("7");
  // Every transaction's entries sum to zero, and no merchant account is negative.
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
