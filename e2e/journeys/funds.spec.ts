import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import ExcelJS from "exceljs";
import { loginToken, registerAccount, useSession } from "../support/api";
import { E2E_OPERATOR, operatorPage } from "../support/operator";
import { noteMissingFonts } from "../support/fonts";
import { answerConfirm } from "../support/confirm";
import { downloadWith, openWith } from "../support/click";

/**
 * Funds journeys: a purchaser files a top-up notice with a proof image, an operator confirms it in
 * /ops, the balance and the fund-change row appear and the xlsx export holds the same rows; then a
 * bank card is reviewed, a withdrawal passes two reviews by two operators and is paid.
 */
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts); // screenshots for people: a missing font is noted on the result
/** A screenshot once the page has settled: no request pending and the loading overlay gone. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `funds-${name}.png`), fullPage: true });
}

/** A 2x2 PNG: the transfer proof. */
const PROOF_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

test("top-up notice, operator confirmation, balance and fund-change row, xlsx export", async ({
  page,
  request,
  browser,
}) => {
  const account = await registerAccount(request);
  await useSession(page, account, await loginToken(request, account));
  await page.goto("/sale/RechargeSheet");
  await expect(page.getByTestId("bank-details")).toContainText("755900000000001");
  // The domestic account is in Chinese (issue 25 item 7).
  await expect(page.getByTestId("bank-details")).toContainText("招商银行深圳分行");

  const transferRef = `CMB${Date.now()}`;
  await page.locator("#amountText").fill("1000");
  await page.locator("#payerName").fill("星河数字科技有限公司");
  await page.locator("#idNumber").fill("91440300MA5FXXXX1B");
  await page.locator("#otherAccount").fill("6222020200112233");
  await page.locator("#transferRef").fill(transferRef);
  await page.locator("input[type=file]").setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: PROOF_PNG });
  await expect(page.locator(".ant-upload-list-item-done, .ant-upload-list-item").first()).toBeVisible();
  await shot(page, "topup-filled-cn");
  // The confirmation dialog's OK loads while the notice is filed, so answering it again files nothing twice.
  await openWith(page.getByRole("button", { name: /^提\s?交$/ }), page.locator(".ant-modal-confirm"));
  await answerConfirm(page, /确认提交/);
  await expect(page.getByText("充值单已提交，等待平台审核")).toBeVisible();
  await expect(page.locator(".ant-table-row").filter({ hasText: transferRef })).toContainText("待审核");

  // The operator confirms it against the bank statement.
  const ops = await operatorPage(browser, E2E_OPERATOR);
  await ops.goto("/ops/TopUps");
  const row = ops.locator(".ant-table-row").filter({ hasText: transferRef });
  await openWith(row.getByRole("button", { name: "确认入账" }), ops.locator(".ant-modal-confirm"));
  await answerConfirm(ops, /确\s?定|OK/);
  await expect(row).toContainText("已入账");
  await shot(ops, "ops-topups-cn");
  // The audit log says what happened in words and money, not keys and minor units (issue 25 item 7).
  await ops.goto("/ops/AuditLog");
  const audited = ops.locator(".ant-table-row").filter({ hasText: "确认充值" }).first();
  await expect(audited).toContainText("充值通知 #");
  await expect(audited).toContainText("¥1,000.00");
  await shot(ops, "ops-audit-log-cn");

  // The purchaser sees the money on the home page and in the fund changes.
  await page.goto("/sale/Home");
  await expect(page.getByTestId("balance-reserve")).toHaveText("¥1,000.00");
  await page.goto("/sale/FundRelated");
  const change = page.locator(".ant-table-row").first();
  await expect(change).toContainText("充值");
  await expect(change).toContainText("+¥1,000.00");
  await expect(change).toContainText(transferRef);
  await shot(page, "fund-related-cn");

  const file = await (await downloadWith(page, page.getByRole("button", { name: "导出" }))).path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync(file) as unknown as ArrayBuffer);
  const rows = workbook.worksheets[0]?.getSheetValues().filter(Boolean) ?? [];
  expect(rows).toHaveLength(2);
  const data = rows[1] as unknown[];
  // Time, increase, expense (empty), balance, currency, change type, reason: the row the list shows.
  expect(data.slice(2)).toEqual([1000, undefined, 1000, "CNY", "充值", transferRef]);

  // The SUP top-up page lists the transfers into the SUP account, and only those (issue 25 item 7).
  await page.goto("/sale/supRechargeOrder");
  await expect(page.getByText("从备付金（支付）账户划转到SUP账户的充值记录")).toBeVisible();
  await openWith(page.getByRole("button", { name: "划转到SUP账户" }), page.getByTestId("amount-input"));
  await page.getByTestId("amount-input").fill("100");
  await page
    .locator(".ant-modal")
    .getByRole("button", { name: /确\s?定/ })
    .click();
  const topUp = page.locator(".ant-table-row").first();
  await expect(topUp).toContainText("+¥100.00");
  await expect(topUp).toContainText("备付金划转");
  await shot(page, "sup-recharge-cn");
});

test("bank card review, withdrawal with two reviews by two operators, payout, success", async ({
  page,
  request,
  browser,
}) => {
  const account = await registerAccount(request);
  const token = await loginToken(request, account);
  await useSession(page, account, token);

  // Money to withdraw: an operator's manual credit.
  const opsLogin = await request.post("/api/card-user/login", { data: { ...E2E_OPERATOR, version: "domestic" } });
  const opsToken = ((await opsLogin.json()) as { data: { token: string } }).data.token;
  const credit = await request.post(`/api/ops/funds/merchants/${account.merchantId}/credit`, {
    headers: { "x-auth-token": opsToken },
    data: { amount: 50_000, reason: "e2e opening balance", requestKey: `e2e-${account.merchantId}` },
  });
  expect(credit.status()).toBe(200);
  // A second operator for the second review.
  const second = { email: `second.${Date.now()}@example.com`, password: "Second#Op2026" };
  expect(
    (await request.post("/api/ops/operators", { headers: { "x-auth-token": opsToken }, data: second })).status(),
  ).toBe(200);

  await page.goto("/sale/WithdrawalRecord");
  const dialog = page.locator(".ant-modal").filter({ hasText: "添加银行卡" });
  await openWith(page.getByTestId("edit-card"), dialog);
  await dialog.locator("#companyName").fill("星河数字科技有限公司");
  await dialog.locator("#bank").fill("招商银行深圳分行");
  await dialog.locator("#city").fill("深圳");
  await dialog.locator("#account").fill("6222 0202 0011 2233");
  await dialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(page.getByTestId("card-state")).toHaveText("审核中");

  const opsA = await operatorPage(browser, E2E_OPERATOR);
  await opsA.goto("/ops/Reviews?queue=bankCard");
  await openWith(opsA.getByTestId(`review-${account.merchantId}`), opsA.locator(".ant-drawer").getByTestId("approve"));
  await opsA.locator(".ant-drawer").getByTestId("approve").click();
  await expect(opsA.locator(".ant-message")).toContainText("已通过");

  await page.reload();
  await expect(page.getByTestId("card-state")).toHaveText("已通过");
  await openWith(page.getByRole("button", { name: "提现" }), page.getByTestId("amount-input"));
  await page.getByTestId("amount-input").fill("300");
  await page
    .locator(".ant-modal")
    .getByRole("button", { name: /确\s?定/ })
    .click();
  await expect(page.getByText("提现申请已提交")).toBeVisible();
  await expect(page.locator(".ant-table-row").first()).toContainText("审核中");
  await expect(page.getByTestId("fund-balance")).toHaveText("¥200.00");

  const review = async (ops: Page, action: string, expected: string) => {
    await ops.goto(`/ops/Withdrawals?inpKey=merchantId&inpVal=${account.merchantId}`);
    const row = ops.locator(".ant-table-row").first();
    await openWith(row.getByRole("button", { name: action }), ops.locator(".ant-modal-confirm"));
    await answerConfirm(ops, /确\s?定|OK/);
    // The state tag, not the action buttons (one of which bears the same words).
    await expect(row.locator(".ant-tag").first()).toHaveText(expected);
  };
  await review(opsA, "初审通过", "初审通过");
  // The same operator cannot do the second review: the button is not offered to them.
  await expect(opsA.locator(".ant-table-row").first().getByRole("button", { name: "复审通过并付款" })).toHaveCount(0);
  const opsB = await operatorPage(browser, second);
  await review(opsB, "复审通过并付款", "银行付款中");
  await shot(opsB, "ops-withdrawals-cn");
  await review(opsA, "确认已付款", "成功");

  await page.reload();
  await expect(page.locator(".ant-table-row").first()).toContainText("成功");
  await shot(page, "withdrawal-record-cn");
});
