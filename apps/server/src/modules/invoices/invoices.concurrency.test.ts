import type { Invoice, InvoiceableRow, PurchaseOrder } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

/** On the PostgreSQL server only: invoice requests racing for one merchant's invoiceable amount. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const TITLE = {
  name: "并发测试有限公司",
  taxId: "91110108MA01X0001G",
  address: "北京市海淀区",
  phone: "010-60000000",
  bank: "中国银行北京分行",
  bankAccount: "340000000000001",
};

it("40 parallel requests never take more than was spent; 10 parallel issues of one request issue it once", async () => {
  const supplier = await newMerchant(t, "Race Invoice Supplier");
  const brand = await newBrand(t, supplier);
  const goods = await newGoods(t, supplier, brand.id, {
    name: "Race card",
    price: 10_000,
    settlementPrice: 9_000,
    invoiceType: "vat_13",
  });
  const csv = cardCsv(4, (i) => `RACEINV${Date.now()}${i},S${i},`);
  await importFile(t, supplier.token, goods.id, "cards.csv", csv);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 100_000);
  const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(goods.id), quantity: 3, orderNo: `PORACE${Date.now()}` },
  });
  expect(order.body.data.state).toBe("success");

  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      t.call<Invoice>("POST", "/api/card-user/invoices", {
        token: buyer.token,
        body: {
          invoiceType: "vat_13",
          amount: 1_000 + i,
          title: TITLE,
          email: "race@example.com",
          requestKey: `race-${buyer.merchantId}-${i}`,
        },
      }),
    ),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  const taken = results.filter((r) => r.body.code === 1).reduce((sum, r) => sum + r.body.data.amount.amount, 0);
  expect(taken).toBeLessThanOrEqual(30_000);
  expect(taken).toBeGreaterThan(30_000 - 1_040);
  const row = (
    await t.call<InvoiceableRow[]>("GET", "/api/card-user/invoice/invoiceable", { token: buyer.token })
  ).body.data.find((r) => r.invoiceType === "vat_13");
  expect(row).toMatchObject({ pending: { amount: taken }, invoiceable: { amount: 30_000 - taken } });

  const ops = await registerOperator(t);
  const first = results.find((r) => r.body.code === 1)?.body.data.id;
  const issues = await Promise.all(
    Array.from({ length: 10 }, () => t.call<Invoice>("PUT", `/api/ops/invoices/${first}/issue`, { token: ops.token })),
  );
  expect(issues.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(issues.filter((r) => r.status === 409)).toHaveLength(9);
});
