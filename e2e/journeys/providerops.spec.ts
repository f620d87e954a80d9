import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect as baseExpect, test, type Page } from "@playwright/test";
import { apiCall, dock, loginToken, registerAccount, verifyRealName } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { operatorToken } from "../support/operator";
import { clickUntil, downloadWith, fileChooserWith, openWith } from "../support/click";
import { confirmMoney } from "../support/confirm";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { DOMESTIC, sessionPage } from "../support/journey";

/**
 * The provider's remaining pages (issue 29): a service provider buys for the purchaser it serves from a
 * BatchPurchase file (one good line, one for a purchaser it does not serve) and downloads the result
 * file; reads LinkData's charts and the PurchaseFundSheet of its purchaser; the operator publishes an
 * announcement and the customer-service contact, which the provider sees behind the header's bell.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const SHOTS = process.env.PROVIDEROPS_SHOTS ?? path.resolve(import.meta.dirname, "../artifacts/screenshots");
mkdirSync(SHOTS, { recursive: true });
test.beforeEach(noteMissingFonts);

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `providerops-${name}.png`), fullPage });
}

async function batchFile(rows: string[][]): Promise<Buffer> {
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("purchases");
  ws.addRow(["采购商账号或商户ID", "商品ID", "数量", "充值账号（直充商品）", "请求号"]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test("a provider buys for its purchaser from an xlsx, downloads the result, reads LinkData and the fund sheet, and sees the announcements", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const ops = await operatorToken(request);
  const provider = await registerAccount(request, { orgName: "星链服务商有限公司" });
  await apiCall(request, ops, "post", `/api/ops/merchants/${provider.merchantId}/providerRole`, { grant: true });
  const providerToken = await loginToken(request, provider);
  const brandOwner = await registerAccount(request, { orgName: "星链品牌有限公司" });
  const brandToken = await loginToken(request, brandOwner);
  const buyer = await registerAccount(request, { orgName: "星链采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  const stranger = await registerAccount(request, { orgName: "未服务采购有限公司" });
  await apiCall(request, buyerToken, "post", "/api/card-servicer/brander/service", {
    providerId: provider.merchantId,
    kind: "vendor",
  });

  const brand = await apiCall<{ id: number }>(request, brandToken, "post", "/api/card-brander/brander/update", {
    name: `星链品牌${stamp}`,
    description: "e2e",
  });
  const goods = await apiCall<{ id: number }>(request, brandToken, "post", "/api/card-brander/product/add", {
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
  const csv = cardCsv(4, (i) => `XL${stamp}${i},PIN${i}${stamp},`, { header: "cn", end: false });
  expect(
    (
      await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=cards.csv`, {
        headers: { "x-auth-token": brandToken, "content-type": "text/csv" },
        data: Buffer.from(csv),
      })
    ).status(),
  ).toBe(200);
  await verifyRealName(request, buyerToken);
  await dock(request, { token: brandToken, merchantId: brandOwner.merchantId }, buyerToken);
  await apiCall(request, ops, "post", `/api/ops/funds/merchants/${buyer.merchantId}/credit`, {
    amount: 20_000,
    reason: "e2e",
    requestKey: `e2e-xl-${buyer.merchantId}`,
  });
  await apiCall(request, buyerToken, "post", "/api/card-user/funds/reserveTransfer", {
    amount: 20_000,
    requestKey: `e2e-xl-move-${buyer.merchantId}`,
  });

  // The operator's announcement and customer-service contact (the ops console page).
  const opsPage = await sessionPage(browser, DOMESTIC, ops, 1280, { acceptDownloads: true });
  await opsPage.goto("/ops/Announcements");
  await opsPage.getByTestId("contact-name").fill("星链客服小美");
  await opsPage.getByTestId("contact-qr").fill("/favicon.svg");
  await opsPage.getByTestId("contact-phone").fill("400-820-8820");
  await opsPage.getByTestId("contact-save").click();
  await expect(opsPage.getByText("已保存").first()).toBeVisible();
  await openWith(opsPage.getByTestId("announcement-publish"), opsPage.getByTestId("announcement-title"));
  await opsPage.getByTestId("announcement-title").fill(`系统维护通知${stamp}`);
  await opsPage.getByTestId("announcement-body").fill("平台将于今晚01:00-02:00维护，期间暂停采购。");
  await opsPage.locator(".ant-modal").getByRole("button", { name: "发布公告" }).click();
  await expect(opsPage.getByRole("cell", { name: `系统维护通知${stamp}` })).toBeVisible();
  await shot(opsPage, "ops-announcements-cn");

  // BatchPurchase: the template, then a file with one good line and one for a purchaser not served.
  const page = await sessionPage(browser, DOMESTIC, providerToken, 1280, { acceptDownloads: true });
  await page.goto("/providers/BatchPurchase");
  expect((await downloadWith(page, page.getByTestId("batch-template"))).suggestedFilename()).toBe(
    "batch-purchase-template.xlsx",
  );
  const file = {
    name: "batch.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: await batchFile([
      [buyer.merchantId, String(goods.id), "2", "", `XLB-${stamp}-1`],
      [stranger.merchantId, String(goods.id), "1", "", `XLB-${stamp}-2`],
    ]),
  };
  // Nothing is spent before the total is shown and confirmed (issue 37): 1 order of 2 units, ¥54.00.
  await confirmMoney(page, async () => (await fileChooserWith(page, page.getByTestId("batch-upload"))).setFiles(file), {
    amount: "批量采购 · ¥54.00",
    ok: "批量采购",
    look: async () => {
      await baseExpect(page.getByTestId("batch-confirm-effect")).toContainText(
        "将为采购商下1笔订单，共2件，合计¥54.00",
      );
      await baseExpect(page.getByTestId("batch-confirm-effect")).toContainText("1行将被拒绝");
      await page.setViewportSize({ width: 1280, height: 800 });
      await shot(page, "batch-confirm");
      await page.setViewportSize({ width: 1366, height: 860 });
    },
  });
  await expect(page.getByTestId("batch-summary")).toContainText("1行已下单，1行未下单");
  await expect(page.getByText("该采购商不是您服务的商户")).toBeVisible();
  await expect(page.getByRole("cell", { name: `XLB-${stamp}-1` }).first()).toBeVisible();
  await shot(page, "batch-purchase-cn");
  const resultFile = await downloadWith(page, page.getByTestId("batch-result"));
  expect(resultFile.suggestedFilename()).toMatch(/^batch-purchase-result-\d+\.xlsx$/);
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(await resultFile.path())) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  expect(sheet?.getRow(2).getCell(7).text).toBe("已下单");
  expect(sheet?.getRow(2).getCell(8).text).toBe(`XLB-${stamp}-1`);
  expect(sheet?.getRow(3).getCell(11).text).toBe("该采购商不是您服务的商户");

  // LinkData: the charts of the served purchaser's order and docking.
  await page.goto("/providers/LinkData");
  await expect(page.getByTestId("link-days-chart").locator("canvas")).toBeVisible();
  await expect(page.getByTestId("link-merchants-chart").locator("canvas")).toBeVisible();
  await expect(page.getByRole("cell", { name: `星链采购有限公司 (${buyer.merchantId})` })).toBeVisible();
  await shot(page, "link-data-cn");

  // PurchaseFundSheet: the purchaser's SUP changes, the batch order among them.
  await page.goto("/providers/PurchaseFundSheet");
  const row = page.locator(".ant-table-row").filter({ hasText: `XLB-${stamp}-1` });
  await expect(row).toContainText("星链采购有限公司");
  await expect(row).toContainText("-¥54.00");
  await shot(page, "fund-sheet-cn");

  // The header: the customer-service contact and the bell with the unread announcement.
  await openWith(page.getByTestId("header-contact"), page.getByTestId("service-contact"));
  await expect(page.getByTestId("service-contact")).toContainText("400-820-8820");
  await shot(page, "contact-cn", false);
  await clickUntil(page.getByTestId("header-contact"), () =>
    expect(page.getByTestId("service-contact")).toBeHidden({ timeout: 3_000 }),
  );
  const item = page.locator(".ant-drawer").getByText(`系统维护通知${stamp}`);
  await openWith(page.getByTestId("header-bell"), item);
  await expect(item).toBeVisible();
  await shot(page, "bell-cn", false);
  await item.click();
  await expect(page.locator(".ant-drawer").getByText("平台将于今晚01:00-02:00维护，期间暂停采购。")).toBeVisible();
});
