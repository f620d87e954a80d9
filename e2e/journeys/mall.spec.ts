import path from "node:path";
import { expect as baseExpect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiCall, dock, loginToken, readCode, registerAccount } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { operatorToken } from "../support/operator";
import { clickUntil, confirmPopconfirm, openWith } from "../support/click";
import { FormDialog } from "../support/pages";
import { chooseOption } from "../support/select";
import { cardCsv } from "../../apps/server/test/kit/cards";
import { sessionPage } from "../support/journey";

/**
 * The customer mall (issue 30 B): a purchaser's mall (config committed on the local platform, opened as
 * its experience version from the beta QR's address) with its own goods, a gift pack and an SMS package;
 * a customer at phone width opens it, logs in by SMS code, buys a gift pack and a card-secret goods with
 * the wallet and sees the codes; the purchaser sees the order and the SMS count going down.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts);

async function shot(page: Page, name: string): Promise<void> {
  // The back-office's loading overlay (antd) or the storefront's own spinner (mall.html has no antd).
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning, .m-spin")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `mall-${name}.png`), fullPage: true });
}

/** The mall config through the miniprogram calls: created, authorised on the local platform, template chosen, committed. */
async function committedMall(
  request: APIRequestContext,
  token: string,
  opsToken: string,
  theme: number,
): Promise<string> {
  const U = "/api/card-user/miniProgram";
  const stamp = Date.now().toString(36);
  const tpl = await apiCall<{ id: string }>(request, opsToken, "post", "/api/ops/miniprogram/templates", {
    platform: "wechat",
    name: `权益商城${stamp}`,
    templateType: 0,
    userVersion: "1.0.0",
    description: "e2e",
    params: [],
  });
  const cfg = await apiCall<{ id: string }>(request, token, "put", `${U}/mpConfigs`, {
    platform: "wechat",
    configCode: `mall-${stamp}`,
    name: "星河权益商城",
    category: "Virtual goods",
    description: "权益卡券和礼包",
    theme,
    navMenus: [
      { title: "权益", target: "/goods" },
      { title: "礼包", target: "/bags" },
    ],
    bottomMenus: [
      { title: "首页", target: "/" },
      { title: "订单", target: "/orders" },
    ],
    customerService: "400-800-1234",
    domain: "mall.example.com",
    smsSignature: "星河",
    payOnPlatform: false,
    validityDays: 365,
    allowTopupAccountChange: true,
  });
  const auth = await apiCall<{ url: string }>(
    request,
    token,
    "get",
    `${U}/authUrl?configId=${cfg.id}&redirect=/sale/EquityApplet`,
  );
  const code = new URL(auth.url, "http://x").searchParams.get("pre_auth_code") ?? "";
  const consent = (await (
    await request.post(`/api/mp-platform/wechat/preauth/${encodeURIComponent(code)}/authorize`, {
      data: { nickName: `星河${stamp}` },
    })
  ).json()) as { data: { redirect: string; appId: string } };
  const back = new URL(consent.data.redirect, "http://x");
  await apiCall(request, token, "put", `${U}/authCallback`, {
    configId: Number(cfg.id),
    authCode: back.searchParams.get("auth_code"),
  });
  await apiCall(request, token, "post", `${U}/templateParams`, {
    configId: Number(cfg.id),
    templateId: Number(tpl.id),
    values: {},
  });
  await apiCall(request, token, "put", `${U}/mpConfigs/${cfg.id}/commit`, {
    userVersion: "1.0.0",
    userDesc: "e2e",
    force: false,
  });
  return consent.data.appId;
}

test("a customer buys a gift pack and codes in the mall on a phone; the purchaser sees the order and the SMS count", async ({
  browser,
  request,
}) => {
  test.setTimeout(420_000);
  const stamp = Date.now().toString(36);
  const supplier = await registerAccount(request, { orgName: "星河卡券供应有限公司" });
  const supplierToken = await loginToken(request, supplier);
  const buyer = await registerAccount(request, { orgName: "星河权益商城有限公司" });
  const buyerToken = await loginToken(request, buyer);
  await dock(request, { token: supplierToken, merchantId: supplier.merchantId }, buyerToken);

  const brand = await apiCall<{ id: number }>(request, supplierToken, "post", "/api/card-brander/brander/update", {
    name: `视频会员${stamp}`,
    description: "影音",
  });
  const cards = await apiCall<{ id: number }>(request, supplierToken, "post", "/api/card-brander/product/add", {
    brandId: brand.id,
    equityType: "video",
    invoiceType: "vat_6",
    perOrderMax: 10,
    name: `视频月卡${stamp}`,
    businessType: "card_secret",
    faceValue: 3000,
    code: `MC-${stamp}`,
    price: 2700,
    settlementPrice: 2500,
  });
  const csv = cardCsv(6, (i) => `MALL${stamp}${i},PIN${i}${stamp},`, { header: "cn", end: false });
  const imported = await request.post(`/api/card-brander/sup/merchandises/${cards.id}/cards?fileName=cards.csv`, {
    headers: { "x-auth-token": supplierToken, "content-type": "text/csv" },
    data: Buffer.from(csv),
  });
  expect(imported.status()).toBe(200);

  const opsToken = await operatorToken(request);
  await apiCall(request, opsToken, "post", `/api/ops/funds/merchants/${buyer.merchantId}/credit`, {
    amount: 100_000,
    reason: "e2e",
    requestKey: `e2e-mall-${buyer.merchantId}`,
  });
  await apiCall(request, buyerToken, "post", "/api/card-user/funds/reserveTransfer", {
    amount: 100_000,
    requestKey: `e2e-mall-move-${buyer.merchantId}`,
  });
  const appId = await committedMall(request, buyerToken, opsToken, 1);

  // The purchaser's back-office: its goods at its price, a gift pack, an SMS package, the brand show.
  const buyerPage = await sessionPage(browser, buyer, buyerToken, 1440);
  await buyerPage.goto("/sale/SelfSupport");
  await openWith(
    buyerPage.getByRole("button", { name: "添加商品" }),
    buyerPage.locator(".ant-modal").filter({ has: buyerPage.getByLabel("选择商品") }),
  );
  await chooseOption(buyerPage, buyerPage.getByLabel("选择商品"), `视频月卡${stamp}`);
  await buyerPage.getByLabel("售价").fill("29.90");
  await buyerPage.locator(".ant-modal-footer .ant-btn-primary").click();
  await expect(buyerPage.locator(".ant-table-row").first()).toContainText(`视频月卡${stamp}`);
  await shot(buyerPage, "self-support");
  const self = await apiCall<{ list: { id: string }[] }>(request, buyerToken, "get", "/api/card-user/mall/selfGoods");
  await apiCall(request, buyerToken, "post", "/api/card-user/mall/giftBags", {
    name: `双月礼包${stamp}`,
    description: "两个月视频会员",
    price: 5500,
    stock: 10,
    validDays: 60,
    items: [{ selfGoodsId: self.list[0]?.id, quantity: 2 }],
  });
  await apiCall(request, buyerToken, "put", "/api/card-user/mall/settings", {
    privateCode: null,
    brandTitle: "星河权益",
    brandIntro: "视频、音乐、出行权益，一站购齐。",
    brandImage: "",
  });
  await buyerPage.goto("/sale/SmsSendRecord");
  await confirmPopconfirm(buyerPage, buyerPage.getByRole("button", { name: /1000条/ }));
  await expect(buyerPage.getByTestId("sms-remaining")).toContainText("1,000");

  // The mall is not released: its experience version is for the testers the purchaser names.
  const phone = `139${String(Date.now()).slice(-8)}`;
  await buyerPage.goto("/sale/BrandShow");
  const testers = buyerPage.getByTestId("mall-testers");
  const phones = testers.getByRole("combobox", { name: "体验成员" });
  await phones.fill(phone);
  await phones.press("Enter");
  await expect(testers.locator(".ant-select-selection-item-content")).toHaveText([phone]);
  await testers.getByRole("button", { name: "保存体验成员" }).click();
  await expect(buyerPage.locator(".ant-message").getByText("已保存")).toBeVisible();
  await shot(buyerPage, "testers");

  // The customer at phone width opens the experience version from the beta QR's address: not released
  // yet, so it asks a tester to sign in (by SMS code: the mall sends it and counts it).
  const phoneContext = await browser.newContext({
    locale: "zh-CN",
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const customer = await phoneContext.newPage();
  await customer.goto(`/mall/${appId}?v=beta`);
  await expect(customer.getByTestId("mall-testers-only")).toContainText("尚未发布");
  await expect(customer.getByTestId("mall-goods")).toHaveCount(0);
  await shot(customer, "testers-only-390");
  await clickUntil(customer.getByRole("link", { name: "体验成员登录" }), () =>
    expect(customer.locator("#phone")).toBeVisible({ timeout: 5_000 }),
  );
  await customer.locator("#phone").fill(phone);
  await customer.getByRole("button", { name: "获取验证码" }).click();
  await customer.locator("#smsCode").fill(await readCode(request, phone));
  await customer.getByRole("button", { name: /^登\s?录$/ }).click();
  await expect(customer).toHaveURL(new RegExp(`/mall/${appId}(\\?v=beta)?$`));
  await expect(customer.getByTestId("mall-title")).toHaveText("星河权益商城");
  await expect(customer.getByTestId("mall-goods")).toHaveCount(2);
  // The bottom menu is the configured one.
  await expect(customer.getByTestId("mall-tab")).toHaveText(["首页", "订单"]);
  await shot(customer, "home-390");
  await customer.screenshot({ path: "/tmp/mall-shots/storefront-home-390.png", fullPage: true });

  // The gift pack into the cart, the card goods bought now; pay with the wallet.
  // Opening an item is made again if the tap was lost (it only navigates); adding to the cart is not.
  const addToCart = customer.getByRole("button", { name: "加入购物车" });
  await clickUntil(customer.getByTestId("mall-goods").filter({ hasText: `双月礼包${stamp}` }), () =>
    expect(addToCart).toBeVisible({ timeout: 5_000 }),
  );
  // The configured bottom menu has no cart: the header carries it, and its count shows what was added
  // (issue 40, item 1); it opens the cart.
  const cartButton = customer.getByTestId("mall-cart-button");
  await expect(cartButton).toHaveAccessibleName("购物车");
  await addToCart.click();
  await expect(cartButton).toHaveAccessibleName("购物车，1件");
  await expect(cartButton).toContainText("1");
  await shot(customer, "item-added-390");
  await cartButton.click();
  await expect(customer.getByTestId("cart-line")).toHaveCount(1);
  await expect(customer.getByTestId("mall-cart-button")).toHaveCount(0);
  await customer.goto(`/mall/${appId}`);
  await clickUntil(customer.getByTestId("mall-goods").filter({ hasText: `视频月卡${stamp}` }), () =>
    expect(customer.getByRole("button", { name: "立即购买" })).toBeVisible({ timeout: 5_000 }),
  );
  await shot(customer, "item-390");
  await customer.getByRole("button", { name: "立即购买" }).click();
  await expect(customer.getByTestId("cart-line")).toHaveCount(2);
  await expect(customer.getByTestId("cart-total")).toContainText("84.90");
  // One-card payment is unavailable here, and the cart says why (issue 40, item 7).
  await expect(customer.getByRole("radio", { name: "一卡通" })).toBeDisabled();
  await expect(customer.getByTestId("card-reason")).toHaveText("本商城只收本商城发行的一卡通。");
  await shot(customer, "cart-390");
  // Paying asks first, with the amount: the pay sheet.
  await customer.getByRole("button", { name: /^支\s?付$/ }).click();
  await expect(customer.getByTestId("pay-sheet-amount")).toContainText("84.90");
  await shot(customer, "pay-sheet-390");
  await customer
    .getByTestId("pay-sheet")
    .getByRole("button", { name: /确认支付/ })
    .click();
  await expect(customer.getByTestId("order-state")).toHaveText("已发货");
  await expect(customer.getByTestId("card-secret")).toHaveCount(3);
  await expect(customer.getByTestId("card-secret").first()).toContainText(`PIN`);
  await shot(customer, "order-codes-390");

  // The codes are in the customer's card bag too (masked; each opens its order).
  await customer.goto("/client/cardBag");
  await expect(customer.getByTestId("bag-mall-codes").locator("a")).toHaveCount(3);
  await expect(customer.getByTestId("bag-mall-codes")).not.toContainText("PIN");
  await expect(customer.getByText("卡包里还没有卡")).toHaveCount(0); // not empty: it holds the mall codes
  await shot(customer, "card-bag-codes-390");
  await customer.screenshot({ path: "/tmp/mall-shots/card-bag-codes-390.png", fullPage: true });

  // The purchaser sees the order (codes masked) and one SMS fewer.
  await buyerPage.goto("/sale/EquityOrder");
  await expect(buyerPage.locator(".ant-table-row").first()).toContainText(`双月礼包${stamp}`);
  await expect(buyerPage.locator(".ant-table-row").first()).toContainText("已发货");
  await shot(buyerPage, "equity-orders");
  await buyerPage.goto("/sale/SmsSendRecord");
  await expect(buyerPage.getByTestId("sms-remaining")).toContainText("999");
  await expect(buyerPage.locator(".ant-table-row").filter({ hasText: phone })).toHaveCount(1);
  await shot(buyerPage, "sms-records");

  // The purchaser refunds the order on EquityOrder: the refund's dialog is its confirmation, with the
  // amount in its title and where the money goes below (issue 37); its OK refunds, once.
  await buyerPage.goto("/sale/EquityOrder");
  const equityOrder = buyerPage.locator(".ant-table-row").filter({ hasText: `双月礼包${stamp}` });
  await expect(equityOrder).toContainText("¥84.90");
  const refund = new FormDialog(buyerPage, "退款 · ¥84.90");
  await refund.open(equityOrder.getByRole("button", { name: /^退\s?款$/ }));
  await expect(refund.root).toContainText("¥84.90将原路退回顾客的钱包支付");
  await expect(refund.root).toContainText("此操作不可撤销");
  await refund.root.getByLabel("退款原因").fill("顾客申请退款");
  await buyerPage.setViewportSize({ width: 1280, height: 800 });
  await shot(buyerPage, "equity-refund-confirm");
  await buyerPage.setViewportSize({ width: 1440, height: 900 });
  await refund.submit({ button: /^退\s?款$/ });
  await expect(refund.root).toBeHidden();
  await expect(equityOrder).toContainText("已退款");
});
