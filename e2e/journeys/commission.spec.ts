import { readFile } from "node:fs/promises";
import { expect as baseExpect, test } from "@playwright/test";
import { PDFParse } from "pdf-parse";
import { loginToken, registerAccount, verifyRealName } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { pickDate, platformMonth, post, screenshots, sessionPage } from "../support/journey";
import { operatorToken } from "../support/operator";
import { chooseOption } from "../support/select";
import { downloadWith, openWith } from "../support/click";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { creditSup } from "../support/world";

/**
 * Commission (issue 29): a provider reads its monthly commission statement and downloads it. The
 * operator grants the provider role and sets a 5% rule on card-secret goods in the console; a purchaser
 * the provider serves buys two cards; the order is moved into last month (the dev-only backdate route:
 * the server runs on the real clock and only months that have ended close); the operator closes last
 * month in the console; the provider sees its rule, the statement with its payable day (held for refunds:
 * the journeys' server holds statements 45 days, so confirming is not offered and the call is refused),
 * the per-merchant detail, and downloads the .xlsx (its cells read back) and the PDF (its text read back).
 */
const expect = baseExpect.configure({ timeout: 30_000 });
test.beforeEach(noteMissingFonts);
const shot = screenshots("commission");
const call = post;

test("a provider reads its monthly commission statement and downloads it", async ({ browser, request }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const { day, month: lastMonth } = platformMonth(1);
  const ops = await operatorToken(request);

  // The provider, a brand it serves, and a purchaser of the brand's card-secret goods.
  const provider = await registerAccount(request, { orgName: "星链服务商有限公司" });
  await call(request, ops, `/api/ops/merchants/${provider.merchantId}/providerRole`, { grant: true });
  const providerToken = await loginToken(request, provider);
  const brandOwner = await registerAccount(request, { orgName: "星链品牌有限公司" });
  const brandToken = await loginToken(request, brandOwner);
  await call(request, brandToken, "/api/card-servicer/brander/service", {
    providerId: provider.merchantId,
    kind: "brand",
  });
  const buyer = await registerAccount(request, { orgName: "星链采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  await verifyRealName(request, buyerToken);
  const brand = await call<{ id: number }>(request, brandToken, "/api/card-brander/brander/update", {
    name: `星链品牌${stamp}`,
    description: "e2e",
  });
  const goods = await call<{ id: number }>(request, brandToken, "/api/card-brander/product/add", {
    brandId: brand.id,
    equityType: "video",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `星链月卡${stamp}`,
    businessType: "card_secret",
    faceValue: 3000,
    code: `XL-${stamp}`,
    price: 2700,
    settlementPrice: 2500,
  });
  const csv = cardCsv(3, (i) => `XL${stamp}${i},PIN${i}${stamp},`, { header: "cn", end: false });
  expect(
    (
      await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=cards.csv`, {
        headers: { "x-auth-token": brandToken, "content-type": "text/csv" },
        data: Buffer.from(csv),
      })
    ).status(),
  ).toBe(200);
  await call(request, brandToken, "/api/card-brander/whitelists", { purchaserId: buyer.merchantId, scope: "vendor" });
  await creditSup(request, {
    ops: ops,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 20_000,
    move: 20_000,
    creditKey: `e2e-xl-${buyer.merchantId}`,
    moveKey: `e2e-xl-move-${buyer.merchantId}`,
  });

  // The operator's console: a 5% rule for the provider on card-secret goods, valid from last month.
  const opsPage = await sessionPage(browser, { version: "domestic" }, ops);
  await opsPage.goto("/ops/Commission");
  const dialog = opsPage.locator(".ant-modal").filter({ hasText: "新增规则" });
  await openWith(opsPage.getByRole("button", { name: "新增规则" }), dialog);
  await dialog.getByLabel("服务商ID").fill(provider.merchantId);
  await chooseOption(
    opsPage,
    opsPage.locator(".ant-modal .ant-select").filter({ has: opsPage.locator("#businessType") }),
    "卡密",
  );
  await dialog.getByLabel("佣金比例").fill("5");
  await pickDate(dialog.getByLabel("生效日期"), `${lastMonth}-01`);
  await dialog.getByRole("button", { name: /确\s*定|OK/ }).click();
  await expect(opsPage.getByText("规则已添加")).toBeVisible();
  await expect(dialog).toBeHidden();

  // The purchaser buys two cards (54.00); the order is moved into last month (test scaffolding).
  const order = await call<{ id: string; state: string }>(request, buyerToken, "/api/card-user/orders", {
    goodsId: String(goods.id),
    quantity: 2,
    orderNo: `XL-${stamp}`,
  });
  expect(order.state).toBe("success");
  const moved = await call<{ finishedAt: string }>(request, ops, `/api/dev/purchaseOrders/${order.id}/backdate`, {
    days: day + 2,
  });
  expect(new Date(new Date(moved.finishedAt).getTime() + 8 * 3600_000).toISOString().slice(0, 7)).toBe(lastMonth);

  // The operator closes last month in the console.
  await pickDate(opsPage.getByPlaceholder("请选择月份"), lastMonth);
  await opsPage.getByRole("button", { name: "执行月结" }).click();
  await expect(opsPage.getByText(new RegExp(`${lastMonth} 已月结：\\d+ 份账单`))).toBeVisible();
  await shot(opsPage, "ops-cn");

  // The provider: its rule above the list, last month's statement held for refunds until its payable day.
  const page = await sessionPage(browser, provider, providerToken);
  await page.goto("/providers/MonthlyCommission");
  const rules = page.getByTestId("my-commission-rules");
  await expect(rules.locator(".ant-table-row")).toHaveCount(1);
  await expect(rules.locator(".ant-table-row")).toContainText("卡密");
  await expect(rules.locator(".ant-table-row")).toContainText("5%");
  await expect(rules.locator(".ant-table-row")).toContainText(`${lastMonth}-01 ~ 长期`);
  const row = page.locator(".ant-table-row").filter({ has: page.getByTestId(`statement-${lastMonth}`) });
  await expect(row).toContainText("¥2.70");
  await expect(row).toContainText("待确认");
  const statements = (await (
    await request.get(`/api/card-servicer/commission/statements?from=${lastMonth}&to=${lastMonth}`, {
      headers: { "x-auth-token": providerToken },
    })
  ).json()) as {
    data: { list: { id: string; payableFrom: string; closing: { amount: number } }[] };
  };
  const statement = statements.data.list[0];
  expect(statement?.closing.amount).toBe(270);
  const payableFrom = statement?.payableFrom ?? "";
  await expect(row).toContainText(payableFrom);
  await expect(row.getByTestId(`statement-hold-${lastMonth}`)).toHaveText(`${payableFrom}起可确认`);
  await expect(row.getByTestId(`statement-confirm-${lastMonth}`)).toHaveCount(0);
  const refused = await request.put(`/api/card-servicer/commission/statements/${statement?.id}/confirm`, {
    headers: { "x-auth-token": providerToken },
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { msg: string }).msg).toBe(`该账单处于退款保留期，${payableFrom}起可确认结算`);
  await shot(page, "monthly-cn");

  // The statement's detail: the served brand, one order, 54.00 at 5%.
  const drawer = page.getByRole("dialog", { name: `${lastMonth} 佣金账单` });
  await openWith(page.getByTestId(`statement-${lastMonth}`), drawer);
  const merchantRow = drawer.locator(".ant-table-row").filter({ hasText: "星链品牌有限公司" });
  await expect(merchantRow).toContainText("品牌方");
  await expect(merchantRow).toContainText("¥54.00");
  await expect(merchantRow).toContainText("¥2.70");
  await expect(drawer).toContainText(payableFrom);
  await shot(page, "statement-cn");

  // The .xlsx: one row for the served brand.
  const xlsx = await downloadWith(page, drawer.getByTestId("drawer-xlsx"));
  expect(xlsx.suggestedFilename()).toBe(`commission-${lastMonth}.xlsx`);
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(await xlsx.path())) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  expect(sheet?.getRow(1).values).toEqual([
    undefined,
    "月份",
    "商户ID",
    "商户名称",
    "类型",
    "订单数",
    "计佣金额",
    "佣金",
    "退款扣回",
    "净佣金",
  ]);
  expect(sheet?.getRow(2).values).toEqual([
    undefined,
    lastMonth,
    brandOwner.merchantId,
    "星链品牌有限公司",
    "品牌方",
    1,
    54,
    2.7,
    0,
    2.7,
  ]);
  expect(sheet?.rowCount).toBe(2);

  // The PDF: the month, the closing amount in figures and in capitals, the served brand.
  const pdf = await downloadWith(page, drawer.getByTestId("drawer-pdf"));
  expect(pdf.suggestedFilename()).toBe(`commission-${lastMonth}.pdf`);
  const bytes = await readFile(await pdf.path());
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  const text = (await parser.getText()).text.replace(/\s+/g, "");
  await parser.destroy();
  expect(text).toContain("服务商月度佣金账单");
  expect(text).toContain(`月份:${lastMonth}`);
  expect(text).toContain("应结佣金:2.70CNY");
  expect(text).toContain("贰元柒角整");
  expect(text).toContain("星链品牌有限公司");
  expect(text).toContain(`可结算日期:${payableFrom}`);
});
