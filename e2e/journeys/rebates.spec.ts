import { readFile } from "node:fs/promises";
import { expect as baseExpect, test } from "@playwright/test";
import { dock, loginToken, registerAccount } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { pickDate, platformMonth, post, screenshots, sessionPage } from "../support/journey";
import { operatorToken } from "../support/operator";
import { clickUntil, confirmPopconfirm, downloadWith, openWith } from "../support/click";
import { chooseOption } from "../support/select";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { creditSup } from "../support/world";

/**
 * Supplier rebates (issue 29): on ProcurementLiaison's "返利规则" tab a supplier sets a rule for a docked
 * purchaser and one goods, with two tiers by monthly volume (a second rule of the same scope and validity
 * is refused with the server's message); the purchaser buys; the order is moved two months back (the
 * dev-only backdate route: the server runs on the real clock, and the month before last is one no other
 * journey closes); the operator closes that month; the supplier reads the rebate it granted on the
 * "已发返利" tab, exports it (the .xlsx cells read back), and removes the rule.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
test.beforeEach(noteMissingFonts);
const shot = screenshots("rebates");
const call = post;

test("a supplier sets a tiered rebate rule, the month closes, and it reads and exports the rebate it granted", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const { day, month: period } = platformMonth(2);
  const ops = await operatorToken(request);

  // The supplier, its card-secret goods, and a docked purchaser with money.
  const supplier = await registerAccount(request, { orgName: "返利品牌有限公司" });
  const supplierToken = await loginToken(request, supplier);
  const buyer = await registerAccount(request, { orgName: "返利采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  await dock(request, { token: supplierToken, merchantId: supplier.merchantId }, buyerToken);
  const brand = await call<{ id: number }>(request, supplierToken, "/api/card-brander/brander/update", {
    name: `返利品牌${stamp}`,
    description: "e2e",
  });
  const goods = await call<{ id: number }>(request, supplierToken, "/api/card-brander/product/add", {
    brandId: brand.id,
    equityType: "video",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `返利月卡${stamp}`,
    businessType: "card_secret",
    faceValue: 3000,
    code: `FL-${stamp}`,
    price: 2700,
    settlementPrice: 2500,
  });
  const csv = cardCsv(3, (i) => `FL${stamp}${i},PIN${i}${stamp},`, { header: "cn", end: false });
  expect(
    (
      await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=cards.csv`, {
        headers: { "x-auth-token": supplierToken, "content-type": "text/csv" },
        data: Buffer.from(csv),
      })
    ).status(),
  ).toBe(200);
  await creditSup(request, {
    ops: ops,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 20_000,
    move: 20_000,
    creditKey: `e2e-fl-${buyer.merchantId}`,
    moveKey: `e2e-fl-move-${buyer.merchantId}`,
  });

  // The supplier's rebate rules tab: 2% from 0, 3% from 100.00, for the purchaser and the goods.
  const page = await sessionPage(browser, supplier, supplierToken);
  await page.goto("/business/ProcurementLiaison");
  await clickUntil(page.getByRole("tab", { name: "返利规则" }), () =>
    expect(page).toHaveURL(/tab=rebateRules/, { timeout: 5_000 }),
  );
  const addRule = async () => {
    const dialog = page.locator(".ant-modal").filter({ hasText: "新增返利规则" });
    await openWith(page.getByTestId("rebate-rule-add"), dialog);
    await chooseOption(page, page.getByTestId("rebate-purchaser"), "返利采购有限公司");
    await chooseOption(page, page.getByTestId("rebate-goods"), `返利月卡${stamp}`);
    await dialog.getByTestId("tier-volume-0").fill("0");
    await dialog.getByTestId("tier-rate-0").fill("2");
    await dialog.getByTestId("tier-add").click();
    await dialog.getByTestId("tier-volume-1").fill("100");
    await dialog.getByTestId("tier-rate-1").fill("3");
    await pickDate(dialog.getByTestId("rebate-valid-from"), `${period}-01`);
    await dialog.getByRole("button", { name: /确\s*定|OK/ }).click();
    return dialog;
  };
  const first = await addRule();
  await expect(page.getByText("返利规则已添加")).toBeVisible();
  await expect(first).toBeHidden();
  const ruleRow = page.locator(".ant-table-row");
  await expect(ruleRow).toHaveCount(1);
  await expect(ruleRow).toContainText("返利采购有限公司");
  await expect(ruleRow).toContainText(`返利月卡${stamp}`);
  await expect(ruleRow).toContainText("满0.00 返2%; 满100.00 返3%");
  await expect(ruleRow).toContainText(`${period}-01 ~ 长期`);
  await shot(page, "rules-cn");

  // The same scope and validity again: refused, with the server's message on the form; nothing added.
  const second = await addRule();
  await expect(second).toContainText("与同一范围的另一条返利规则有效期重叠");
  await clickUntil(second.getByRole("button", { name: /取\s*消|Cancel/ }), () =>
    expect(second).toBeHidden({ timeout: 3_000 }),
  );
  await expect(ruleRow).toHaveCount(1);

  // The purchaser buys two cards (54.00); the order is moved into the month before last, which the operator closes.
  const order = await call<{ id: string; state: string }>(request, buyerToken, "/api/card-user/orders", {
    goodsId: String(goods.id),
    quantity: 2,
    orderNo: `FL-${stamp}`,
  });
  expect(order.state).toBe("success");
  const moved = await call<{ finishedAt: string }>(request, ops, `/api/dev/purchaseOrders/${order.id}/backdate`, {
    days: day + 35,
  });
  expect(new Date(new Date(moved.finishedAt).getTime() + 8 * 3600_000).toISOString().slice(0, 7)).toBe(period);
  const closed = await call<{ rebates: number }>(request, ops, "/api/ops/commission/close", { period });
  expect(closed.rebates).toBeGreaterThanOrEqual(1);

  // The granted rebates tab: 2% of 54.00 is 1.08, paid from the supplier's income.
  await clickUntil(page.getByRole("tab", { name: "已发返利" }), () =>
    expect(page).toHaveURL(/tab=rebates/, { timeout: 5_000 }),
  );
  const granted = page.locator(".ant-table-row").filter({ hasText: `返利采购有限公司 (${buyer.merchantId})` });
  await expect(granted).toContainText(period);
  await expect(granted).toContainText("¥54.00");
  await expect(granted).toContainText("2%");
  await expect(granted).toContainText("¥1.08");
  await expect(granted).toContainText("已到账");
  await shot(page, "granted-cn");

  // The export: the rows as shown.
  const file = await downloadWith(page, page.getByRole("button", { name: "导出" }));
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile(await file.path())) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0];
  const header = (sheet?.getRow(1).values as unknown[]).slice(1);
  expect(header.slice(0, 5)).toEqual(["月份", "采购商", "月采购额", "返利比例", "返利金额"]);
  const cells = (sheet?.getRow(2).values as unknown[]).slice(1).map(String);
  expect(cells.slice(0, 2)).toEqual([period, `返利采购有限公司 (${buyer.merchantId})`]);
  expect(cells.join("|")).toContain("1.08");

  // Removing the rule.
  await clickUntil(page.getByRole("tab", { name: "返利规则" }), () =>
    expect(page).toHaveURL(/tab=rebateRules/, { timeout: 5_000 }),
  );
  const rule = page.locator(".ant-table-row");
  await expect(rule).toHaveCount(1);
  await confirmPopconfirm(page, rule.getByRole("button", { name: "删除" }), /确\s*定|OK/);
  await expect(page.locator(".ant-table-row")).toHaveCount(0);
});
