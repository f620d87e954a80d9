import { readFile } from "node:fs/promises";
import { expect as baseExpect, test, type Browser } from "@playwright/test";
import { PDFParse } from "pdf-parse";
import { loginToken, PASSWORD, registerAccount, verifyRealName, type Account } from "../support/api";
import { documentPng } from "../support/images";
import { noteMissingFonts } from "../support/fonts";
import { post, screenshots, sessionPage } from "../support/journey";
import { operatorToken } from "../support/operator";
import { answerConfirm } from "../support/confirm";
import { clickUntil, downloadWith, openWith } from "../support/click";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { creditSup } from "../support/world";

/**
 * Invoices (issue 29): a purchaser that bought VAT-6% goods saves a complete title, requests a VAT
 * special invoice against what it spent (more than it spent is refused on the field), the operator
 * issues it in the console, and the purchaser downloads the PDF from its record; the PDF's text (the
 * Chinese title, the buyer, the amount in capitals) is read back. A developer signs and sends a real
 * call from the /Developer console with its own key; a service provider reads its served merchants'
 * orders and purchasing figures.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
test.beforeEach(noteMissingFonts);
const shot = screenshots("invoices");
const call = post;
const session = (browser: Browser, account: Pick<Account, "version">, token: string) =>
  sessionPage(browser, account, token, 1440);

const TITLE = {
  name: "上海星辰数字科技有限公司",
  taxId: "91310000MA1K00002C",
  address: "上海市浦东新区世纪大道100号",
  phone: "021-50000000",
  bank: "招商银行上海分行",
  bankAccount: "121900000000001",
};

test("a purchaser requests a VAT special invoice against its spend, the operator issues it, the purchaser downloads the PDF", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const supplier = await registerAccount(request, { orgName: "星河卡券供应有限公司" });
  const supplierToken = await loginToken(request, supplier);
  const buyer = await registerAccount(request, { orgName: "星辰采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  await verifyRealName(request, buyerToken);
  const opsToken = await operatorToken(request);

  // The purchaser buys two 100-yuan cards of VAT-6% goods (whitelisted by the supplier, paid from SUP).
  const brand = await call<{ id: number }>(request, supplierToken, "/api/card-brander/brander/update", {
    name: `发票品牌${stamp}`,
    description: "e2e",
  });
  const goods = await call<{ id: number }>(request, supplierToken, "/api/card-brander/product/add", {
    brandId: brand.id,
    equityType: "video",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `发票卡${stamp}`,
    businessType: "card_secret",
    faceValue: 10000,
    code: `INV-${stamp}`,
    price: 10000,
    settlementPrice: 9000,
  });
  const csv = cardCsv(3, (i) => `INV${stamp}${i},PIN${i}${stamp},`, { header: "cn", end: false });
  expect(
    (
      await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=cards.csv`, {
        headers: { "x-auth-token": supplierToken, "content-type": "text/csv" },
        data: Buffer.from(csv),
      })
    ).status(),
  ).toBe(200);
  await call(request, supplierToken, "/api/card-brander/whitelists", {
    purchaserId: buyer.merchantId,
    scope: "vendor",
  });
  await creditSup(request, {
    ops: opsToken,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 50_000,
    move: 50_000,
    creditKey: `e2e-inv-${buyer.merchantId}`,
    moveKey: `e2e-inv-move-${buyer.merchantId}`,
  });
  await call(request, buyerToken, "/api/card-user/orders", {
    goodsId: String(goods.id),
    quantity: 2,
    orderNo: `INV-${stamp}`,
  });

  // TicketSignature: a complete title, the default.
  const buyerPage = await session(browser, buyer, buyerToken);
  await buyerPage.goto("/sale/TicketSignature");
  const titleDialog = buyerPage.locator(".ant-modal").filter({ hasText: "新增抬头" });
  await openWith(buyerPage.getByTestId("add-title"), titleDialog);
  for (const [field, value] of Object.entries(TITLE)) await titleDialog.getByTestId(`title-${field}`).fill(value);
  await titleDialog.getByText("设为默认抬头").click();
  await titleDialog.getByRole("button", { name: /确\s*定|OK/ }).click();
  const titleRow = buyerPage.locator(".ant-table-row").filter({ hasText: TITLE.name });
  await expect(titleRow).toContainText("可开专票");
  await shot(buyerPage, "ticket-signature-cn");

  // Invoice: 200.00 invoiceable at 6%; more than that is refused on the field, 150.00 is requested.
  await buyerPage.goto("/sale/Invoice");
  const row = buyerPage.locator(".ant-table-row").filter({ hasText: "6%增值税专用发票" });
  await expect(row).toContainText("¥200.00");
  const dialog = buyerPage.locator(".ant-modal").filter({ hasText: "申请开票" });
  await openWith(row.getByTestId("request-vat_6"), dialog);
  await expect(dialog.getByTestId("invoice-taxId")).toHaveValue(TITLE.taxId);
  await dialog.getByTestId("invoice-amount").fill("300");
  await dialog.getByTestId("invoice-email").fill(`finance.${stamp}@example.com`);
  await dialog.getByRole("button", { name: "提交申请" }).click();
  await expect(dialog).toContainText("开票金额超过可开票金额（可开200.00）");
  await shot(buyerPage, "invoice-over-cn");
  await dialog.getByTestId("invoice-amount").fill("150");
  await dialog.getByRole("button", { name: "提交申请" }).click();
  await expect(buyerPage.getByText("开票申请已提交")).toBeVisible();
  await expect(row).toContainText("¥50.00");
  await shot(buyerPage, "invoice-cn");

  // The operator issues it in the console.
  const opsPage = await session(browser, { version: "domestic" }, opsToken);
  await opsPage.goto("/ops/Invoices");
  const request1 = opsPage.locator(".ant-table-row").filter({ hasText: buyer.merchantId }).first();
  await expect(request1).toContainText("已申请");
  await openWith(request1.getByRole("button", { name: "开具" }), opsPage.locator(".ant-modal-confirm"));
  await answerConfirm(opsPage, /确\s*定|OK/);
  await expect(request1).toContainText("已送达");
  await shot(opsPage, "ops-invoices-cn");

  // The purchaser's record: delivered; the PDF downloads and reads back.
  await buyerPage.goto("/sale/InvoiceRecord");
  const record = buyerPage.locator(".ant-table-row").first();
  await expect(record).toContainText("已送达");
  await shot(buyerPage, "invoice-record-cn");
  const file = await (await downloadWith(buyerPage, record.getByRole("button", { name: "下载发票" }))).path();
  const parser = new PDFParse({ data: new Uint8Array(await readFile(file)) });
  const text = (await parser.getText()).text.replace(/\s+/g, "");
  await parser.destroy();
  expect(text).toContain("电子发票（增值税专用发票）");
  expect(text).toContain(TITLE.name);
  expect(text).toContain(TITLE.taxId);
  expect(text).toContain("壹佰伍拾元整");
  expect(text).toContain("¥150.00");
});

test("a developer signs and sends a real call from the portal's console with its own key", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const buyer = await registerAccount(request, { orgName: "开发者测试采购有限公司" });
  const token = await loginToken(request, buyer);
  const ops = await operatorToken(request);
  // Real name and API permission, as the ApiSecurity page and the operator would do them.
  const docs: Record<string, string> = {};
  for (const kind of ["license", "id_front", "id_back"] as const) {
    const res = await request.post(`/api/card-user/realNameAuths/images?kind=${kind}`, {
      headers: { "x-auth-token": token },
      multipart: { file: { name: `${kind}.png`, mimeType: "image/png", buffer: documentPng() } },
    });
    docs[kind] = ((await res.json()) as { data: { documentId: string } }).data.documentId;
  }
  const applied = await call<{ latest: { id: string } }>(request, token, "/api/card-user/realNameAuths", {
    licenseDocumentId: docs.license,
    idFrontDocumentId: docs.id_front,
    idBackDocumentId: docs.id_back,
    companyName: "开发者测试采购有限公司",
    licenseNumber: "91310000MA1FL4XQ2K",
    licenseValidUntil: "",
    legalName: "张伟",
    legalIdNumber: "11010519491231002X",
    idValidUntil: "",
  });
  await call(request, ops, `/api/ops/queues/realName/items/${applied.latest.id}/approve`, {});
  const api = await call<{ request: { id: string } }>(request, token, "/api/card-brander/api/apply", {
    purpose: "e2e developer console",
  });
  await call(request, ops, `/api/ops/queues/apiPermission/items/${api.request.id}/approve`, {});
  const client = await call<{ appKey: string; secret: string }>(request, token, "/api/card-brander/api/view", {
    password: PASSWORD,
  });

  const page = await session(browser, buyer, token);
  await page.goto("/Developer");
  await clickUntil(page.getByRole("tab", { name: "签名" }), () =>
    expect(page.getByTestId("worked-signature")).toBeVisible({ timeout: 5_000 }),
  );
  await expect(page.getByTestId("worked-signature")).toContainText(
    "61b8660e8b3ba865d90e7204608dcfc922ee86f74c553910c4c93cbb341ea6aa",
  );
  await shot(page, "developer-signing-cn");
  await clickUntil(page.getByRole("tab", { name: "在线调试" }), () =>
    expect(page.getByTestId("console-appkey")).toBeVisible({ timeout: 5_000 }),
  );
  await page.getByTestId("console-appkey").fill(client.appKey);
  await page.getByTestId("console-secret").fill(client.secret);
  await page.getByTestId("console-send").click();
  await expect(page.getByTestId("console-status")).toHaveText("200");
  await expect(page.getByTestId("console-reply")).toContainText('"code": 1');
  await expect(page.getByTestId("console-reply")).toContainText('"sup"');
  await shot(page, "developer-console-cn");
  // A wrong secret is refused by the server, in the page's language.
  await page.getByTestId("console-secret").fill("not-the-secret");
  await page.getByTestId("console-send").click();
  await expect(page.getByTestId("console-status")).toHaveText("401");
  await expect(page.getByTestId("console-reply")).toContainText("签名错误");
});

test("a service provider reads its served merchants' orders and purchasing figures", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const ops = await operatorToken(request);
  const provider = await registerAccount(request, { orgName: "星桥服务商有限公司" });
  await call(request, ops, `/api/ops/merchants/${provider.merchantId}/providerRole`, { grant: true });
  const providerToken = await loginToken(request, provider);
  const brandOwner = await registerAccount(request, { orgName: "星桥品牌有限公司" });
  const brandToken = await loginToken(request, brandOwner);
  await call(request, brandToken, "/api/card-servicer/brander/service", {
    providerId: provider.merchantId,
    kind: "brand",
  });
  const buyer = await registerAccount(request, { orgName: "星桥采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  await verifyRealName(request, buyerToken);
  const brand = await call<{ id: number }>(request, brandToken, "/api/card-brander/brander/update", {
    name: `星桥品牌${stamp}`,
    description: "e2e",
  });
  const goods = await call<{ id: number }>(request, brandToken, "/api/card-brander/product/add", {
    brandId: brand.id,
    equityType: "video",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `星桥月卡${stamp}`,
    businessType: "card_secret",
    faceValue: 3000,
    code: `XQ-${stamp}`,
    price: 2700,
    settlementPrice: 2500,
  });
  const csv = cardCsv(3, (i) => `XQ${stamp}${i},PIN${i}${stamp},`, { header: "cn", end: false });
  expect(
    (
      await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=cards.csv`, {
        headers: { "x-auth-token": brandToken, "content-type": "text/csv" },
        data: Buffer.from(csv),
      })
    ).status(),
  ).toBe(200);
  await call(request, brandToken, "/api/card-brander/whitelists", { purchaserId: buyer.merchantId, scope: "vendor" });
  await creditSup(request, {
    ops: ops,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 20_000,
    move: 20_000,
    creditKey: `e2e-xq-${buyer.merchantId}`,
    moveKey: `e2e-xq-move-${buyer.merchantId}`,
  });
  await call(request, buyerToken, "/api/card-user/orders", {
    goodsId: String(goods.id),
    quantity: 2,
    orderNo: `XQ-${stamp}`,
  });

  const page = await session(browser, provider, providerToken);
  await page.goto("/providers/OrderManagement");
  const row = page.locator(".ant-table-row").filter({ hasText: `XQ-${stamp}` });
  await expect(row).toContainText("¥54.00");
  await expect(row).toContainText("星桥品牌有限公司");
  await shot(page, "provider-orders-cn");
  await page.goto("/providers/PurchaseInformation");
  await expect(page.getByTestId("figures-chart").locator("canvas")).toBeVisible();
  await shot(page, "provider-figures-cn");
  await page.goto("/providers/brandManagement");
  await expect(page.locator(".ant-table-row").filter({ hasText: `星桥品牌${stamp}` })).toBeVisible();
});
