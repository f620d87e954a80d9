import path from "node:path";
import { expect as baseExpect, test, type Page } from "@playwright/test";
import { loginToken, registerAccount } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { operatorToken } from "../support/operator";
import { clickUntil, closeWithEscape } from "../support/click";
import { post as call, sessionPage } from "../support/journey";

/**
 * Issue 29's small gaps, in the browser: the developer portal is linked from the login landing's header
 * and from the purchaser's API page; the international supplier's home links its staff apps (the
 * verification app with its QR, the brand's app) as the domestic one does; brandManagement shows each
 * served brand's state and the binding it is served by.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts);

async function shot(page: Page, name: string): Promise<void> {
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `links-${name}.png`) });
}

test("the login landing and the purchaser's API page lead to the developer portal", async ({ browser, request }) => {
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto("/login");
  // The light landing's header has it, and so has the app's header that replaces it.
  const link = page.getByTestId("header-developer");
  await expect(link).toHaveText("开发者");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(link).toBeVisible();
  await shot(page, "login-cn");
  // An Escape before the opening dialog has the focus is lost; the dialog would cover the link.
  await closeWithEscape(page, page.getByRole("dialog"));
  await expect(page.getByRole("dialog")).toBeHidden();
  await clickUntil(link, () => expect(page).toHaveURL(/\/Developer$/, { timeout: 5_000 }));
  await expect(page.getByText("开发者中心").first()).toBeVisible();

  const buyer = await registerAccount(request);
  const buyerPage = await sessionPage(browser, buyer, await loginToken(request, buyer));
  await buyerPage.goto("/sale/ApiSecurity");
  const portal = buyerPage.getByTestId("developer-portal-link");
  await expect(portal).toBeVisible();
  await shot(buyerPage, "api-security-cn");
  await clickUntil(portal, () => expect(buyerPage).toHaveURL(/\/Developer$/, { timeout: 5_000 }));
});

test("the international supplier's home links the verification app and the brand's app, as the domestic one does", async ({
  browser,
  request,
}) => {
  const intl = await registerAccount(request, { version: "international" });
  const page = await sessionPage(browser, intl, await loginToken(request, intl), 1280, { locale: "zh-TW" });
  await page.goto("/international/business/Home");
  const apps = page.getByTestId("staff-apps");
  await expect(apps).toBeVisible();
  await expect(apps.getByTestId("verify-qr")).toBeVisible();
  await expect(apps.locator('a[href="/verify"]')).toBeVisible();
  // Issue 40 item 17: the brand's app is its mall codes, as on the domestic home (no longer the brand chat).
  await expect(apps.locator('a[href="/international/business/BrandChat"]')).toHaveCount(0);
  await apps.scrollIntoViewIfNeeded();
  await shot(page, "intl-home-tw");
  await clickUntil(apps.locator('a[href="/international/business/brandMallCode"]'), () =>
    expect(page).toHaveURL(/\/international\/business\/brandMallCode$/, { timeout: 5_000 }),
  );
  await expect(page.locator(".ant-menu-item-selected")).toContainText("商城碼");
  await expect(page.getByRole("heading", { name: "歡迎使用供應商後臺" })).toHaveCount(0);
  await shot(page, "intl-mall-codes-tw");

  // The international purchaser's menu has the equity card mall, and its mini-program mall the SMS packages
  // and the docking (marketplace screens 3 and 15).
  const buyer = await registerAccount(request, { version: "international" });
  const buyerPage = await sessionPage(browser, buyer, await loginToken(request, buyer), 1280, { locale: "zh-TW" });
  await buyerPage.goto("/international/sale/Home");
  // The setup checklist's next step is in this area, not the domestic one.
  await expect(buyerPage.getByTestId("setup-mall").getByRole("link")).toHaveAttribute(
    "href",
    "/international/sale/EquityApplet",
  );
  await clickUntil(buyerPage.getByRole("menuitem", { name: "一卡通商城" }), () =>
    expect(buyerPage).toHaveURL(/\/international\/sale\/OneCardMall$/, { timeout: 5_000 }),
  );
  await expect(buyerPage.locator(".ant-empty")).toBeVisible();
  await shot(buyerPage, "intl-card-mall-tw");
  await buyerPage.goto("/international/sale/EquityApplet");
  const mallTabs = buyerPage.getByRole("tab");
  await expect(mallTabs).toHaveText(["小程序商城", "短信發送記錄", "供應商對接"]);
  await buyerPage.getByRole("tab", { name: "短信發送記錄" }).click();
  await expect(buyerPage).toHaveURL(/tab=sms$/);
  await expect(buyerPage.getByTestId("sms-remaining")).toBeVisible();
  await shot(buyerPage, "intl-mall-sms-tw");
  await buyerPage.getByRole("tab", { name: "供應商對接" }).click();
  await expect(buyerPage).toHaveURL(/tab=docking$/);
  await shot(buyerPage, "intl-mall-docking-tw");

  const domestic = await registerAccount(request);
  const home = await sessionPage(browser, domestic, await loginToken(request, domestic));
  await home.goto("/business/Home");
  const domesticApps = home.getByTestId("staff-apps");
  await expect(domesticApps.getByTestId("verify-qr")).toBeVisible();
  await expect(domesticApps.locator('a[href="/business/brandMallCode"]')).toBeVisible();
  await expect(domesticApps.locator('a[href="/business/BrandChat"]')).toHaveCount(0);
});

test("brandManagement shows each served brand's state and its binding", async ({ browser, request }) => {
  const stamp = Date.now().toString(36);
  const ops = await operatorToken(request);
  const provider = await registerAccount(request, { orgName: "链接服务商有限公司" });
  await call(request, ops, `/api/ops/merchants/${provider.merchantId}/providerRole`, { grant: true });
  const providerToken = await loginToken(request, provider);
  const owner = await registerAccount(request, { orgName: "链接品牌有限公司" });
  const ownerToken = await loginToken(request, owner);
  await call(request, ownerToken, "/api/card-servicer/brander/service", {
    providerId: provider.merchantId,
    kind: "brand",
  });
  const selling = await call<{ id: number }>(request, ownerToken, "/api/card-brander/brander/update", {
    name: `在售品牌${stamp}`,
    description: "e2e",
  });
  await call(request, ownerToken, "/api/card-brander/product/add", {
    brandId: selling.id,
    equityType: "video",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `链接月卡${stamp}`,
    businessType: "card_secret",
    faceValue: 3000,
    code: `LK-${stamp}`,
    price: 2700,
    settlementPrice: 2500,
  });
  await call(request, ownerToken, "/api/card-brander/brander/update", { name: `空品牌${stamp}`, description: "e2e" });

  const page = await sessionPage(browser, provider, providerToken);
  await page.goto("/providers/brandManagement");
  const sellingRow = page.locator(".ant-table-row").filter({ hasText: `在售品牌${stamp}` });
  await expect(sellingRow).toContainText("在售");
  await expect(sellingRow).toContainText("品牌商绑定");
  await expect(page.locator(".ant-table-row").filter({ hasText: `空品牌${stamp}` })).toContainText("暂无商品");
  await shot(page, "brand-management-cn");
});
