import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import path from "node:path";
import { loginToken, registerAccount, type Account } from "../support/api";
import { documentPng } from "../support/images";
import { E2E_OPERATOR } from "../support/operator";
import { clickUntil, confirmPopconfirm, opened } from "../support/click";
import { noteMissingFonts } from "../support/fonts";

/**
 * Journey: an operator grants a merchant the service-provider role, a brand binds that provider, the
 * provider logs in, chooses the provider system, sees its home and the brand in its lists, opens the
 * brand's context and files the brand's real-name verification with the brand token, which the brand
 * then revokes without ending the provider's own session.
 */
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts); // screenshots for people: a missing font is noted on the result
/** A screenshot once the page has settled: no request pending and the loading overlay gone. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `providers-${name}.png`), fullPage: true });
}
const header = (page: Page) => page.locator(".ant-layout-header");

async function realNameInfo(request: APIRequestContext, token: string) {
  const res = await request.get("/api/card-brander/realNameInfo", { headers: { "x-auth-token": token } });
  return ((await res.json()) as { data: { merchantId: string; latest: { state: string; companyName: string } | null } })
    .data;
}

async function grantProvider(request: APIRequestContext, merchantId: string) {
  const login = await request.post("/api/card-user/login", {
    data: { email: E2E_OPERATOR.email, password: E2E_OPERATOR.password },
  });
  const opsToken = ((await login.json()) as { data: { token: string } }).data.token;
  const granted = await request.post(`/api/ops/merchants/${merchantId}/providerRole`, {
    headers: { "x-auth-token": opsToken },
    data: { grant: true },
  });
  expect(granted.status()).toBe(200);
}

/** The merchant binds the provider as a brand (business/ServiceBind) or as a merchant (sale/ServiceBind). */
async function bind(
  request: APIRequestContext,
  merchant: Account,
  providerId: string,
  kind: "brand" | "vendor" = "brand",
) {
  const res = await request.post("/api/card-servicer/brander/service", {
    headers: { "x-auth-token": await loginToken(request, merchant) },
    data: { providerId, kind },
  });
  expect(res.status()).toBe(200);
}

async function loginThroughDialog(page: Page, account: Account) {
  await page.goto("/login");
  const login = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  // Its login button clicked while the dialog still opens could be lost.
  await opened(login);
  await login.locator("#email").fill(account.email);
  await login.locator("#password").fill(account.password);
  await login.getByRole("button", { name: /登\s?录/ }).click();
  await expect(page).toHaveURL(/\/SelectUser$/);
}

test("an operator makes a merchant a provider; a brand binds it; the provider sees its home and the brand", async ({
  page,
  request,
  browser,
}) => {
  const provider = await registerAccount(request, { orgName: "瀚海服务商" });
  const brand = await registerAccount(request, { orgName: "青禾品牌" });
  const stranger = await registerAccount(request, { orgName: "路人甲公司" });
  await grantProvider(request, provider.merchantId);
  await bind(request, brand, provider.merchantId);
  const seller = await registerAccount(request, { orgName: "松风商户" });
  await bind(request, seller, provider.merchantId, "vendor");

  // Without the role the chooser has no provider card; a merchant that holds it gets one.
  const plainContext = await browser.newContext({ locale: "zh-CN" });
  const plain = await plainContext.newPage();
  await loginThroughDialog(plain, stranger);
  await expect(plain.getByTestId("chooser-sale")).toBeVisible();
  await expect(plain.getByTestId("chooser-providers")).toHaveCount(0);
  await plain.goto("/providers/Home");
  await expect(plain.getByText("无法进入此系统")).toBeVisible();
  await expect(plain.getByText("您的组织尚未开通「服务商」系统。")).toBeVisible();
  await shot(plain, "no-role-cn");
  await plainContext.close();

  await loginThroughDialog(page, provider);
  // The purchaser system is chosen until the provider card is: a lost click would enter the wrong one.
  await clickUntil(page.getByTestId("chooser-providers"), () =>
    expect(page.getByTestId("chooser-providers")).toHaveAttribute("aria-checked", "true", { timeout: 3_000 }),
  );
  await shot(page, "chooser-cn");
  await page.getByRole("button", { name: "进入系统" }).click();
  await expect(page).toHaveURL(/\/providers\/Home$/);
  await expect(page.getByText("欢迎使用服务商后台")).toBeVisible();
  await expect(page.getByTestId("merchant-id")).toHaveText(provider.merchantId);
  const menu = page.locator(".ant-layout-sider .ant-menu");
  for (const name of ["首页", "企业信息", "实名认证", "品牌列表", "商户列表"]) {
    await expect(menu.getByRole("menuitem", { name })).toBeVisible();
  }
  await shot(page, "home-cn");

  await clickUntil(menu.getByRole("menuitem", { name: "品牌列表" }), () =>
    expect(page).toHaveURL(/\/providers\/BrandsList/, { timeout: 5_000 }),
  );
  const row = page.locator(".ant-table-row").filter({ hasText: "青禾品牌" });
  await expect(row).toContainText(brand.merchantId);
  await expect(row).toContainText("未实名");
  await expect(page.locator(".ant-table-row")).toHaveCount(1);
  await shot(page, "brands-cn");

  // The brand's context: the brand token files the brand's real-name verification, not the provider's.
  await clickUntil(row.getByTestId(`enter-brand-${brand.merchantId}`), () =>
    expect(page).toHaveURL(new RegExp(`/RealNamePage\\?sellerBrand=${brand.merchantId}$`), { timeout: 5_000 }),
  );
  await expect(page.getByTestId("brand-context")).toContainText("青禾品牌");
  await expect(header(page)).toContainText(provider.email);
  const licence = documentPng("名称: 青禾品牌有限公司\n统一社会信用代码: 91310000MA1FL4XQ2K\n法定代表人: 李青");
  await page
    .getByTestId("doc-license")
    .locator("input[type=file]")
    .setInputFiles({ name: "licence.png", mimeType: "image/png", buffer: licence });
  await expect(page.locator("#companyName")).toHaveValue("青禾品牌有限公司");
  for (const kind of ["id_front", "id_back"]) {
    await page
      .getByTestId(`doc-${kind}`)
      .locator("input[type=file]")
      .setInputFiles({ name: `${kind}.png`, mimeType: "image/png", buffer: documentPng() });
    await expect(page.getByTestId(`doc-${kind}`).locator("img")).toBeVisible();
  }
  await page.locator("#legalIdNumber").fill("11010519491231002X");
  await page.getByTestId("realname-submit").click();
  await expect(page.getByText("您的认证申请正在审核中")).toBeVisible();
  await shot(page, "brand-realname-cn");
  const brandToken = await loginToken(request, brand);
  expect((await realNameInfo(request, brandToken)).latest).toMatchObject({
    state: "pending",
    companyName: "青禾品牌有限公司",
  });
  const providerToken = await page.evaluate(() => window.localStorage.getItem("x-auth-token"));
  expect((await realNameInfo(request, providerToken ?? "")).latest).toBeNull();

  // The brand revokes the token: the page says so, and the provider stays signed in.
  const revoked = await request.post("/api/card-servicer/brander/service/revokeTokens", {
    headers: { "x-auth-token": brandToken },
  });
  expect(revoked.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("brand-context-missing")).toContainText("品牌令牌已失效");
  await expect(page).toHaveURL(/\/RealNamePage\?sellerBrand=/);
  await expect(header(page)).toContainText(provider.email);
  await clickUntil(page.getByRole("button", { name: "返回品牌列表" }), () =>
    expect(page).toHaveURL(/\/providers\/BrandsList$/, { timeout: 5_000 }),
  );

  // The search goes to the server: a name no bound merchant has finds nothing.
  await page.getByPlaceholder("商户号或名称").first().fill("路人甲");
  await page.getByRole("button", { name: /查\s?询/ }).click();
  await expect(page.locator(".ant-table-row")).toHaveCount(0);

  await clickUntil(menu.getByRole("menuitem", { name: "企业信息" }), () =>
    expect(page.locator("#companyName")).toHaveValue("瀚海服务商", { timeout: 5_000 }),
  );
  await shot(page, "essential-info-cn");
  await clickUntil(menu.getByRole("menuitem", { name: "实名认证" }), () =>
    expect(page).toHaveURL(/\/providers\/AuthenticationP$/, { timeout: 5_000 }),
  );
  await expect(page.getByTestId("realname-submit")).toBeVisible();

  // In English, the merchant list: the merchant bound as a vendor, not the brand (bindings keep their kind).
  await page.evaluate(() => window.localStorage.setItem("lang", "en"));
  await page.goto("/providers/VendorList");
  await expect(page.getByText("The merchants you serve")).toBeVisible();
  const vendor = page.locator(".ant-table-row").filter({ hasText: "松风商户" });
  await expect(vendor).toContainText("Not real-named");
  await expect(vendor.getByTestId(`enter-brand-${seller.merchantId}`)).toHaveCount(0);
  await expect(page.locator(".ant-table-row")).toHaveCount(1);
  await shot(page, "vendors-en");
  await page.goto("/providers/Home");
  await expect(page.getByText("Welcome to the service provider console")).toBeVisible();
  await shot(page, "home-en");
  await page.goto("/providers/BrandsList");
  await clickUntil(page.getByTestId(`enter-brand-${brand.merchantId}`), () =>
    expect(page.getByTestId("brand-context")).toContainText("You are acting as service provider for brand 青禾品牌", {
      timeout: 5_000,
    }),
  );
  await expect(page.getByText("青禾品牌有限公司")).toBeVisible();
  await shot(page, "brand-realname-en");
  // Ending the brand's binding from the brand list removes it; the vendor's binding stays.
  await page.goto("/providers/BrandsList");
  const brandRow = page.locator(".ant-table-row").filter({ hasText: "青禾品牌" });
  await confirmPopconfirm(page, brandRow.getByRole("button", { name: "Unbind" }), "Confirm");
  await expect(page.getByText("Binding ended")).toBeVisible();
  await expect(page.locator(".ant-table-row")).toHaveCount(0);
  // The empty list says where the other bindings are (issue 25 item 7).
  await expect(page.getByTestId("served-elsewhere")).toContainText("1 bound you as a merchant");
  const after = await request.get("/api/card-servicer/brander/service?kind=brand", {
    headers: { "x-auth-token": await loginToken(request, brand) },
  });
  expect(((await after.json()) as { data: unknown }).data).toBeNull();
  await page.goto("/providers/VendorList");
  await expect(page.locator(".ant-table-row").filter({ hasText: "松风商户" })).toHaveCount(1);
});

test("inside a brand with the brand token: face value cards, discount cards and the brand's authorisations", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  const provider = await registerAccount(request, { orgName: "云帆服务商" });
  const brand = await registerAccount(request, { orgName: "晨光礼卡" });
  const buyer = await registerAccount(request, { orgName: "晨光合作采购商" });
  await grantProvider(request, provider.merchantId);
  await bind(request, brand, provider.merchantId);
  const brandToken = await loginToken(request, brand);
  const post = async <T>(url: string, data: unknown): Promise<T> => {
    const res = await request.post(url, { headers: { "x-auth-token": brandToken }, data });
    const body = (await res.json()) as { code: number; msg: string; data: T };
    expect(body.code, body.msg).toBe(1);
    return body.data;
  };
  // The brand's card products (the one-card module's): one sold at face value, one below it.
  const card = (name: string, faceValue: number, salePrice: number) =>
    post("/api/card-brander/onecard/products", {
      kind: salePrice === faceValue ? "face_value" : "discount",
      name,
      faceValue,
      salePrice,
      named: true,
      validity: { kind: "none" },
      rechargeAllowed: true,
    });
  await card(`晨光礼品卡100元${stamp}`, 10000, 10000);
  await card(`晨光折扣卡100元${stamp}`, 10000, 9500);

  await page.goto("/login");
  const login = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  await opened(login);
  await login.locator("#email").fill(provider.email);
  await login.locator("#password").fill(provider.password);
  await login.getByRole("button", { name: /登\s?录/ }).click();
  await expect(page).toHaveURL(/\/SelectUser$/);
  await clickUntil(page.getByTestId("chooser-providers"), () =>
    expect(page.getByTestId("chooser-providers")).toHaveAttribute("aria-checked", "true", { timeout: 3_000 }),
  );
  await page.getByRole("button", { name: "进入系统" }).click();
  await expect(page).toHaveURL(/\/providers\/Home$/);

  // Face value cards: choose the brand, which exchanges the brand token, then the brand's cards at face value.
  const openBrand = page.getByTestId(`open-brand-${brand.merchantId}`);
  await clickUntil(page.locator(".ant-layout-sider .ant-menu").getByRole("menuitem", { name: "面值卡" }), () =>
    expect(openBrand).toBeVisible({ timeout: 5_000 }),
  );
  await clickUntil(openBrand, () =>
    expect(page).toHaveURL(new RegExp(`/providers/FaceValueCardP\\?sellerBrand=${brand.merchantId}$`), {
      timeout: 5_000,
    }),
  );
  await expect(page.getByTestId("brand-context")).toContainText("晨光礼卡");
  const rows = page.locator(".ant-table-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`晨光礼品卡100元${stamp}`);
  await expect(rows.first()).toContainText("¥100.00");
  await shot(page, "face-value-cards-cn");

  // Discount cards of the same brand, with the same token (this tab), in English.
  await page.evaluate(() => window.localStorage.setItem("lang", "en"));
  await page.goto(`/providers/DiscountCardP?sellerBrand=${brand.merchantId}`);
  await expect(page.getByTestId("brand-context")).toContainText(
    "You are acting as service provider for brand 晨光礼卡",
  );
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`晨光折扣卡100元${stamp}`);
  await expect(rows.first()).toContainText("¥95.00");
  await shot(page, "discount-cards-en");
  await page.goto(`/providers/FaceValueCardP?sellerBrand=${brand.merchantId}`);
  await expect(page.locator(".ant-table-thead")).toContainText("Face value");
  await expect(rows.first()).toContainText(`晨光礼品卡100元${stamp}`);
  await shot(page, "face-value-cards-en");

  // The brand's authorisations: the provider authorises a purchaser as the brand.
  await page.goto(`/providers/BrandAuthorizationP?sellerBrand=${brand.merchantId}`);
  await page.locator("#granteeId").fill(buyer.merchantId);
  await page.getByRole("button", { name: "Authorise" }).click();
  await expect(page.locator(".ant-table-row").filter({ hasText: "晨光合作采购商" })).toContainText("Active");
  await shot(page, "brand-authorization-en");
  const list = await post<{ list: { granteeId: string }[] }>("/api/card-user/brandAuth/list", { side: "brand" });
  expect(list.list.map((a) => a.granteeId)).toContain(buyer.merchantId);
  await page.evaluate(() => window.localStorage.setItem("lang", "cn"));
  await page.reload();
  await expect(page.locator(".ant-table-row").filter({ hasText: "晨光合作采购商" })).toContainText("生效中");
  await shot(page, "brand-authorization-cn");
  await page.goto(`/providers/DiscountCardP?sellerBrand=${brand.merchantId}`);
  await expect(rows.first()).toContainText(`晨光折扣卡100元${stamp}`);
  await shot(page, "discount-cards-cn");

  // The brand revokes the token: the page says so; in Chinese too.
  await post("/api/card-servicer/brander/service/revokeTokens", {});
  await page.goto(`/providers/FaceValueCardP?sellerBrand=${brand.merchantId}`);
  await expect(page.getByTestId("brand-context-missing")).toContainText("品牌令牌已失效");
  await shot(page, "brand-token-ended-cn");
});
