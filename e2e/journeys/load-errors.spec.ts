import { expect, test } from "@playwright/test";

/** Spec 01 §8 client load errors: a page whose chunk cannot load says so and offers a reload. */
test("a failed page chunk shows a retry message inside the layout", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator(".ant-modal")).toBeVisible();
  await page.keyboard.press("Escape");
  // From now on every script chunk fails, as after a dropped connection or a redeploy.
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.getByRole("link", { name: /开发邮箱/ }).click();
  await expect(page).toHaveURL(/\/dev\/mailbox$/);
  await expect(page.getByText("页面加载失败")).toBeVisible();
  await expect(page.getByText("开发工具")).toBeVisible(); // the area layout is still there

  await page.unroute("**/assets/*.js");
  await page.getByRole("button", { name: /重新加载/ }).click();
  await expect(page.locator(".ant-table")).toBeVisible();
});
