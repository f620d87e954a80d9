import { expect, test, type Browser, type Page } from "@playwright/test";
import path from "node:path";
import {
  loginToken,
  openRegisterFromLogin,
  PASSWORD,
  readCode,
  registerAccount,
  uniqueEmail,
  useSession,
} from "../support/api";
import { documentPng } from "../support/images";
import { E2E_OPERATOR } from "../support/operator";
import { noteMissingFonts } from "../support/fonts";
import { clickUntil, closeWithEscape, opened, openWith } from "../support/click";

/**
 * Journey: a new purchaser registers, uploads its licence and ID, confirms the fields and submits; an
 * operator approves in /ops; the purchaser's header shows real-named. Then API permission is opened by
 * the operator and the secret rotated. A sub-account logs in and sees only the pages it was given.
 */
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts); // screenshots for people: a missing font is noted on the result
/** A screenshot once the page has settled: no request pending and the loading overlay gone. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `onboarding-${name}.png`), fullPage: true });
}
const header = (page: Page) => page.locator(".ant-layout-header");

async function operatorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await page.goto("/ops/Reviews");
  await expect(page).toHaveURL(/\/ops\/login$/);
  await page.getByTestId("ops-email").fill(E2E_OPERATOR.email);
  await page.getByTestId("ops-password").fill(E2E_OPERATOR.password);
  await clickUntil(page.getByTestId("ops-login"), () => expect(page).toHaveURL(/\/ops\/Reviews/, { timeout: 10_000 }));
  return page;
}

async function openReview(ops: Page, queue: "realName" | "apiPermission", merchantId: string) {
  await ops.goto(`/ops/Reviews?queue=${queue}`);
  const drawer = ops.locator(".ant-drawer");
  await openWith(ops.getByTestId(`review-${merchantId}`), drawer);
  return drawer;
}

test("register, verify the company, operator approves, header shows real-named; API opened and secret rotated", async ({
  page,
  request,
  browser,
}) => {
  // The whole onboarding of one purchaser in two browsers (registration to API secret by SMS): longer than one default timeout.
  test.setTimeout(180_000);
  const email = uniqueEmail("kyc");
  await page.goto("/login");
  const dialog = await openRegisterFromLogin(page, "立即注册", "注册企业账户");
  await dialog.locator("#email").fill(email);
  await dialog.getByRole("button", { name: "发送验证码" }).click();
  await dialog.locator("#emailCode").fill(await readCode(request, email));
  await dialog.locator("#password").fill(PASSWORD);
  await dialog.locator("#confirmPassword").fill(PASSWORD);
  await dialog.locator("#orgName").fill("蓝港贸易");
  await dialog.locator("#agree").check();
  // Registered, the login dialog replaces this one (a second click is refused: the email is taken).
  const login = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  await clickUntil(dialog.getByRole("button", { name: /注\s?册/ }), () =>
    expect(login).toBeVisible({ timeout: 10_000 }),
  );
  await opened(login);
  await login.locator("#password").fill(PASSWORD);
  await clickUntil(login.getByRole("button", { name: /登\s?录/ }), () =>
    expect(page).toHaveURL(/\/SelectUser$/, { timeout: 10_000 }),
  );
  await page.getByTestId("chooser-sale").click();
  await clickUntil(page.getByRole("button", { name: "进入系统" }), () =>
    expect(page).toHaveURL(/\/sale\/Home$/, { timeout: 5_000 }),
  );
  await expect(header(page)).toContainText("未实名");
  const merchantId = (await page.getByTestId("merchant-id").textContent()) ?? "";

  // Upload: the licence carries a text layer the local OCR reads; the ID photo has none.
  await clickUntil(page.getByRole("menuitem", { name: "实名认证" }), () =>
    expect(page).toHaveURL(/\/sale\/Authentication$/, { timeout: 5_000 }),
  );
  const licence = documentPng("名称: 蓝港贸易有限公司\n统一社会信用代码: 91310000MA1FL4XQ2K\n法定代表人: 张伟");
  await page
    .getByTestId("doc-license")
    .locator("input[type=file]")
    .setInputFiles({ name: "licence.png", mimeType: "image/png", buffer: licence });
  await expect(page.getByTestId("ocr-note")).toContainText("已从图片识别");
  await expect(page.locator("#companyName")).toHaveValue("蓝港贸易有限公司");
  await expect(page.locator("#licenseNumber")).toHaveValue("91310000MA1FL4XQ2K");
  await expect(page.locator("#legalName")).toHaveValue("张伟");
  for (const kind of ["id_front", "id_back"]) {
    await page
      .getByTestId(`doc-${kind}`)
      .locator("input[type=file]")
      .setInputFiles({ name: `${kind}.png`, mimeType: "image/png", buffer: documentPng() });
    await expect(page.getByTestId(`doc-${kind}`).locator("img")).toBeVisible();
  }
  await expect(page.getByTestId("ocr-note")).toContainText("未能从图片识别出文字");

  // The ID number is typed by hand; a wrong one is refused by the §5 validator.
  await page.locator("#legalIdNumber").fill("1101051949");
  await page.getByTestId("realname-submit").click();
  await expect(page.getByText("请输入正确的身份证号（15或18位）")).toBeVisible();
  await page.locator("#legalIdNumber").fill("11010519491231002X");
  await shot(page, "authentication-filled-cn");
  await page.getByTestId("realname-submit").click();
  await expect(page.getByText("已提交审核")).toBeVisible();
  await expect(page.getByText("您的认证申请正在审核中")).toBeVisible();
  await shot(page, "authentication-pending-cn");

  // The operator approves it in /ops.
  const ops = await operatorPage(browser);
  const review = await openReview(ops, "realName", merchantId);
  await expect(review.getByTestId("field-legalIdNumber")).toHaveText("11010519491231002X");
  await expect(review.locator("img")).toHaveCount(3);
  await shot(ops, "ops-review-cn");
  await review.getByTestId("approve").click();
  await expect(ops.getByText("已通过").first()).toBeVisible();

  await page.reload();
  await expect(header(page)).toContainText("已实名");
  await expect(page.getByTestId("realname-state")).toHaveText("已实名");

  // The reserve-fund authorisation: consent, phone, SMS code (with the resend countdown), signed copy kept.
  const sign = page.locator(".ant-modal").filter({ hasText: "备付金账户授权书" });
  await openWith(page.getByTestId("agreement-open-reserveAuthorisation"), sign);
  await sign.getByTestId("agreement-sign").click();
  await expect(sign.getByText("请阅读并勾选同意协议")).toBeVisible();
  await sign.getByTestId("agreement-consent").check();
  const phone = `139${String(Date.now()).slice(-8)}`;
  await sign.getByTestId("agreement-phone").fill(phone);
  await sign.getByRole("button", { name: "发送验证码" }).click();
  await expect(sign.getByRole("button", { name: /秒后重发/ })).toBeDisabled();
  await sign.locator("#smsCode").fill(await readCode(request, phone));
  await shot(page, "agreement-dialog-cn");
  await sign.getByTestId("agreement-sign").click();
  await expect(page.getByText("签署成功")).toBeVisible();
  await expect(page.getByTestId("agreement-reserveAuthorisation")).toContainText("已签署");
  const signed = page.locator(".ant-modal").filter({ hasText: "SHA-256" });
  await openWith(
    page.getByTestId("agreement-reserveAuthorisation").getByRole("button", { name: "查看已签署文件" }),
    signed,
  );
  await expect(signed).toContainText(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
  await shot(page, "agreement-signed-cn");
  // A dialog left open covers the menu: the click below would wait for the journey's timeout.
  await closeWithEscape(page, signed);

  // API permission: requested by the purchaser, opened by the operator; then the secret is rotated.
  await clickUntil(page.getByRole("menuitem", { name: "API安全" }), () =>
    expect(page.locator("#purpose")).toBeVisible({ timeout: 5_000 }),
  );
  await page.locator("#purpose").fill("自有系统自动下单直充商品");
  await page.getByTestId("api-apply").click();
  await expect(page.getByText("您的申请正在审核中")).toBeVisible();
  const apiReview = await openReview(ops, "apiPermission", merchantId);
  await apiReview.getByTestId("approve").click();
  await expect(ops.getByText("已通过").first()).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("api-permission")).toHaveText("已开通");
  const secretOf = async (action: "view" | "reset") => {
    await openWith(page.getByTestId(`secret-${action}`), page.getByTestId("secret-password"));
    await page.getByTestId("secret-password").fill(PASSWORD);
    await page.getByTestId("secret-confirm").click();
    // A bounded wait (resetting is not clicked twice): the text read below would wait for the journey's timeout.
    await expect(page.getByTestId("api-secret")).toBeVisible();
    const secret = (await page.getByTestId("api-secret").textContent()) ?? "";
    return secret;
  };
  // "Copied" closes the secret; left open, it would cover the next button.
  const copied = () =>
    clickUntil(page.getByRole("button", { name: "已复制" }), () =>
      expect(page.getByRole("button", { name: "已复制" })).toBeHidden({ timeout: 3_000 }),
    );
  const first = await secretOf("view");
  expect(first.length).toBeGreaterThan(20);
  await copied();
  const rotated = await secretOf("reset");
  expect(rotated).not.toBe(first);
  await shot(page, "api-secret-shown-cn");
  await copied();
  expect(await secretOf("view")).toBe(rotated);
  await copied();
  await shot(page, "api-opened-cn");

  // The secret again by SMS code: without a bound phone the dialog says so; after binding one, the code
  // sent to it (read from the dev outbox) opens the secret.
  await openWith(page.getByTestId("secret-view"), page.getByTestId("secret-proof"));
  // The choice is made again if a click reached the dialog while it was still opening.
  await expect(async () => {
    await page.getByTestId("secret-proof").getByText("短信验证码").click({ timeout: 5_000 });
    await expect(page.getByTestId("secret-no-phone")).toContainText("请先在首页绑定手机号", { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole("button", { name: /取\s?消/ }).click();
  const token = (await page.evaluate(() => window.localStorage.getItem("x-auth-token"))) ?? "";
  const smsPhone = `137${String(Date.now()).slice(-8)}`;
  await request.post("/api/card-user/sendSms", {
    headers: { "x-auth-token": token },
    data: { phone: smsPhone, scene: "bindPhone" },
  });
  const bound = await request.put("/api/card-user/userPhone", {
    headers: { "x-auth-token": token },
    data: { phone: smsPhone, smsCode: await readCode(request, smsPhone) },
  });
  expect(bound.status()).toBe(200);
  await page.reload();
  await openWith(page.getByTestId("secret-view"), page.getByTestId("secret-proof"));
  await clickUntil(page.getByTestId("secret-proof").getByText("短信验证码"), () =>
    expect(page.getByTestId("secret-phone")).toHaveValue(smsPhone, { timeout: 3_000 }),
  );
  await page.getByRole("button", { name: "发送验证码" }).click();
  await page.locator("#smsCode").fill(await readCode(request, smsPhone));
  await shot(page, "api-view-sms-cn");
  await page.getByTestId("secret-confirm").click();
  await expect(page.getByTestId("api-secret")).toHaveText(rotated);
  await copied();
  await page.evaluate(() => window.localStorage.setItem("lang", "en"));
  await page.reload();
  await openWith(page.getByTestId("secret-view"), page.getByTestId("secret-proof"));
  await clickUntil(page.getByTestId("secret-proof").getByText("SMS code"), () =>
    expect(page.getByText("Your bound mobile number")).toBeVisible({ timeout: 3_000 }),
  );
  await shot(page, "api-view-sms-en");
  await page.getByRole("button", { name: /Cancel/ }).click();

  // The audit log lists both decisions; the console in English too.
  await ops.goto("/ops/AuditLog");
  await expect(ops.getByText("实名通过").first()).toBeVisible();
  await expect(ops.getByText("开通API权限").first()).toBeVisible();
  await shot(ops, "ops-audit-cn");
  await ops.evaluate(() => window.localStorage.setItem("lang", "en"));
  await ops.goto(`/ops/Merchants?inpVal=${merchantId}`);
  await expect(ops.getByText("Real-named").first()).toBeVisible();
  await shot(ops, "ops-merchants-en");
  await ops.goto("/ops/AuditLog");
  await expect(ops.getByText("Real-name approved").first()).toBeVisible();
  await shot(ops, "ops-audit-en");
  await ops.context().close();
});

test("a sub-account logs in with its own password and sees only its pages", async ({ page, request, browser }) => {
  const owner = await registerAccount(request, { orgName: "子账号测试公司" });
  await useSession(page, owner, await loginToken(request, owner));
  await page.goto("/sale/SubAccounts");
  const subEmail = uniqueEmail("clerk");
  const modal = page.locator(".ant-modal").filter({ hasText: "新增子账号" });
  await openWith(page.getByRole("button", { name: "新增子账号" }), modal);
  await modal.getByTestId("sub-email").fill(subEmail);
  await modal.getByTestId("sub-name").fill("李店员");
  await modal.getByTestId("sub-password").fill(PASSWORD);
  await modal.getByTestId("menu-sale/ApiSecurity").check();
  await shot(page, "sub-add-cn");
  await modal.getByTestId("sub-save").click();
  await expect(page.locator(".ant-table-row").filter({ hasText: subEmail })).toBeVisible();
  await shot(page, "sub-list-cn");

  const context = await browser.newContext({ locale: "zh-CN" });
  const sub = await context.newPage();
  await sub.goto("/login");
  const login = sub.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  await opened(login);
  await login.locator("#email").fill(subEmail);
  await login.locator("#password").fill(PASSWORD);
  await clickUntil(login.getByRole("button", { name: /登\s?录/ }), () =>
    expect(sub).toHaveURL(/\/SelectUser$/, { timeout: 10_000 }),
  );
  await sub.getByTestId("chooser-sale").click();
  await clickUntil(sub.getByRole("button", { name: "进入系统" }), () =>
    expect(sub).toHaveURL(/\/sale\/Home$/, { timeout: 5_000 }),
  );
  const menu = sub.locator(".ant-layout-sider .ant-menu");
  await expect(menu.getByRole("menuitem", { name: "API安全" })).toBeVisible();
  await expect(menu.getByRole("menuitem")).toHaveCount(2);
  await expect(menu.getByRole("menuitem", { name: "企业信息" })).toHaveCount(0);
  await shot(sub, "sub-menu-cn");
  // The server agrees: the profile call is refused for this sub-account.
  const token = await sub.evaluate(() => window.localStorage.getItem("x-auth-token"));
  const refused = await request.get("/api/card-brander/brander/profile", { headers: { "x-auth-token": token ?? "" } });
  expect(refused.status()).toBe(403);
  await context.close();
});

test("binds a service provider and files a commitment letter", async ({ page, request }) => {
  const provider = await registerAccount(request, { orgName: "瀚海服务商" });
  const login = await request.post("/api/card-user/login", {
    data: { email: E2E_OPERATOR.email, password: E2E_OPERATOR.password },
  });
  const opsToken = ((await login.json()) as { data: { token: string } }).data.token;
  const granted = await request.post(`/api/ops/merchants/${provider.merchantId}/providerRole`, {
    headers: { "x-auth-token": opsToken },
    data: { grant: true },
  });
  expect(granted.status()).toBe(200);

  const buyer = await registerAccount(request, { orgName: "绑定测试公司" });
  await useSession(page, buyer, await loginToken(request, buyer));
  await page.goto("/sale/ServiceBind");
  await page.getByTestId("provider-id").fill(buyer.merchantId);
  await page.getByRole("button", { name: /绑\s?定/ }).click();
  await expect(page.getByText("不能绑定自己为服务商")).toBeVisible();
  await page.getByTestId("provider-id").fill(provider.merchantId);
  await page.getByRole("button", { name: /绑\s?定/ }).click();
  await expect(page.getByTestId("service-binding")).toContainText("瀚海服务商");
  // Bound from the seller's area: as a merchant (the provider's merchant list, not its brand list).
  await expect(page.getByTestId("service-binding")).toContainText("商户（服务商商户列表）");
  await shot(page, "service-bind-cn");

  // The provider sees the purchaser among the merchants it serves, and not among its brands.
  const providerToken = await loginToken(request, provider);
  const served = async (kind: string) =>
    JSON.stringify(
      await (
        await request.post("/api/card-servicer/brander", { headers: { "x-auth-token": providerToken }, data: { kind } })
      ).json(),
    );
  expect(await served("vendor")).toContain("绑定测试公司");
  expect(await served("brand")).not.toContain("绑定测试公司");

  await page.goto("/sale/commitLetter");
  await page
    .locator("input[type=file]")
    .setInputFiles({ name: "承诺函.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await expect(page.locator(".ant-table-row").filter({ hasText: "承诺函.pdf" })).toContainText("当前有效");
  await page.evaluate(() => window.localStorage.setItem("lang", "en"));
  await page.reload();
  await expect(page.getByText("In force", { exact: true })).toBeVisible();
  await shot(page, "commit-letter-en");
});
