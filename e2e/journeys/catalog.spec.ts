import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import {
  loginToken,
  registerAccount,
  switchLanguage,
  useSession,
  verifyRealName,
  apiCall as call,
} from "../support/api";
import { operatorToken } from "../support/operator";
import { clickUntil, downloadWith, openWith } from "../support/click";
import { noteMissingFonts } from "../support/fonts";
import { Drawer, ListPage } from "../support/pages";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { creditSup } from "../support/world";

/**
 * Catalog journey: a supplier downloads the card template, fills it (good rows and bad ones), imports
 * it, sees the stock and downloads the reject report; a purchaser filters the card-secret goods list
 * and opens a goods' details.
 */

async function sheetRows(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

test("supplier imports a filled template and reads the reject report; purchaser filters goods and opens details", async ({
  page,
  request,
}, testInfo) => {
  const supplier = await registerAccount(request, { orgName: "星河卡券供应有限公司" });
  const supplierToken = await loginToken(request, supplier);
  await useSession(page, supplier, supplierToken);
  // New goods before any brand: the brands dialog opens and says why (issue 25 item 7).
  await page.goto("/business/SuppliedProducts");
  await openWith(page.getByRole("button", { name: "新增商品" }), page.getByTestId("brands-notice"));
  await expect(page.getByTestId("brands-notice")).toContainText("新增商品前请先添加品牌");
  // The supplier's home links its staff's apps: the clerks' verification page as a QR code (screen 6).
  await page.goto("/business/Home");
  await expect(page.getByTestId("staff-apps")).toContainText("核销页（店员手机）");
  await expect(page.getByTestId("verify-qr").locator("canvas")).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "catalog-supplier-home-cn.png"), fullPage: true });
  const brandName = `旅程视频${Date.now().toString(36)}`;
  const brand = await call<{ id: number }>(request, supplierToken, "post", "/api/card-brander/brander/update", {
    name: brandName,
    description: "影音会员",
  });
  const goods = await call<{ id: number }>(request, supplierToken, "post", "/api/card-brander/product/add", {
    name: `${brandName}月卡`,
    brandId: brand.id,
    businessType: "card_secret",
    equityType: "video",
    faceValue: 3000,
    code: `E2E-${Date.now().toString(36)}`,
    perOrderMax: 5,
    invoiceType: "vat_6",
    price: 2700,
    settlementPrice: 2500,
    recommendationIndex: 70,
  });

  await page.goto(`/business/CardImport?goodsId=${goods.id}`);
  await expect(page.getByRole("button", { name: "下载导入模板" })).toBeVisible();

  // Download the template and fill it as a supplier would: keep the header, replace the example row.
  const template = await readFile(
    (await (await downloadWith(page, page.getByRole("button", { name: "下载导入模板" }))).path()) ?? "",
  );
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  if (!ws) throw new Error("template has no worksheet");
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(["卡号", "卡密", "有效期(YYYY-MM-DD)"]);
  ws.spliceRows(2, 1);
  const stamp = Date.now().toString(36).toUpperCase();
  for (let i = 1; i <= 5; i++) ws.addRow([`E2E${stamp}${i}`, `PIN-${i}-${stamp}`, "2099-12-31"]);
  ws.addRow(["", "PIN-NO-NUMBER", ""]);
  ws.addRow([`E2E${stamp}1`, "PIN-DUP", ""]);
  ws.addRow([`E2E${stamp}X`, "PIN-OLD", "2001-01-01"]);
  const filled = testInfo.outputPath("filled-template.xlsx");
  await wb.xlsx.writeFile(filled);

  await page.locator('input[type="file"]').setInputFiles(filled);
  await expect(page.getByText("导入完成：成功5条，失败3条，共8行")).toBeVisible();
  const result = page.locator(".ant-alert").filter({ hasText: "导入结果" });
  await expect(result).toContainText("5");
  await expect(page.locator(".ant-statistic").filter({ hasText: "可用库存" })).toContainText("5");
  // Codes are listed masked.
  await expect(page.locator(".ant-table-row").first()).toContainText("********");

  const report = await sheetRows(
    await readFile(
      (await (await downloadWith(page, result.getByRole("button", { name: "下载失败报告" }))).path()) ?? "",
    ),
  );
  expect(report.map((r) => [r[0], r[1]])).toEqual([
    ["行号", "原因"],
    [7, "卡号为空"],
    [8, "文件内重复的卡号"],
    [9, "卡密已过期"],
  ]);
  await page.screenshot({ path: testInfo.outputPath("card-import.png") });

  // The purchaser filters the card-secret goods by brand and opens the details. It sees the goods
  // because the supplier put it on its whitelist (goods lists show only goods a purchaser may buy).
  const buyer = await registerAccount(request, { orgName: "云端采购有限公司" });
  await call(request, supplierToken, "post", "/api/card-brander/whitelists", {
    purchaserId: buyer.merchantId,
    scope: "vendor",
  });
  await useSession(page, buyer, await loginToken(request, buyer));
  await page.goto("/sale/CarmiGoodsList");
  const goodsList = new ListPage(page);
  await goodsList.choose("品牌", brandName);
  await goodsList.search(() => expect(page).toHaveURL(new RegExp(`selVal=${brand.id}`), { timeout: 5_000 }));
  const rows = goodsList.rows;
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${brandName}月卡`);
  const { root: drawer } = await new Drawer(page, "商品详情").open(rows.first().getByRole("button", { name: "详情" }));
  await expect(drawer).toContainText("星河卡券供应有限公司");
  await expect(drawer).toContainText("¥27.00");
  await expect(drawer).toContainText("6%增值税专用发票");
  await page.screenshot({ path: testInfo.outputPath("goods-detail.png") });
});

const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts); // screenshots for people: a missing font is noted on the result
/** A screenshot once the page has settled: no request pending and the loading overlay gone. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  // No menu left open by a language switch.
  await expect(page.locator(".ant-dropdown:not(.ant-dropdown-hidden)")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `catalog-${name}.png`), fullPage: true });
}

test("supply pages over real data: commodity supply figures, resale goods, a provider's view of a served supplier", async ({
  browser,
  request,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const supplier = await registerAccount(request, { orgName: "远山卡券供应有限公司" });
  const supplierToken = await loginToken(request, supplier);
  const brand = await call<{ id: number }>(request, supplierToken, "post", "/api/card-brander/brander/update", {
    name: `远山影音${stamp}`,
    description: "影音会员",
  });
  const goods = await call<{ id: number }>(request, supplierToken, "post", "/api/card-brander/product/add", {
    name: `远山视频季卡${stamp}`,
    brandId: brand.id,
    businessType: "card_secret",
    equityType: "video",
    faceValue: 6800,
    code: `SP-${stamp}`,
    perOrderMax: 5,
    invoiceType: "vat_6",
    price: 6000,
    settlementPrice: 5600,
    lowStockThreshold: 4,
  });
  const csv = cardCsv(6, (i) => `SP${stamp}${i},PIN${i}${stamp},2099-12-31`, { header: "cn", end: false });
  const imported = await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=cards.csv`, {
    headers: { "x-auth-token": supplierToken, "content-type": "text/csv" },
    data: Buffer.from(csv),
  });
  expect(imported.status()).toBe(200);
  const codes = await call<{ list: { id: number }[] }>(
    request,
    supplierToken,
    "get",
    `/api/card-brander/sup/merchandises/${goods.id}/cards?pageSize=20`,
  );
  await call(request, supplierToken, "post", `/api/card-brander/sup/merchandises/${goods.id}/cards/void`, {
    ids: [codes.list[0]?.id],
  });

  // A whitelisted purchaser with money buys two codes.
  const buyer = await registerAccount(request, { orgName: "青松转售有限公司" });
  const buyerToken = await loginToken(request, buyer);
  await verifyRealName(request, buyerToken);
  await call(request, supplierToken, "post", "/api/card-brander/whitelists", {
    purchaserId: buyer.merchantId,
    scope: "goods",
    goodsId: String(goods.id),
  });
  const opsToken = await operatorToken(request);
  await creditSup(request, {
    ops: opsToken,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 100_000,
    move: 100_000,
    creditKey: `e2e-resale-${buyer.merchantId}`,
    moveKey: `e2e-resale-move-${buyer.merchantId}`,
  });
  await call(request, buyerToken, "post", "/api/card-user/orders", {
    goodsId: String(goods.id),
    quantity: 2,
    orderNo: `RS${stamp}`,
  });

  // The supplier's commodity supply: 6 imported, 1 voided, 2 sold → 3 in stock, under the threshold of 4.
  const supplierPage = await (await browser.newContext({ locale: "zh-CN" })).newPage();
  await useSession(supplierPage, supplier, supplierToken);
  await supplierPage.goto(`/business/CommoditySupply?inpVal=${stamp}`);
  const row = supplierPage.locator(".ant-table-row").filter({ hasText: `远山视频季卡${stamp}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("低于4");
  const headers = await supplierPage.locator(".ant-table-thead th").allInnerTexts();
  const valueOf = async (title: string) =>
    (
      await row
        .locator("td")
        .nth(headers.findIndex((h) => h.trim() === title))
        .innerText()
    ).trim();
  expect([await valueOf("可用库存"), await valueOf("已售"), await valueOf("已作废"), await valueOf("已过期")]).toEqual([
    "3",
    "2",
    "1",
    "0",
  ]);
  await shot(supplierPage, "commodity-supply-cn");
  await switchLanguage(supplierPage, "English");
  await expect(supplierPage.locator(".ant-table-thead")).toContainText("Voided");
  await expect(row).toContainText("Below 4");
  await shot(supplierPage, "commodity-supply-en");

  // The buyer's resale goods: the goods with the two codes it bought; a keyword that matches nothing empties the list.
  const buyerPage = await (await browser.newContext({ locale: "zh-CN" })).newPage();
  await useSession(buyerPage, buyer, buyerToken);
  await buyerPage.goto("/business/ResaleGoods");
  const resale = buyerPage.locator(".ant-table-row").filter({ hasText: `远山视频季卡${stamp}` });
  await expect(resale).toContainText("远山卡券供应有限公司");
  await expect(resale).toContainText("¥60.00");
  const resaleHeaders = await buyerPage.locator(".ant-table-thead th").allInnerTexts();
  expect(
    (
      await resale
        .locator("td")
        .nth(resaleHeaders.findIndex((h) => h.trim() === "采购卡密数"))
        .innerText()
    ).trim(),
  ).toBe("2");
  await shot(buyerPage, "resale-goods-cn");
  await buyerPage.locator("#inpVal").fill("不存在的商品");
  await clickUntil(buyerPage.getByRole("button", { name: /查\s?询/ }), () =>
    expect(buyerPage).toHaveURL(/inpVal=/, { timeout: 5_000 }),
  );
  await expect(buyerPage.locator(".ant-table-row")).toHaveCount(0);
  await buyerPage.locator("#inpVal").fill(stamp);
  await buyerPage.getByRole("button", { name: /查\s?询/ }).click();
  await expect(resale).toHaveCount(1);
  await switchLanguage(buyerPage, "繁體中文");
  await expect(buyerPage.locator(".ant-table-thead")).toContainText("採購卡密數");
  await shot(buyerPage, "resale-goods-tw");

  // A provider the supplier bound sees the supplier's goods; before the binding it sees none.
  const provider = await registerAccount(request, { orgName: "明川服务商" });
  const granted = await request.post(`/api/ops/merchants/${provider.merchantId}/providerRole`, {
    headers: { "x-auth-token": opsToken },
    data: { grant: true },
  });
  expect(granted.status()).toBe(200);
  const providerPage = await (await browser.newContext({ locale: "zh-CN" })).newPage();
  await useSession(providerPage, provider, await loginToken(request, provider));
  await providerPage.goto("/providers/SuppliedProductsP");
  await expect(providerPage.getByText("暂无与您绑定的商户")).toBeVisible();
  await call(request, supplierToken, "post", "/api/card-servicer/brander/service", {
    providerId: provider.merchantId,
    kind: "brand",
  });
  await providerPage.reload();
  const served = providerPage.locator(".ant-table-row").filter({ hasText: `远山视频季卡${stamp}` });
  await expect(served).toContainText(`SP-${stamp}`);
  await expect(providerPage.getByTestId("served-merchant")).toHaveText(
    `远山卡券供应有限公司（ID ${supplier.merchantId}）的供货商品`,
  );
  await expect(served).toContainText("6%增值税专用发票");
  await shot(providerPage, "supplied-products-p-cn");
  await switchLanguage(providerPage, "English");
  await expect(providerPage.locator(".ant-table-thead")).toContainText("Platform rate");
  await shot(providerPage, "supplied-products-p-en");
});
