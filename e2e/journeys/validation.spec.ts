import { expect, test } from "@playwright/test";
import { openRegisterFromLogin, registerAccount } from "../support/api";
import { clickUntil, opened } from "../support/click";
import { chooseOption } from "../support/select";

/** Journey (b): the spec's messages for a weak password on register and a wrong password on login. */
test("a weak password on register shows the strength message", async ({ page }) => {
  await page.goto("/login");
  const dialog = await openRegisterFromLogin(page, "立即注册", "注册企业账户");
  await dialog.locator("#password").fill("abcdefgh");
  await dialog.locator("#confirmPassword").fill("abcdefgx");
  await dialog.getByRole("button", { name: /注\s?册/ }).click();
  await expect(dialog.getByText("密码强度弱，请重新设置")).toBeVisible();
  await expect(dialog.getByText("两次输入的密码不一致")).toBeVisible();
  await expect(dialog.getByText("邮箱不能为空")).toBeVisible();
  await expect(dialog.getByText("组织名称不能为空")).toBeVisible();
});

test("login form checks email and password length on the client", async ({ page }) => {
  await page.goto("/login");
  const dialog = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  // The dialog opens as the page loads: a click during its animation can be lost (checking again is harmless).
  await opened(dialog);
  await clickUntil(dialog.getByRole("button", { name: /登\s?录/ }), () =>
    expect(dialog.getByText("邮箱不能为空")).toBeVisible({ timeout: 3_000 }),
  );
  await dialog.locator("#email").fill("not-an-email");
  await dialog.locator("#password").fill("ab");
  await dialog.getByRole("button", { name: /登\s?录/ }).click();
  await expect(dialog.getByText("请输入正确的邮箱")).toBeVisible();
  await expect(dialog.getByText("密码长度为3-21个字符")).toBeVisible();
});

test("a wrong password on login shows the server's message", async ({ page, request }) => {
  const account = await registerAccount(request);
  await page.goto("/login");
  const dialog = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  await opened(dialog);
  await dialog.locator("#email").fill(account.email);
  await dialog.locator("#password").fill("Wrong#Pass1");
  await dialog.getByRole("button", { name: /登\s?录/ }).click();
  await expect(page.locator(".ant-message")).toContainText("账号或密码错误");
  await expect(page).toHaveURL(/\/login$/);
});

test("international registration refuses a region outside the allowed ones", async ({ page }) => {
  await page.goto("/international/INlogin");
  const dialog = await openRegisterFromLogin(page, "立即註冊", "註冊國際版企業賬戶");
  // Typed into the country list's search, chosen, and chosen again if the choice was lost.
  await chooseOption(page, dialog.locator("#country"), "(JP)", { search: true });
  await dialog.getByRole("button", { name: /註\s?冊/ }).click();
  await expect(dialog.getByText("國際版僅向中國香港、新加坡、歐洲和美洲的合法企業開放註冊").first()).toBeVisible();
});
