import { expect, test } from "@playwright/test";
import { clickUntil, closeWithEscape } from "../support/click";

/** Spec 01 §8 client load errors: a page whose chunk cannot load says so and offers a reload. */
test("a failed page chunk shows a retry message inside the layout", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator(".ant-modal")).toBeVisible();
  // An Escape before the opening dialog has the focus is lost; the dialog would cover the link.
  await closeWithEscape(page, page.locator(".ant-modal"));
  // From now on every script chunk fails, as after a dropped connection or a redeploy.
  await page.route("**/assets/*.js", (route) => route.abort());
  await clickUntil(page.getByRole("link", { name: /开发邮箱/ }), () =>
    expect(page).toHaveURL(/\/dev\/mailbox$/, { timeout: 5_000 }),
  );
  await expect(page.getByText("页面加载失败")).toBeVisible();
  await expect(page.getByText("开发工具")).toBeVisible(); // the area layout is still there

  await page.unroute("**/assets/*.js");
  await clickUntil(page.getByRole("button", { name: /重新加载/ }), () =>
    expect(page.locator(".ant-table")).toBeVisible({ timeout: 10_000 }),
  );
});
