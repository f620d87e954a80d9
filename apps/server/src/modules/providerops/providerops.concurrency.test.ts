import ExcelJS from "exceljs";
import type { BatchPurchaseReply, Page, PurchaseOrder } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { balancesOf, checkInvariants } from "../ledger";
import { BATCH_HEADERS, XLSX_MIME } from "./sheets";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

it("the same BatchPurchase file sent several times at once buys each line once", async () => {
  const ops = await registerOperator(t);
  const p = await registerMerchant(t, { orgName: "Racing Provider" });
  await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, { token: ops.token, body: { grant: true } });
  const token = (
    await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: p.email, password: STRONG_PASSWORD, version: "domestic" },
    })
  ).body.data.token;
  const brandOwner = await registerMerchant(t, { orgName: "Racing Brand" });
  const brand = await newBrand(t, brandOwner, "Racing brand");
  const goods = await newGoods(t, brandOwner, brand.id, { name: "Racing card", price: 1_000, settlementPrice: 900 });
  const stamp = Date.now();
  await importFile(
    t,
    brandOwner.token,
    goods.id,
    "cards.csv",
    cardCsv(10, (i) => `RACE${stamp}${i},S${i},`),
  );
  const { buyer } = await dock(t, brandOwner);
  await t.call("POST", "/api/card-servicer/brander/service", {
    token: buyer.token,
    body: { providerId: p.merchantId, kind: "vendor" },
  });
  await fundSup(t, buyer, 50_000);

  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("purchases");
  ws.addRow(BATCH_HEADERS.cn);
  for (let i = 1; i <= 3; i++) ws.addRow([buyer.merchantId, String(goods.id), "1", "", `RACE-${stamp}-${i}`]);
  const file = Buffer.from(await wb.xlsx.writeBuffer());
  const send = async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/card-servicer/ops/batchPurchases?fileName=race.xlsx",
      headers: { "x-auth-token": token, "content-type": XLSX_MIME },
      payload: file,
    });
    return res.json<{ code: number; data: BatchPurchaseReply }>();
  };
  const replies = await Promise.all([send(), send(), send(), send()]);
  for (const r of replies) {
    expect(r.code).toBe(1);
    expect(r.data.lines.map((l) => l.state === "refused")).toEqual([false, false, false]);
  }
  // Every reply names the same three orders; the purchaser paid for three cards, once.
  const ids = new Set(replies.flatMap((r) => r.data.lines.map((l) => l.orderId)));
  expect(ids.size).toBe(3);
  expect((await balancesOf(t.ctx.database.db, Number(buyer.merchantId), "CNY")).sup.amount).toBe(47_000);
  const orders = await t.call<Page<PurchaseOrder>>("GET", "/api/card-user/orders", { token: buyer.token });
  expect(orders.body.data.total).toBe(3);
});
