import { expect, test } from "@playwright/test";
import { openRegisterFromLogin, PASSWORD, readCode, uniqueEmail } from "../support/api";
import { clickUntil, downloadWith, opened } from "../support/click";

/**
 * Journey (a): a purchaser registers with the code from the dev outbox, logs in, chooses the
 * purchaser system and sees the home page with the real merchant ID and email.
 */
test("the site root leads to the login page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("register, log in, choose the purchaser system, see the real account", async ({ page, request }) => {
  const email = uniqueEmail("journey");
  await page.goto("/login1");
  await expect(page.locator(".ant-modal")).toBeVisible();
  await page.goto("/login");
  await expect(page).toHaveTitle("登录 - Tessera");

  const login = page.locator(".ant-modal");
  await expect(login.getByText("登录 Tessera")).toBeVisible();
  const dialog = await openRegisterFromLogin(page, "立即注册", "注册企业账户");
  await dialog.locator("#email").fill(email);
  // Sent, the button counts down (disabled), so it is not clicked twice.
  await clickUntil(dialog.getByRole("button", { name: "发送验证码" }), () =>
    expect(page.getByText("验证码已发送")).toBeVisible({ timeout: 5_000 }),
  );
  await expect(dialog.getByRole("button", { name: /秒后重发/ })).toBeDisabled();
  const code = await readCode(request, email);
  await dialog.locator("#emailCode").fill(code);
  await dialog.locator("#password").fill(PASSWORD);
  await dialog.locator("#confirmPassword").fill(PASSWORD);
  await dialog.locator("#orgName").fill("星河数字科技有限公司");
  await dialog.locator("#agree").check();
  // Registered, the dialog gives way to the login one (a second registration would be refused: the email is taken).
  await clickUntil(dialog.getByRole("button", { name: /注\s?册/ }), () =>
    expect(page.getByText("注册成功")).toBeVisible({ timeout: 10_000 }),
  );

  // The login dialog opens with the email filled in.
  const loginAgain = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  await expect(loginAgain.locator("#email")).toHaveValue(email);
  await opened(loginAgain);
  await loginAgain.locator("#password").fill(PASSWORD);
  await clickUntil(loginAgain.getByRole("button", { name: /登\s?录/ }), () =>
    expect(page).toHaveURL(/\/SelectUser$/, { timeout: 10_000 }),
  );

  await expect(page).toHaveURL(/\/SelectUser$/);
  await page.getByTestId("chooser-sale").click();
  await clickUntil(page.getByRole("button", { name: "进入系统" }), () =>
    expect(page).toHaveURL(/\/sale\/Home$/, { timeout: 5_000 }),
  );

  // The page shows the account the server has.
  const token = await page.evaluate(() => window.localStorage.getItem("x-auth-token"));
  expect(token).toBeTruthy();
  const info = (await (
    await request.get("/api/card-user/userInfo", { headers: { "x-auth-token": token ?? "" } })
  ).json()) as {
    data: { merchant: { merchantId: string }; email: string };
  };
  await expect(page.getByTestId("merchant-id")).toHaveText(info.data.merchant.merchantId);
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await expect(page.getByTestId("header-account")).toHaveText(email);
  await expect(page.getByTestId("balance-sup")).toHaveText("¥0.00");
  await expect(page.getByRole("menuitem", { name: "首页" })).toBeVisible();
  const stored = await page.evaluate(() => window.localStorage.getItem("userInfo"));
  expect(stored).toContain(info.data.merchant.merchantId);
});

test("the dev mailbox lists the code sent to a recipient", async ({ page, request }) => {
  const email = uniqueEmail("mailbox");
  await request.post("/api/card-user/sendEmail", { data: { email, scene: "register" } });
  const code = await readCode(request, email);
  await page.goto("/dev/mailbox");
  await page.getByPlaceholder("收件人").fill(email);
  await clickUntil(page.getByRole("button", { name: /查\s?询/ }), () =>
    expect(page).toHaveURL(new RegExp(`inpVal=${encodeURIComponent(email)}`), { timeout: 5_000 }),
  );
  await expect(page.locator(".ant-table-row")).toHaveCount(1);
  await expect(page.getByTestId("outbox-code")).toContainText(code);
  expect((await downloadWith(page, page.getByRole("button", { name: "导出" }))).suggestedFilename()).toMatch(/\.xlsx$/);
});
