import { expect, test } from "@playwright/test";
import { loginToken, registerAccount, useSession } from "../support/api";
import { clickUntil, opened } from "../support/click";

/** Journey (d): a 401 from the server lands on the area's login page with 'login state expired'. */
test("a revoked token sends the user to the login page with the expired toast", async ({ page, request }) => {
  const account = await registerAccount(request);
  const token = await loginToken(request, account);
  await useSession(page, account, token);
  await page.goto("/sale/Home");
  await expect(page.getByTestId("merchant-id")).toHaveText(account.merchantId);
  // A customer session in the same browser (the shop token of spec 01 §8) ends with the merchant's 401 too.
  await page.evaluate(() => window.localStorage.setItem("customer-token", "a-customer-session"));

  const revoked = await request.put("/api/card-user/logout", { headers: { "x-auth-token": token } });
  expect(((await revoked.json()) as { code: number }).code).toBe(1);

  await page.goto("/business/Home");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator(".ant-message")).toContainText("登录状态已过期");
  expect(await page.evaluate(() => window.localStorage.getItem("x-auth-token"))).toBeNull();
  expect(await page.evaluate(() => window.localStorage.getItem("userInfo"))).toBeNull();
  expect(await page.evaluate(() => window.localStorage.getItem("customer-token"))).toBeNull();

  // Logging in again leads back to the page the user was on, not to the system chooser (issue 25 item 7).
  const login = page.locator(".ant-modal").filter({ hasText: "登录 Tessera" });
  // A click into the dialog while it still opens can be lost; logging in twice is harmless.
  await opened(login);
  await login.locator("#email").fill(account.email);
  await login.locator("#password").fill(account.password);
  await clickUntil(login.getByRole("button", { name: /登\s?录/ }), () =>
    expect(page).toHaveURL(/\/business\/Home$/, { timeout: 10_000 }),
  );
});

test("in the international area a 401 leads to the international login", async ({ page, request }) => {
  const account = await registerAccount(request, { version: "international", currency: "USD", country: "SG" });
  const token = await loginToken(request, account);
  await useSession(page, account, token);
  await page.goto("/international/sale/Home");
  await expect(page.getByTestId("balance-sup")).toHaveText("US$0.00");
  await request.put("/api/card-user/logout", { headers: { "x-auth-token": token } });
  await page.goto("/international/business/Home");
  await expect(page).toHaveURL(/\/international\/INlogin$/);
  await expect(page.locator(".ant-message")).toContainText("登錄狀態已過期");
  expect(await page.evaluate(() => window.localStorage.getItem("interToken"))).toBeNull();
});

test("area pages need a session, logout ends it, unknown pages say so", async ({ page, request }) => {
  await page.goto("/sale/Home");
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/international/business/Home");
  await expect(page).toHaveURL(/\/international\/INlogin$/);

  const account = await registerAccount(request);
  await useSession(page, account, await loginToken(request, account));
  await page.goto("/business/Home");
  await expect(page.getByTestId("merchant-id")).toHaveText(account.merchantId);
  await clickUntil(page.getByRole("button", { name: "退出登录" }), () =>
    expect(page).toHaveURL(/\/login$/, { timeout: 5_000 }),
  );
  expect(await page.evaluate(() => window.localStorage.getItem("x-auth-token"))).toBeNull();

  await page.goto("/no/such/page");
  await expect(page.getByText("页面不存在").first()).toBeVisible();
  await clickUntil(page.getByRole("button", { name: "返回首页" }), () =>
    expect(page).toHaveURL(/\/login$/, { timeout: 5_000 }),
  );
});
