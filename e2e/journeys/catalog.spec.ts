import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext } from "@playwright/test";
import ExcelJS from "exceljs";
import { loginToken, registerAccount, useSession } from "../support/api";

/**
 * Catalog journey: a supplier downloads the card template, fills it (good rows and bad ones), imports
 * it, sees the stock and downloads the reject report; a purchaser filters the card-secret goods list
 * and opens a goods' details.
 */

async function call<T>(request: APIRequestContext, token: string, method: "get" | "post", path: string, data?: unknown): Promise<T> {
  const res = await request[method](path, { headers: { "x-auth-token": token }, ...(data !== undefined && { data }) });
  const body = (await res.json()) as { code: number; data: T; msg: string };
  expect(body.code, body.msg).toBe(1);
  return body.data;
}

async function sheetRows(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

test("supplier imports a filled template and reads the reject report; purchaser filters goods and opens details", async ({ page, request }, testInfo) => {
  const supplier = await registerAccount(request, { orgName: "星河卡券供应有限公司" });
  const supplierToken = await loginToken(request, supplier);
  const brandName = `旅程视频${Date.now().toString(36)}`;
  const brand = await call<{ id: number }>(request, supplierToken, "post", "/api/card-brander/brander/update", { name: brandName, description: "影音会员" });
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

  await useSession(page, supplier, supplierToken);
  await page.goto(`/business/CardImport?goodsId=${goods.id}`);
  await expect(page.getByRole("button", { name: "下载导入模板" })).toBeVisible();

  // Download the template and fill it as a supplier would: keep the header, replace the example row.
  const templateDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "下载导入模板" }).click();
  const template = await readFile((await (await templateDownload).path()) ?? "");
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

  const reportDownload = page.waitForEvent("download");
  await result.getByRole("button", { name: "下载失败报告" }).click();
  const report = await sheetRows(await readFile((await (await reportDownload).path()) ?? ""));
  expect(report.map((r) => [r[0], r[1]])).toEqual([
    ["行号", "原因"],
    [7, "卡号为空"],
    [8, "文件内重复的卡号"],
    [9, "卡密已过期"],
  ]);
  await page.screenshot({ path: testInfo.outputPath("card-import.png") });

  // The purchaser filters the card-secret goods by brand and opens the details.
  const buyer = await registerAccount(request, { orgName: "云端采购有限公司" });
  await useSession(page, buyer, await loginToken(request, buyer));
  await page.goto("/sale/CarmiGoodsList");
  await page.getByRole("combobox", { name: "品牌" }).click();
  await page.getByTitle(brandName, { exact: true }).click();
  await page.getByRole("button", { name: /查\s?询/ }).click();
  await expect(page).toHaveURL(new RegExp(`selVal=${brand.id}`));
  const rows = page.locator(".ant-table-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${brandName}月卡`);
  await rows.first().getByRole("button", { name: "详情" }).click();
  const drawer = page.locator(".ant-drawer").filter({ hasText: "商品详情" });
  await expect(drawer).toContainText("星河卡券供应有限公司");
  await expect(drawer).toContainText("¥27.00");
  await expect(drawer).toContainText("6%增值税专用发票");
  await page.screenshot({ path: testInfo.outputPath("goods-detail.png") });
});
