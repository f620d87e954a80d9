import path from "node:path";
import { expect as baseExpect, test, type Browser, type Page } from "@playwright/test";
import {
  loginToken,
  PASSWORD,
  readCode,
  registerAccount,
  uniqueEmail,
  verifyRealName,
  type Account,
  apiCall as call,
} from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { documentPng } from "../support/images";
import { operatorPage, operatorToken } from "../support/operator";
import { clickUntil, closeWithEscape, downloadWith, fileChooserWith, openWith } from "../support/click";
import { confirmMoney } from "../support/confirm";
import { chooseOption } from "../support/select";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { creditSup } from "../support/world";

/**
 * Brand stores, write-off and payment collection (issue 27): a brand imports its stores from the xlsx
 * template, binds a clerk and downloads a store's QR code; the clerk, on a phone, redeems a voucher a
 * purchaser bought through purchasing and is refused the second time; the day's settlement document shows
 * it and pays the voucher's price, held since the sale, into the brand's income; the brand onboards to the
 * payment aggregator (rejected once in the operator console, fixed, approved there, confirmed, signed), a payer
 * pays its collection code on a phone and the brand refunds part.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts);

async function shot(page: Page, name: string): Promise<void> {
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `stores-${name}.png`), fullPage: true });
}

/** A page with the session already stored (as the login dialog stores it). */
async function session(browser: Browser, token: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({
    locale: "zh-CN",
    viewport,
    ...(viewport.width < 500 && { isMobile: true, hasTouch: true }),
  });
  await context.addInitScript((value) => {
    if (window.location.protocol.startsWith("http")) window.localStorage.setItem("x-auth-token", value);
  }, token);
  return context.newPage();
}

async function storeFile(): Promise<Buffer> {
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("stores");
  ws.addRow([
    "门店名称",
    "省份",
    "城市",
    "区县",
    "详细地址",
    "经度",
    "纬度",
    "营业时间",
    "联系人",
    "联系电话",
    "商圈",
    "状态（营业/停业）",
  ]);
  ws.addRow([
    "南山科技园店",
    "广东省",
    "深圳市",
    "南山区",
    "科技园南路18号",
    "113.95",
    "22.54",
    "09:00-21:00",
    "张敏",
    "13800001111",
    "",
    "营业",
  ]);
  ws.addRow([
    "福田中心店",
    "广东省",
    "深圳市",
    "福田区",
    "深南大道1000号",
    "",
    "",
    "10:00-22:00",
    "王磊",
    "0755-88880000",
    "",
    "营业",
  ]);
  ws.addRow(["错误门店", "广东省", "深圳市", "不存在区", "无"]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test("stores by xlsx import, a clerk redeems a voucher on a phone, settlement, aggregated onboarding, a payment and a partial refund", async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const stamp = Date.now().toString(36);
  const brand: Account = await registerAccount(request, { orgName: "晨光茶饮品牌有限公司" });
  const brandToken = await loginToken(request, brand);
  const ops = await operatorToken(request);

  // 1. Stores from the template, with one bad row reported.
  const page = await session(browser, brandToken);
  await page.goto("/business/BrandStore");
  await expect(page.getByText("门店管理").first()).toBeVisible();
  await (
    await fileChooserWith(page, page.getByTestId("store-import"))
  ).setFiles({
    name: "stores.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: await storeFile(),
  });
  await expect(page.getByText("导入2个门店，拒绝1行").first()).toBeVisible();
  await expect(page.getByText("省市区不正确")).toBeVisible();
  await expect(page.getByRole("cell", { name: "南山科技园店" })).toBeVisible();
  await shot(page, "brand-stores");

  // 2. A clerk (a sub-account) bound to the store.
  const clerkEmail = uniqueEmail("clerk");
  await call(request, brandToken, "post", "/api/card-brander/passport/sub/add", {
    email: clerkEmail,
    name: "店员小李",
    password: PASSWORD,
    menus: ["business/WriteOff"],
  });
  const row = page.getByRole("row", { name: /南山科技园店/ });
  // The clerks' drawer, known by its bind button.
  const clerks = page.getByTestId("clerk-bind");
  await openWith(row.getByRole("button", { name: "店员" }), clerks);
  await chooseOption(page, page.getByLabel("选择子账号"), clerkEmail);
  await page.getByTestId("clerk-bind").click();
  await expect(page.getByRole("cell", { name: clerkEmail })).toBeVisible();
  // What the clerk does next (issue 40, item 11): the verification page's link and QR code, to open on a phone.
  await expect(page.getByText("请让店员用手机扫下方二维码")).toBeVisible();
  const verifyLink = page.getByTestId("verify-link");
  await expect(verifyLink.locator("canvas")).toBeVisible();
  const verifyUrl = await verifyLink.locator("code").textContent();
  expect(verifyUrl).toMatch(/^https?:\/\/[^/]+\/verify$/);
  await shot(page, "clerk-link");
  // A drawer left open covers the row's next button: that click would wait for the journey's timeout.
  await closeWithEscape(page, clerks);

  // 3. The store's QR code, downloaded as a PNG.
  await openWith(row.getByRole("button", { name: "门店码" }), page.getByTestId("qr-image"));
  await expect(page.getByTestId("qr-image")).toBeVisible();
  await shot(page, "shop-code");
  expect((await downloadWith(page, page.getByTestId("qr-download"))).suggestedFilename()).toMatch(/^qr-shop-\d+\.png$/);
  await closeWithEscape(page, page.getByTestId("qr-image"));

  // 4. A voucher sold through purchasing: the brand's voucher goods with imported codes, bought by a docked purchaser.
  const b = await call<{ id: number }>(request, brandToken, "post", "/api/card-brander/brander/update", {
    name: `晨光${stamp}`,
    description: "茶饮",
  });
  const goods = await call<{ id: number }>(request, brandToken, "post", "/api/card-brander/product/add", {
    brandId: b.id,
    equityType: "food",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `奶茶兑换券${stamp}`,
    businessType: "card_voucher",
    faceValue: 2000,
    price: 1800,
    settlementPrice: 1700,
    code: `TEA-${stamp}`,
  });
  const codes = cardCsv([`TEA${stamp}01,K1,`, `TEA${stamp}02,K2,`]);
  const imported = await request.post(`/api/card-brander/sup/merchandises/${goods.id}/cards?fileName=codes.csv`, {
    headers: { "x-auth-token": brandToken, "content-type": "text/csv" },
    data: codes,
  });
  expect(((await imported.json()) as { code: number }).code).toBe(1);
  const buyer = await registerAccount(request, { orgName: "礼享券码采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  // Docking needs both sides real-name verified (spec 01 §6).
  for (const token of [brandToken, buyerToken]) await verifyRealName(request, token);
  const docking = await call<{ id: string }>(request, buyerToken, "post", "/api/card-user/abutment/brander/apply", {
    supplierId: brand.merchantId,
  });
  await call(request, brandToken, "post", `/api/card-user/abutment/brander/review/${docking.id}`, { approve: true });
  for (const [i, token] of [brandToken, buyerToken].entries()) {
    const phone = `13${String(Date.now() * 10 + i).slice(-9)}`;
    await call(request, token, "post", "/api/card-user/sendSms", { phone, scene: "signAgreement" });
    await call(request, token, "post", `/api/card-user/abutment/brander/confirm/${docking.id}`, {
      phone,
      verifyCode: await readCode(request, phone),
    });
  }
  await creditSup(request, {
    ops: ops,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 10_000,
    move: 10_000,
    creditKey: `e2e-st-${buyer.merchantId}`,
    moveKey: `e2e-st-move-${buyer.merchantId}`,
  });
  const incomeOf = async () =>
    (await call<{ balances: { income: { amount: number } } }>(request, brandToken, "get", "/api/card-user/userInfo"))
      .balances.income.amount;
  const incomeBefore = await incomeOf();
  const order = await call<{ id: string }>(request, buyerToken, "post", "/api/card-user/orders", {
    goodsId: String(goods.id),
    quantity: 1,
    orderNo: `PO${stamp}`,
  });
  // A store voucher pays the brand when it is used: the sale leaves the brand's income as it was.
  expect(await incomeOf()).toBe(incomeBefore);
  const bought = await call<{ list: { id: string }[] }>(
    request,
    buyerToken,
    "get",
    `/api/card-user/purchasedCards?orderId=${order.id}`,
  );
  const [voucher] = await call<{ cardNumber: string; cardSecret: string }[]>(
    request,
    buyerToken,
    "post",
    "/api/card-user/purchasedCards/reveal",
    { ids: bought.list.map((c) => c.id) },
  );
  if (!voucher) throw new Error("no voucher");

  // 5. The clerk on a phone opens the link they were given, signs in there and stays on the page (issue 40,
  // item 11); then check, redeem, and the second time refused.
  const phone = await (
    await browser.newContext({ locale: "zh-CN", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  ).newPage();
  await phone.goto(new URL(verifyUrl ?? "").pathname);
  const clerkLogin = phone.getByTestId("clerk-login");
  await clerkLogin.getByLabel("邮箱").fill(clerkEmail);
  await clerkLogin.getByLabel("密码").fill(PASSWORD);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(phone, "clerk-login");
  await clerkLogin.getByRole("button", { name: /^登\s?录$/ }).click();
  await expect(phone.getByTestId("verify-store")).toContainText("南山科技园店");
  await expect(phone).toHaveURL(/\/verify$/);
  await phone.getByRole("textbox", { name: "券码" }).fill(voucher.cardNumber);
  await phone.getByLabel("卡密").fill(voucher.cardSecret);
  await phone.getByTestId("verify-check").click();
  await expect(phone.getByTestId("verify-preview")).toContainText(`奶茶兑换券${stamp}`);
  await shot(phone, "clerk-preview");
  await phone.getByTestId("verify-redeem").click();
  await expect(phone.getByTestId("verify-done")).toBeVisible();
  await shot(phone, "clerk-redeemed");
  await phone.getByTestId("verify-next").click();
  await phone.getByRole("textbox", { name: "券码" }).fill(voucher.cardNumber);
  await phone.getByLabel("卡密").fill(voucher.cardSecret);
  await phone.getByTestId("verify-check").click();
  await expect(phone.getByTestId("verify-error")).toContainText("该券码已核销，不能重复核销");
  await shot(phone, "clerk-refused");
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // 6. The day closes: the operator runs for today what the nightly job runs after 01:00 tomorrow (T+1; the
  //    server tests move their clock instead). One document; it pays the voucher's price, held in escrow since
  //    the sale, into the brand's income, and the brand's fund changes show it.
  expect(await incomeOf()).toBe(incomeBefore);
  //    It is the console's store settlement page (issue 40, item 16): today by default, what it would settle,
  //    and a confirmation with the amount.
  const opsConsole = await operatorPage(browser);
  await opsConsole.goto("/ops/StoreSettlement");
  // (Other journeys on this server may have redeemed too: the amount is at least this voucher's.)
  await expect(opsConsole.getByTestId("ops-settle-preview")).toContainText(/¥\d/);
  await shot(opsConsole, "ops-settlement");
  await opsConsole.getByTestId("ops-settle-run").click();
  await expect(opsConsole.locator(".money-confirm")).toContainText("立即结算 · ¥");
  await opsConsole.getByTestId("ops-settle-confirm").click();
  await expect(opsConsole.locator(".ant-message")).toContainText("张结算单");
  await expect(opsConsole.getByTestId("ops-settle-nothing")).toBeVisible();
  expect(await incomeOf()).toBe(incomeBefore + 1800);
  await page.goto("/business/WriteFunDoc");
  await expect(page.locator(".ant-table-row").filter({ hasText: "南山科技园店" })).toContainText("¥18.00");
  const docLine = page.getByRole("cell", { name: `奶茶兑换券${stamp}` });
  await openWith(page.getByTestId("doc-南山科技园店"), docLine);
  await expect(docLine).toBeVisible();
  await shot(page, "settlement-doc");
  await closeWithEscape(page, docLine);
  await page.goto("/business/ChangesFunds");
  await expect(page.locator(".ant-table-row").filter({ hasText: "门店核销结算" }).first()).toContainText("18.00");
  await page.goto("/business/WriteAccount");
  await expect(page.getByTestId("account-settled")).toContainText("¥18.00");
  await expect(page.getByTestId("account-awaiting")).toContainText("¥0.00");
  await shot(page, "write-account");

  // 7. Aggregated onboarding: filled, submitted, rejected with a reason, fixed, approved, confirmed, signed.
  await page.goto("/business/aggregateIncoming");
  const fill = async (label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);
  await fill("主体名称", "晨光茶饮品牌有限公司");
  await fill("统一社会信用代码", "91440300MA5EXAMPLE");
  await fill("法定代表人", "陈伟");
  await fill("法人身份证号", "44030019900101123X");
  await fill("联系人", "李娜");
  await fill("联系手机", "13800138000");
  await chooseOption(page, page.getByLabel("经营行业"), /餐饮/);
  await fill("开户银行", "招商银行");
  await fill("结算账号", "6214830000000001");
  await fill("开户名称", "晨光茶饮品牌有限公司");
  await page.getByTestId("apply-submit").click();
  await expect(page.getByText("请上传营业执照").first()).toBeVisible();
  await (
    await fileChooserWith(page, page.getByRole("button", { name: "上传营业执照" }))
  ).setFiles({ name: "licence.png", mimeType: "image/png", buffer: documentPng("营业执照") });
  await expect(page.getByTestId("apply-licence-done")).toBeVisible();
  // The legal person's ID card, both sides, as the aggregator asks.
  await page.getByTestId("apply-submit").click();
  await expect(page.getByText("请上传法人身份证人像面").first()).toBeVisible();
  for (const [testId, name, text] of [
    ["apply-id-front-upload", "id-front.png", "身份证人像面"],
    ["apply-id-back-upload", "id-back.png", "身份证国徽面"],
  ] as const) {
    await (
      await fileChooserWith(page, page.getByTestId(testId))
    ).setFiles({ name, mimeType: "image/png", buffer: documentPng(text) });
  }
  await expect(page.getByTestId("apply-id-back-done")).toBeVisible();
  await page.getByTestId("apply-submit").click();
  await expect(page.getByTestId("apply-state")).toContainText("审核中");
  // The operator reviews it in the console (the local aggregator's review queue), and rejects it once.
  const review = async () => {
    await opsConsole.goto("/ops/Reviews?queue=paymentApply");
    const drawer = opsConsole.locator(".ant-drawer");
    await openWith(opsConsole.getByTestId(`review-${brand.merchantId}`), drawer);
    return drawer;
  };
  let drawer = await review();
  await expect(drawer).toContainText("晨光茶饮品牌有限公司");
  // The application's state in words, not the aggregator's code (issue 40, item 16).
  await expect(drawer.getByTestId("field-applyState")).toHaveText("审核中");
  await openWith(drawer.getByTestId("reject"), drawer.getByTestId("reject-reason-input"));
  await drawer.getByTestId("reject-reason-input").fill("营业执照不清晰");
  await drawer.getByTestId("reject-confirm").click();
  await expect(opsConsole.locator(".ant-message")).toContainText("已驳回");
  await page.reload();
  await expect(page.getByTestId("apply-rejected")).toContainText("营业执照不清晰");
  await shot(page, "apply-rejected");
  await page.getByTestId("apply-submit").click();
  await expect(page.getByTestId("apply-state")).toContainText("审核中");
  drawer = await review();
  await expect(drawer).toContainText("身份证国徽面");
  await shot(opsConsole, "ops-payment-review");
  await drawer.getByTestId("approve").click();
  await expect(opsConsole.locator(".ant-message")).toContainText("已通过");
  await page.reload();
  // Confirming moves the application on (the button goes; the server refuses it twice): a lost click is made again.
  await clickUntil(page.getByTestId("apply-confirm"), () =>
    expect(page.getByTestId("apply-sign-link")).toBeVisible({ timeout: 10_000 }),
  );
  const signHref = await page.getByTestId("apply-sign-link").getAttribute("href");
  const signer = await session(browser, brandToken, { width: 390, height: 844 });
  await signer.goto(signHref ?? "");
  await signer.getByRole("checkbox").check();
  await signer.getByTestId("sign-submit").click();
  await expect(signer.getByTestId("sign-done")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("apply-finished")).toBeVisible({ timeout: 60_000 });
  await shot(page, "apply-finished");

  // 8. A collection code; a payer pays it on a phone; the brand refunds part.
  await page.goto("/business/receiptB");
  await openWith(page.getByTestId("paycode-add"), page.getByLabel("收款码名称"));
  await page.getByLabel("收款码名称").fill("前台收款");
  await page.getByRole("button", { name: /确\s*定|OK/ }).click();
  // A bounded wait: the attribute read below would wait for the journey's timeout.
  await expect(page.getByTestId("paycode-link")).toBeVisible();
  const payHref = await page.getByTestId("paycode-link").getAttribute("href");
  await shot(page, "pay-code");
  await closeWithEscape(page, page.getByTestId("paycode-link"));
  const payer = await browser.newContext({
    locale: "zh-CN",
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const payPage = await payer.newPage();
  await payPage.goto(new URL(payHref ?? "").pathname);
  // The payer types an amount within the account's per-payment limit, which the page states.
  await expect(payPage.getByText("单笔限额 ¥5,000.00")).toBeVisible();
  await payPage.getByLabel("付款金额").fill("50.00");
  await shot(payPage, "payer-form");
  await payPage.getByTestId("pay-submit").click();
  await expect(payPage.getByTestId("pay-done")).toBeVisible();
  await shot(payPage, "payer-paid");
  await page.reload();
  const orderNo = (await page.getByRole("cell", { name: /^PAY/ }).first().textContent()) ?? "";
  await page.goto("/business/WechatRefundOrder");
  await openWith(page.getByRole("button", { name: "发起退款" }), page.getByLabel("订单号"));
  await page.getByLabel("订单号").fill(orderNo);
  await page.getByLabel("退款金额").fill("20.00");
  // The money goes back on the answer only, and the question names it (issue 37).
  await confirmMoney(page, () => page.getByTestId("refund-ok").click(), { amount: "退款 · ¥20.00", ok: /^退\s?款$/ });
  await expect(page.getByRole("cell", { name: "退款成功" })).toBeVisible();
  await openWith(page.getByRole("button", { name: "发起退款" }), page.getByLabel("订单号"));
  await page.getByLabel("订单号").fill(orderNo);
  await page.getByLabel("退款金额").fill("40.00");
  await page.getByTestId("refund-ok").click();
  await expect(page.getByText("退款金额超过可退金额").first()).toBeVisible();
  await shot(page, "refunds");
});

test("a customer shows a card's dynamic code on a phone; a clerk redeems an amount with it once", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const brand: Account = await registerAccount(request, { orgName: "晨光卡券品牌有限公司" });
  const brandToken = await loginToken(request, brand);
  const ops = await operatorToken(request);

  // A face-value card sold to a docked purchaser, extracted, activated and bound into a customer's card bag.
  const product = await call<{ id: string }>(request, brandToken, "post", "/api/card-brander/onecard/products", {
    kind: "face_value",
    name: `储值卡${stamp}`,
    faceValue: 10_000,
    salePrice: 10_000,
    named: false,
    validity: { kind: "days", days: 1200 },
    rechargeAllowed: true,
    scope: "",
    terms: "",
  });
  await call(request, brandToken, "post", "/api/card-brander/onecard/batches", {
    productId: product.id,
    count: 1,
    requestKey: `e2e-dyn-batch-${stamp}`,
  });
  const buyer = await registerAccount(request, { orgName: "礼享卡券采购有限公司" });
  const buyerToken = await loginToken(request, buyer);
  for (const token of [brandToken, buyerToken]) await verifyRealName(request, token);
  const docking = await call<{ id: string }>(request, buyerToken, "post", "/api/card-user/abutment/brander/apply", {
    supplierId: brand.merchantId,
  });
  await call(request, brandToken, "post", `/api/card-user/abutment/brander/review/${docking.id}`, { approve: true });
  for (const [i, token] of [brandToken, buyerToken].entries()) {
    const phone = `13${String(Date.now() * 10 + i).slice(-9)}`;
    await call(request, token, "post", "/api/card-user/sendSms", { phone, scene: "signAgreement" });
    await call(request, token, "post", `/api/card-user/abutment/brander/confirm/${docking.id}`, {
      phone,
      verifyCode: await readCode(request, phone),
    });
  }
  await creditSup(request, {
    ops: ops,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 20_000,
    move: 20_000,
    creditKey: `e2e-dyn-${buyer.merchantId}`,
    moveKey: `e2e-dyn-move-${buyer.merchantId}`,
  });
  const sale = await call<{ id: string }>(request, buyerToken, "post", "/api/card-user/onecard/purchase", {
    productId: product.id,
    quantity: 1,
    requestKey: `e2e-dyn-buy-${stamp}`,
  });
  const cards = await call<{ list: { id: string }[] }>(
    request,
    buyerToken,
    "get",
    "/api/card-user/onecard/cards?pageSize=100",
  );
  const extracted = await request.post("/api/card-user/onecard/extract", {
    headers: { "x-auth-token": buyerToken },
    data: { cardIds: cards.list.map((c) => c.id) },
  });
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await extracted.body()) as unknown as ArrayBuffer);
  const [cardNo, password] = ((wb.worksheets[0]?.getRow(2).values as unknown[] | undefined) ?? []).slice(1).map(String);
  if (!cardNo || !password) throw new Error("no card");
  await call(request, buyerToken, "post", "/api/card-user/onecard/activate", {
    saleId: sale.id,
    requestKey: `e2e-dyn-act-${stamp}`,
  });
  const customerPhone = `139${String(Date.now()).slice(-8)}`;
  await request.post("/api/mall/customer/sendSms", { data: { phone: customerPhone } });
  const login = (await (
    await request.post("/api/mall/customer/login", {
      data: { phone: customerPhone, smsCode: await readCode(request, customerPhone) },
    })
  ).json()) as { data: { token: string } };
  const bound = await request.post("/api/mall/onecard/bind", {
    headers: { "x-customer-token": login.data.token },
    data: { cardNo, password },
  });
  expect(((await bound.json()) as { code: number }).code).toBe(1);

  // A store of the brand with a clerk.
  const store = await call<{ id: string }>(request, brandToken, "post", "/api/card-brander/branderStores", {
    name: `卡券门店${stamp}`,
    provinceCode: "440000",
    cityCode: "440300",
    countyCode: "440305",
    address: "科技园南路18号",
  });
  const clerkEmail = uniqueEmail("clerk");
  const sub = await call<{ passportId: string }>(request, brandToken, "post", "/api/card-brander/passport/sub/add", {
    email: clerkEmail,
    name: "店员小周",
    password: PASSWORD,
    menus: ["business/WriteOff"],
  });
  await call(request, brandToken, "post", `/api/card-brander/branderStores/${store.id}/clerks`, {
    passportId: sub.passportId,
  });
  const clerkToken = (
    (await (
      await request.post("/api/card-user/login", {
        data: { email: clerkEmail, password: PASSWORD, version: "domestic" },
      })
    ).json()) as { data: { token: string } }
  ).data.token;

  // The customer's card bag on a phone: the card's dynamic code with its countdown.
  const customerContext = await browser.newContext({
    locale: "zh-CN",
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await customerContext.addInitScript(
    ([token, phone]) => {
      window.localStorage.setItem("customer-token", token);
      window.localStorage.setItem("customer-phone", phone);
    },
    [login.data.token, customerPhone] as const,
  );
  const customer = await customerContext.newPage();
  await customer.goto("/client/cardBag");
  await expect(customer.getByText(`储值卡${stamp}`)).toBeVisible();
  await openWith(customer.getByText(`储值卡${stamp}`), customer.getByTestId("dynamic-code"));
  await expect(customer.getByTestId("dynamic-code")).toBeVisible();
  await expect(customer.getByTestId("dynamic-code")).toHaveText(/^\d{6} \d{6} \d{6}$/);
  await expect(customer.getByTestId("dynamic-countdown")).toContainText("秒后刷新");
  // The code sits in a modal: a viewport shot (a full-page one re-lays the page out behind it).
  await customer.screenshot({ path: path.join(SHOTS, "stores-dynamic-code-390.png") });
  expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const dynamicCode = ((await customer.getByTestId("dynamic-code").textContent()) ?? "").replace(/\s/g, "");

  // The clerk enters it instead of the card number and password, takes 30.00 off, and is refused the second time.
  const phone = await session(browser, clerkToken, { width: 390, height: 844 });
  await phone.goto("/verify");
  await clickUntil(phone.locator(".ant-segmented-item").filter({ hasText: "动态码" }), () =>
    expect(phone.getByRole("textbox", { name: "动态码" })).toBeVisible({ timeout: 3_000 }),
  );
  await phone.getByRole("textbox", { name: "动态码" }).fill(dynamicCode);
  await phone.getByTestId("verify-check").click();
  await expect(phone.getByTestId("verify-preview")).toContainText("¥100.00");
  // The card's expiry is a platform day, not an ISO timestamp.
  await expect(phone.getByTestId("verify-preview")).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
  await phone.getByLabel("核销金额").fill("30.00");
  await shot(phone, "clerk-dynamic-preview");
  await phone.getByTestId("verify-redeem").click();
  await expect(phone.getByTestId("verify-done")).toContainText("¥30.00");
  await phone.getByTestId("verify-next").click();
  await phone.getByRole("textbox", { name: "动态码" }).fill(dynamicCode);
  await phone.getByTestId("verify-check").click();
  await expect(phone.getByTestId("verify-error")).toContainText("该动态码已使用");
  await shot(phone, "clerk-dynamic-refused");
  await customer.reload();
  await expect(customer.getByText("¥70.00").first()).toBeVisible();

  // The card bag's 变动 names the store and reads the platform's time (Asia/Shanghai), not UTC.
  const shanghai = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 13).replace("T", " ");
  const hours = [shanghai(Date.now() - 60_000), shanghai(Date.now())];
  await customer.goto("/client/equityChange");
  const move = customer.getByRole("listitem").filter({ hasText: `消费 · 卡券门店${stamp}` });
  await expect(move).toContainText("30.00");
  const shown = (await move.textContent()) ?? "";
  expect(shown).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  expect(hours.some((h) => shown.includes(h))).toBe(true);
  expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  await shot(customer, "card-bag-moves-390");

  // The brand limits a voucher goods to this store in the "redeemable stores" dialog.
  const b = await call<{ id: number }>(request, brandToken, "post", "/api/card-brander/brander/update", {
    name: `晨光卡${stamp}`,
    description: "茶饮",
  });
  const goods = await call<{ id: number }>(request, brandToken, "post", "/api/card-brander/product/add", {
    brandId: b.id,
    equityType: "food",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `门店限定券${stamp}`,
    businessType: "card_voucher",
    faceValue: 2000,
    price: 1800,
    settlementPrice: 1700,
    code: `LIM-${stamp}`,
  });
  const page = await session(browser, brandToken, { width: 1280, height: 800 });
  await page.goto("/business/WriteOff");
  await openWith(page.getByTestId("open-goods-stores"), page.getByRole("dialog"));
  await chooseOption(page, page.getByRole("combobox", { name: "商品", exact: true }), `门店限定券${stamp}`);
  await clickUntil(page.getByText("指定门店", { exact: true }), () =>
    expect(page.getByRole("radio", { name: "指定门店" })).toBeChecked({ timeout: 3_000 }),
  );
  await chooseOption(page, page.getByRole("combobox", { name: "门店", exact: true }), `卡券门店${stamp}`);
  // Closes the multiple select's dropdown, which would otherwise cover the dialog's buttons.
  await clickUntil(page.getByText(/^选择商品券码可在哪些门店核销/), () =>
    expect(page.locator(".ant-select-dropdown").filter({ visible: true })).toHaveCount(0, { timeout: 3_000 }),
  );
  await shot(page, "goods-stores-dialog");
  await page.getByTestId("goods-stores-save").click();
  await expect(page.getByText("可核销门店已保存")).toBeVisible();
  const limited = await call<{ all: boolean; stores: { id: string }[] }>(
    request,
    brandToken,
    "get",
    `/api/card-brander/product/${goods.id}/stores`,
  );
  expect(limited).toMatchObject({ all: false, stores: [{ id: store.id }] });
});

test("a brand sets a voucher's redeemable stores from its goods page, and the page shows them saved", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const brand: Account = await registerAccount(request, { orgName: "晨光门店券品牌有限公司" });
  const brandToken = await loginToken(request, brand);
  const store = await call<{ id: string }>(request, brandToken, "post", "/api/card-brander/branderStores", {
    name: `科技园店${stamp}`,
    provinceCode: "440000",
    cityCode: "440300",
    countyCode: "440305",
    address: "科技园南路18号",
  });
  await call(request, brandToken, "post", "/api/card-brander/branderStores", {
    name: `福田店${stamp}`,
    provinceCode: "440000",
    cityCode: "440300",
    countyCode: "440304",
    address: "深南大道1000号",
  });
  const b = await call<{ id: number }>(request, brandToken, "post", "/api/card-brander/brander/update", {
    name: `晨光券${stamp}`,
    description: "茶饮",
  });
  const goods = await call<{ id: number }>(request, brandToken, "post", "/api/card-brander/product/add", {
    brandId: b.id,
    equityType: "food",
    invoiceType: "vat_6",
    perOrderMax: 5,
    name: `南山限定券${stamp}`,
    businessType: "card_voucher",
    faceValue: 2000,
    price: 1800,
    settlementPrice: 1700,
    code: `GSP-${stamp}`,
  });

  // From the goods list: the row's "可核销门店" opens the dialog for that goods, which cannot be swapped there.
  const page = await session(browser, brandToken, { width: 1280, height: 800 });
  await page.goto("/business/SuppliedProducts");
  const dialog = page.getByRole("dialog");
  await openWith(page.getByTestId(`goods-stores-${goods.id}`), dialog);
  await expect(dialog.getByText(`南山限定券${stamp} (${goods.id})`)).toBeVisible();
  await expect(dialog.getByRole("combobox", { name: "商品", exact: true })).toBeDisabled();
  await expect(dialog.getByRole("radio", { name: "全部门店" })).toBeChecked();
  await clickUntil(dialog.getByText("指定门店", { exact: true }), () =>
    expect(dialog.getByRole("radio", { name: "指定门店" })).toBeChecked({ timeout: 3_000 }),
  );
  await chooseOption(page, page.getByRole("combobox", { name: "门店", exact: true }), `科技园店${stamp}`);
  // Closes the multiple select's dropdown, which would otherwise cover the dialog's buttons.
  await clickUntil(dialog.getByText(/^选择商品券码可在哪些门店核销/), () =>
    expect(page.locator(".ant-select-dropdown").filter({ visible: true })).toHaveCount(0, { timeout: 3_000 }),
  );
  // The dialog is a modal: viewport shots (a full-page one re-lays the page out behind it).
  await page.screenshot({ path: path.join(SHOTS, "stores-goods-page-dialog-1280.png") });
  await page.getByTestId("goods-stores-save").click();
  await expect(page.getByText("可核销门店已保存")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const limited = await call<{ all: boolean; stores: { id: string }[] }>(
    request,
    brandToken,
    "get",
    `/api/card-brander/product/${goods.id}/stores`,
  );
  expect(limited).toMatchObject({ all: false, stores: [{ id: store.id }] });

  // A fresh page at 1440 px: reopened from the row, the dialog shows what was saved.
  const wide = await session(browser, brandToken, { width: 1440, height: 900 });
  await wide.goto("/business/SuppliedProducts");
  const again = wide.getByRole("dialog");
  await openWith(wide.getByTestId(`goods-stores-${goods.id}`), again);
  await expect(again.getByRole("radio", { name: "指定门店" })).toBeChecked();
  await expect(again.locator(".ant-select-selection-item").filter({ hasText: `科技园店${stamp}` })).toBeVisible();
  await expect(again.getByText(`福田店${stamp}`)).toHaveCount(0);
  await wide.screenshot({ path: path.join(SHOTS, "stores-goods-page-dialog-1440.png") });
  await clickUntil(again.getByRole("button", { name: /取\s*消/ }), () =>
    expect(again).toHaveCount(0, { timeout: 3_000 }),
  );
});
