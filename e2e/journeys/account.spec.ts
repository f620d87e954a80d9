import { expect, test } from "@playwright/test";
import { loginToken, readCode, registerAccount, uniqueEmail, useSession } from "../support/api";
import { openWith } from "../support/click";
import { screenshots } from "../support/journey";

const shot = screenshots("account");

/** Home page account actions: bind a mobile number and change the email, each with a code. */
test("bind a phone and change the email from the home page", async ({ page, request }) => {
  const account = await registerAccount(request);
  await useSession(page, account, await loginToken(request, account));
  await page.goto("/sale/Home");
  await expect(page.getByTestId("merchant-id")).toHaveText(account.merchantId);

  const phone = `139${String(Date.now()).slice(-8)}`;
  const phoneDialog = page.locator(".ant-modal").filter({ hasText: "绑定手机号" });
  await openWith(page.getByRole("button", { name: "绑定手机号" }), phoneDialog);
  await phoneDialog.locator("#phone").fill("12345");
  await phoneDialog.getByRole("button", { name: "发送验证码" }).click();
  await expect(phoneDialog.getByText("请输入正确的手机号")).toBeVisible();
  await phoneDialog.locator("#phone").fill(phone);
  await phoneDialog.getByRole("button", { name: "发送验证码" }).click();
  await phoneDialog.locator("#smsCode").fill(await readCode(request, phone));
  await shot(page, "bind-phone-dialog");
  await phoneDialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(page.getByText("手机号绑定成功")).toBeVisible();
  await expect(page.locator(".ant-descriptions")).toContainText(phone);

  const newEmail = uniqueEmail("moved");
  const emailDialog = page.locator(".ant-modal").filter({ hasText: "修改邮箱" });
  await openWith(page.getByRole("button", { name: "修改邮箱" }), emailDialog);
  await emailDialog.locator("#email").fill(newEmail);
  await emailDialog.getByRole("button", { name: "发送验证码" }).click();
  await emailDialog.locator("#emailCode").fill(await readCode(request, newEmail));
  await emailDialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(page.getByText("邮箱修改成功")).toBeVisible();
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);
});
