import { expect, test } from "@playwright/test";
import { switchLanguage } from "../support/api";
import { clickUntil } from "../support/click";

/** Journey (c): switching to English and to traditional Chinese changes the texts, and is remembered. */
test("the language switch changes every text and is remembered", async ({ page }) => {
  await page.goto("/login");
  const dialog = page.locator(".ant-modal");
  await expect(dialog.getByText("登录 Tessera")).toBeVisible();

  await switchLanguage(page, "English");
  await expect(dialog.getByText("Log in to Tessera")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "The B2B marketplace for digital rights and prepaid-card goods",
  );
  await expect(page).toHaveTitle("Log in - Tessera");
  expect(await page.evaluate(() => window.localStorage.getItem("lang"))).toBe("en");
  // Server messages follow: the lang header goes with every call.
  await dialog.locator("#email").fill("nobody@example.com");
  await dialog.locator("#password").fill("Whatever#1");
  await dialog.getByRole("button", { name: "Log in" }).click();
  await expect(page.locator(".ant-message")).toContainText("Wrong account or password");

  await switchLanguage(page, "繁體中文");
  await expect(dialog.getByText("登錄 Tessera")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("數字權益與預付卡商品的 B2B 交易平臺");

  await page.reload();
  await expect(page.locator(".ant-modal").getByText("登錄 Tessera")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-TW");
});

test("the international version opens in traditional Chinese until the user chooses", async ({ page }) => {
  await page.goto("/international");
  await expect(page).toHaveURL(/\/international\/INlogin$/);
  await expect(page.locator(".ant-modal").getByText("登錄 Tessera 國際版")).toBeVisible();
  // The version switch leads back to the Chinese version, in simplified Chinese.
  await clickUntil(page.locator(".ant-modal").getByText("中文版"), () =>
    expect(page).toHaveURL(/\/login$/, { timeout: 5_000 }),
  );
  await expect(page.locator(".ant-modal").getByText("登录 Tessera")).toBeVisible();
});
