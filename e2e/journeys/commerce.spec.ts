import path from "node:path";
import { expect as baseExpect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiCall, loginToken, readCode, registerAccount } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { operatorToken } from "../support/operator";
import { clickUntil, confirmPopconfirm, openWith } from "../support/click";
import { confirmMoney } from "../support/confirm";
import { Drawer } from "../support/pages";
import { chooseOption } from "../support/select";
import { sessionPage } from "../support/journey";
import { creditSup } from "../support/world";

/**
 * Physical goods (issue 28): a brand adds a product with two specifications (colour × size); a purchaser
 * picks it to resell and orders it for a customer in Hangzhou; pays from SUP; the brand ships it through
 * the courier simulator, whose tracking events arrive until the parcel is signed; the purchaser sees the
 * trace and confirms receipt (the brand is paid); a return and refund goes to the end and the money and
 * the stock come back.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts);
const two = (s: string) => new RegExp(`^${s[0]}\\s?${s.slice(1)}$`);

async function shot(page: Page, name: string): Promise<void> {
  await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, `commerce-${name}.png`), fullPage: true });
}

async function call<T>(
  request: APIRequestContext,
  token: string,
  url: string,
  data?: unknown,
  method: "post" | "get" = "post",
): Promise<T> {
  const res =
    method === "post"
      ? await request.post(url, { headers: { "x-auth-token": token }, data })
      : await request.get(url, { headers: { "x-auth-token": token } });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, body.msg).toBe(1);
  return body.data;
}

test("a brand sells a product with two specifications; a purchaser resells it; shipped, tracked to signed, confirmed; a return and refund gives money and stock back", async ({
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  const stamp = Date.now().toString(36);
  const name = `纯棉T恤${stamp}`;
  const brand = await registerAccount(request, { orgName: "棉麻服饰品牌有限公司" });
  const brandToken = await loginToken(request, brand);
  const buyer = await registerAccount(request, { orgName: "优选转售商贸有限公司" });
  const buyerToken = await loginToken(request, buyer);
  const opsToken = await operatorToken(request);
  await creditSup(request, {
    ops: opsToken,
    merchantId: buyer.merchantId,
    token: buyerToken,
    credit: 100_000,
    move: 100_000,
    creditKey: `e2e-cm-${buyer.merchantId}`,
    moveKey: `e2e-cm-move-${buyer.merchantId}`,
  });
  const sup = async () =>
    (
      await call<{ balances: { sup: { amount: number } } }>(
        request,
        buyerToken,
        "/api/card-user/userInfo",
        undefined,
        "get",
      )
    ).balances.sup.amount;
  const supBefore = await sup();

  // The brand adds the product: colour (红, 蓝) × size (M, L), a price and stock per SKU.
  const brandPage = await sessionPage(browser, brand, brandToken, 1440);
  await brandPage.goto("/business/AddProducts");
  await brandPage.getByLabel("商品", { exact: true }).fill(name);
  await brandPage.getByLabel("分类").fill("服饰");
  for (const [group, values] of [
    ["颜色", ["红", "蓝"]],
    ["尺码", ["M", "L"]],
  ] as const) {
    await brandPage.getByRole("button", { name: "添加规格" }).click();
    await brandPage.getByLabel("规格名").last().fill(group);
    const tags = brandPage.getByRole("combobox", { name: "规格值" }).last();
    for (const v of values) {
      await tags.fill(v);
      await tags.press("Enter");
    }
  }
  for (const combo of ["红/M", "红/L", "蓝/M", "蓝/L"]) {
    await brandPage.getByLabel(`价格 ${combo}`).fill(combo.startsWith("红") ? "59" : "62");
    await brandPage.getByLabel(`库存 ${combo}`).fill("10");
  }
  await brandPage.getByLabel("首重运费（1千克）").fill("8");
  await shot(brandPage, "add-product");
  await brandPage.getByRole("button", { name: two("保存") }).click();
  await expect(brandPage).toHaveURL(/\/business\/ProductList/);
  const productRow = brandPage.locator(".ant-table-row").filter({ hasText: name });
  await expect(productRow).toContainText("红 / M · 10");
  await productRow.getByRole("switch").click();
  await expect(productRow.getByRole("switch")).toBeChecked();
  await shot(brandPage, "product-list");
  // The goods' video is picked from the video library (issue 40, item 18); an empty library says where to add one.
  await productRow.getByTestId(`video-${name}`).click();
  const videoDialog = brandPage.locator(".ant-modal").filter({ hasText: "商品视频" });
  await expect(videoDialog).toContainText("视频库里还没有视频");
  await expect(videoDialog.getByRole("link", { name: "去视频库上传" })).toHaveAttribute(
    "href",
    "/business/VideoLibrary",
  );
  await expect(videoDialog.getByTestId("video-save")).toHaveCount(0);
  await shot(brandPage, "product-video-empty");
  await videoDialog.getByRole("button", { name: two("取消") }).click();
  await expect(videoDialog).toBeHidden();

  // The purchaser picks it to resell and orders one red L for a customer in Hangzhou.
  const buyerPage = await sessionPage(browser, buyer, buyerToken, 1440);
  await buyerPage.goto("/sale/PhysicalSelection");
  const goodsRow = buyerPage.locator(".ant-table-row").filter({ hasText: name });
  await goodsRow.getByRole("button", { name: "选品转售" }).click();
  await expect(goodsRow).toContainText("已选");
  await buyerPage.goto("/sale/RealGoods");
  const dialog = buyerPage.locator(".ant-modal").filter({ hasText: "下单：" });
  await openWith(
    buyerPage.locator(".ant-table-row").filter({ hasText: name }).getByRole("button", { name: "下单" }),
    dialog,
  );
  await chooseOption(buyerPage, buyerPage.getByRole("combobox", { name: "sku" }), "红 / L", { search: true });
  await dialog.getByLabel("收货人").fill("李雷");
  await dialog.getByLabel("手机号").fill("13800138000");
  await chooseOption(buyerPage, buyerPage.getByRole("combobox", { name: "province" }), "浙江省", { search: true });
  await chooseOption(buyerPage, buyerPage.getByRole("combobox", { name: "city" }), "杭州市", { search: true });
  await chooseOption(buyerPage, buyerPage.getByRole("combobox", { name: "county" }), "西湖区", { search: true });
  await dialog.getByLabel("详细地址").fill("文三路 1 号");
  await shot(buyerPage, "order-dialog");
  await dialog.getByRole("button", { name: two("下单") }).click();
  await expect(buyerPage.getByText("下单成功，请在订单列表中付款")).toBeVisible();

  await buyerPage.goto("/sale/RealGoodsOrders");
  const orderRow = buyerPage.locator(".ant-table-row").filter({ hasText: name });
  await expect(orderRow).toContainText("待付款");
  // 59.00 + 8.00 freight.
  await expect(orderRow).toContainText("67.00");
  // Paying asks first, with the amount and where it goes (issue 37); its OK pays, once.
  await confirmMoney(buyerPage, orderRow.getByRole("button", { name: /^付\s?款$/ }), {
    amount: "¥67.00",
    ok: /^付\s?款$/,
    look: async () => {
      // The confirmation at 1280 px (issue 37), then the journey's own size again.
      await buyerPage.setViewportSize({ width: 1280, height: 800 });
      await shot(buyerPage, "pay-confirm");
      await buyerPage.setViewportSize({ width: 1366, height: 860 });
    },
  });
  await expect(orderRow).toContainText("待发货");
  expect(await sup()).toBe(supBefore - 6_700);

  // The brand ships it through the courier simulator.
  await brandPage.goto("/business/OrderRelated");
  const brandOrder = brandPage.locator(".ant-table-row").filter({ hasText: name });
  const ship = brandPage.locator(".ant-modal").filter({ hasText: "发货：订单" });
  await openWith(brandOrder.getByRole("button", { name: "发货" }), ship);
  await chooseOption(brandPage, brandPage.getByRole("combobox", { name: "company" }), "顺丰速运", { search: true });
  await ship.getByRole("button", { name: two("发货") }).click();
  await expect(brandOrder).toContainText("已发货");
  await expect(brandOrder).toContainText("顺丰速运 SH");

  // Tracking events arrive step by step until the parcel is signed; the order is then received.
  await expect(async () => {
    await buyerPage.reload();
    await expect(orderRow).toContainText("已收货", { timeout: 3_000 });
  }).toPass({ timeout: 90_000 });
  const tracking = await new Drawer(buyerPage).open(orderRow.getByRole("button", { name: "物流" }));
  await expect(tracking.get("tracking-event")).toHaveCount(5);
  await expect(tracking.get("tracking-event").first()).toContainText("已签收");
  await shot(buyerPage, "tracking");
  // A drawer left open covers the row: the next click would wait for the journey's timeout.
  await tracking.close();
  await confirmPopconfirm(buyerPage, orderRow.getByRole("button", { name: "确认收货" }), /确\s?定|OK/);
  await expect(orderRow).toContainText("已完成");
  const income = async () =>
    (
      await call<{ balances: { income: { amount: number } } }>(
        request,
        brandToken,
        "/api/card-user/userInfo",
        undefined,
        "get",
      )
    ).balances.income.amount;
  expect(await income()).toBe(6_700);

  // Return and refund: apply, the brand agrees, the goods go back with a waybill, the brand receives them.
  const apply = buyerPage.locator(".ant-modal").filter({ hasText: "售后申请" });
  await openWith(orderRow.getByRole("button", { name: "申请售后" }), apply);
  await apply.getByLabel("退货退款").check();
  await apply.getByLabel("原因").fill("尺码偏小");
  await apply.getByRole("button", { name: /确\s?定|OK/ }).click();
  await expect(buyerPage.getByText("申请已提交")).toBeVisible();

  await brandPage.goto("/business/OrderRelated?tab=aftersales");
  const caseRow = brandPage.locator(".ant-table-row").filter({ hasText: name });
  await expect(caseRow).toContainText("已申请");
  // Agreeing to a return names the return address (issue 37); the buyer is shown it.
  const agree = brandPage.locator(".ant-modal").filter({ hasText: "同意" });
  await openWith(caseRow.getByRole("button", { name: "同意" }), agree);
  // The refund it promises, and when it is paid (issue 37).
  await expect(agree).toContainText("同意 · ¥59.00");
  await expect(agree).toContainText("您确认收货后，将退款¥59.00");
  await agree.getByLabel("退货地址").fill("退货仓 张三 13800138000 杭州市西湖区文三路1号");
  await clickUntil(
    agree.getByRole("button", { name: /确\s?定|OK/ }),
    () => expect(agree).toBeHidden({ timeout: 3_000 }),
    30_000,
  );
  await expect(caseRow).toContainText("已同意，待退货");

  await buyerPage.goto("/sale/OnlineRefundSheet");
  const myCase = buyerPage.locator(".ant-table-row").filter({ hasText: name });
  await expect(myCase).toContainText("杭州市西湖区文三路1号");
  const back = buyerPage.locator(".ant-modal").filter({ hasText: "寄回商品" });
  await openWith(myCase.getByRole("button", { name: "寄回" }), back);
  await chooseOption(buyerPage, buyerPage.getByRole("combobox", { name: "company" }), "中通快递", { search: true });
  await back.getByLabel("快递单号").fill(`ZT${Date.now()}`);
  // The OK of a dialog still opening can be lost on a loaded machine (CI once): click until it closes.
  await clickUntil(
    back.getByRole("button", { name: /确\s?定|OK/ }),
    () => expect(back).toBeHidden({ timeout: 3_000 }),
    30_000,
  );
  await expect(myCase).toContainText("已寄回");
  await shot(buyerPage, "refund-sheet");

  await brandPage.reload();
  await confirmMoney(brandPage, caseRow.getByRole("button", { name: "确认收货并退款" }), {
    amount: "¥59.00",
    ok: "确认收货并退款",
    popconfirm: true,
  });
  await expect(caseRow).toContainText("已退款");
  await shot(brandPage, "aftersales");

  // The money came back to SUP (the goods' price; the freight stays) and the stock to the SKU.
  expect(await sup()).toBe(supBefore - 800);
  expect(await income()).toBe(800);
  const products = await call<{ list: { name: string; skus: { id: string; specs: string[]; stock: number }[] }[] }>(
    request,
    brandToken,
    "/api/ecommerce/commodity/pager",
    { page: 1, pagesize: 20 },
  );
  const redL = products.list.find((p) => p.name === name)?.skus.find((s) => s.specs.join("/") === "红/L");
  expect(redL?.stock).toBe(10);

  // Refund only: a second order, paid and not yet shipped, whose buyer asks for the goods' price back. The
  // brand's 同意 refunds at once, so it asks first with the amount and where it goes (issue 37).
  const blueM = products.list.find((p) => p.name === name)?.skus.find((s) => s.specs.join("/") === "蓝/M");
  expect(blueM).toBeDefined();
  const second = await call<{ id: string; orderNo: string; items: { id: string }[] }>(
    request,
    buyerToken,
    "/api/card-user/commerce/orders",
    {
      items: [{ skuId: blueM?.id, quantity: 1 }],
      consignee: {
        name: "韩梅梅",
        phone: "13900139000",
        provinceCode: "330000",
        cityCode: "330100",
        countyCode: "330106",
        address: "文三路 2 号",
      },
      requestKey: `e2e-cm-second-${stamp}`,
    },
  );
  await call(request, buyerToken, `/api/card-user/commerce/orders/${second.id}/pay`, {});
  const supPaid = await sup();
  await call(request, buyerToken, "/api/card-user/commerce/aftersales", {
    orderItemId: second.items[0]?.id,
    way: "refund",
    quantity: 1,
    amount: 6_200,
    reason: "客户取消订单",
    requestKey: `e2e-cm-refund-only-${stamp}`,
  });
  await brandPage.goto("/business/OrderRelated?tab=aftersales");
  const refundOnly = brandPage.locator(".ant-table-row").filter({ hasText: second.orderNo });
  await expect(refundOnly).toContainText("仅退款");
  await confirmMoney(brandPage, refundOnly.getByRole("button", { name: "同意", exact: true }), {
    amount: "同意 · ¥62.00",
    ok: /^同\s?意$/,
    popconfirm: true,
    look: async () => {
      await expect(brandPage.locator(".ant-popconfirm").filter({ visible: true })).toContainText(
        `同意后¥62.00将立即退回优选转售商贸有限公司的SUP账户（订单${second.orderNo}），此操作不可撤销。`,
      );
      await brandPage.setViewportSize({ width: 1280, height: 800 });
      await shot(brandPage, "refund-only-agree-confirm");
      await brandPage.setViewportSize({ width: 1440, height: 900 });
    },
  });
  await expect(refundOnly).toContainText("已退款");
  expect(await sup()).toBe(supPaid + 6_200);
});

test("a takeout shop is set up; a customer on a phone orders a combo; the shop accepts, prepares, delivers and completes it; a refused order is refunded", async ({
  browser,
  request,
}) => {
  test.setTimeout(420_000);
  const brand = await registerAccount(request, { orgName: "西湖面馆餐饮有限公司" });
  const brandToken = await loginToken(request, brand);

  // The shop's settings through TakeoutSet: open all day, a 3 km radius around West Lake.
  const brandPage = await sessionPage(browser, brand, brandToken, 1440);
  await brandPage.goto("/business/TakeoutSet");
  await brandPage.getByLabel("店铺名称").fill("西湖面馆");
  // No point is filled in for the merchant (issue 40 item 14): the shop's own coordinates.
  await expect(brandPage.getByLabel("纬度")).toHaveValue("");
  await brandPage.getByLabel("纬度").fill("30.2741");
  await brandPage.getByLabel("经度").fill("120.1551");
  await brandPage.getByLabel("开始").first().fill("00:00");
  await brandPage.getByLabel("结束").first().fill("23:59");
  await shot(brandPage, "takeout-set");
  await brandPage.getByRole("button", { name: two("保存") }).click();
  await expect(brandPage.getByTestId("takeout-link")).toContainText(`/takeout/${brand.merchantId}`);

  // The menu: a category, two items (one with a spice option) and a combo of both.
  const types = await apiCall<{ id: string }[]>(request, brandToken, "post", "/api/card-brander/takeout/types", {
    name: "面食",
    sort: 1,
  });
  await apiCall(request, brandToken, "post", "/api/card-brander/takeout/items", {
    typeId: types[0]?.id,
    name: "牛肉面",
    price: 1800,
    stock: 50,
    options: [
      {
        name: "辣度",
        required: true,
        max: 1,
        choices: [
          { name: "微辣", price: 0 },
          { name: "特辣", price: 100 },
        ],
      },
    ],
  });
  const items = await apiCall<{ id: string; name: string }[]>(
    request,
    brandToken,
    "post",
    "/api/card-brander/takeout/items",
    { typeId: types[0]?.id, name: "柠檬茶", price: 600 },
  );
  await apiCall(request, brandToken, "post", "/api/card-brander/takeout/packages", {
    name: "午餐套餐",
    price: 2200,
    items: items.map((i) => ({ itemId: i.id, quantity: 1 })),
  });
  await brandPage.goto("/business/PackageSet");
  await expect(brandPage.locator(".ant-table-row").filter({ hasText: "午餐套餐" })).toContainText("牛肉面 × 1");
  await shot(brandPage, "takeout-packages");

  // The customer on a phone at the lake: logs in by SMS code, orders the combo and pays.
  const phone = `17${String(Date.now()).slice(-9)}`;
  const phoneContext = await browser.newContext({
    locale: "zh-CN",
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: 30.26, longitude: 120.15 },
    permissions: ["geolocation"],
  });
  const customer = await phoneContext.newPage();
  const order = async (): Promise<void> => {
    await customer.goto(`/takeout/${brand.merchantId}`);
    await customer.getByRole("button", { name: "加入 午餐套餐" }).click();
    await expect(customer.getByTestId("cart-line")).toHaveCount(1);
    await customer.getByLabel("联系人").fill("韩梅梅");
    await customer.getByLabel("手机号").fill(phone);
    await customer.getByLabel("收货地址").fill("文三路 9 号");
    await clickUntil(customer.getByRole("button", { name: "使用当前位置" }), () =>
      expect(customer.getByText("已定位")).toBeVisible({ timeout: 5_000 }),
    );
    await customer.getByRole("button", { name: /支付/ }).click();
    await expect(customer).toHaveURL(/\/takeout\/order\/\d+/);
  };
  // A first order starts logged out: the cart, the form and the location survive a reload and the login the
  // payment asks for, whose page names the shop (issue 40, item 2).
  await customer.goto(`/takeout/${brand.merchantId}`);
  await expect(customer.getByTestId("takeout-combo")).toContainText("¥22.00");
  await customer.getByRole("button", { name: "加入 午餐套餐" }).click();
  await customer.getByLabel("联系人").fill("韩梅梅");
  await customer.getByLabel("手机号").fill(phone);
  await customer.getByLabel("收货地址").fill("文三路 9 号");
  await clickUntil(customer.getByRole("button", { name: "使用当前位置" }), () =>
    expect(customer.getByText("已定位")).toBeVisible({ timeout: 5_000 }),
  );
  await customer.reload();
  await expect(customer.getByTestId("cart-line")).toHaveCount(1);
  await expect(customer.getByLabel("联系人")).toHaveValue("韩梅梅");
  await customer.getByRole("button", { name: /支付/ }).click();
  await expect(customer).toHaveURL(/\/client\/login\?back=/);
  await expect(customer.getByTestId("login-shop")).toContainText("购物车和填写的信息都还在");
  await shot(customer, "takeout-login-390");
  await customer.locator("#phone").fill(phone);
  await customer.getByRole("button", { name: "获取验证码" }).click();
  await customer.locator("#smsCode").fill(await readCode(request, phone));
  await customer.getByRole("button", { name: /^登\s?录$/ }).click();
  await expect(customer).toHaveURL(new RegExp(`/takeout/${brand.merchantId}`));
  await expect(customer.getByTestId("cart-line")).toHaveCount(1);
  await expect(customer.getByLabel("收货地址")).toHaveValue("文三路 9 号");
  await expect(customer.getByText("已定位")).toBeVisible();
  await shot(customer, "takeout-shop-390");
  await customer.getByRole("button", { name: /支付/ }).click();
  await expect(customer).toHaveURL(/\/takeout\/order\/\d+/);
  await expect(customer.getByTestId("takeout-state")).toContainText("待接单");
  await shot(customer, "takeout-order-390");

  // The shop sees it arrive live and moves it on to delivered; the kitchen ticket prints it.
  await brandPage.goto("/business/TakeoutOrder");
  const row = brandPage.locator(".ant-table-row").filter({ hasText: "午餐套餐" }).first();
  await expect(row).toContainText("待接单");
  const ticketHref = await row.getByRole("link", { name: "后厨小票" }).getAttribute("href");
  // Each step's button leaves the row with the step (the server refuses a step twice), so a lost click is made again.
  for (const [button, state] of [
    ["接单", "备餐中"],
    ["出餐配送", "配送中"],
    ["已送达", "已送达"],
  ] as const) {
    await clickUntil(row.getByRole("button", { name: button }), () =>
      expect(row).toContainText(state, { timeout: 5_000 }),
    );
  }
  await expect(customer.getByTestId("takeout-state")).toContainText("已送达");
  await shot(customer, "takeout-delivered-390");
  const balances = (
    await apiCall<{ balances: { income: { amount: number }; sandboxIncome: { amount: number } } }>(
      request,
      brandToken,
      "get",
      "/api/card-user/userInfo",
    )
  ).balances;
  // 22.00 combo + packing 1.00 + delivery 5.00 (TakeoutSet's defaults), paid through the sandbox payment
  // adapter: test money, shown apart on the brand's home and never withdrawable.
  expect(balances).toMatchObject({ income: { amount: 0 }, sandboxIncome: { amount: 2_800 } });
  const ordersPage = brandPage.url();
  await brandPage.goto("/business/Home");
  await expect(brandPage.getByTestId("balance-sandbox")).toHaveText("¥28.00");
  await expect(brandPage.getByTestId("balance-income")).toHaveText("¥0.00");
  await shot(brandPage, "home-sandbox-money");
  await brandPage.goto(ordersPage);
  const ticket = await brandPage.context().newPage();
  await ticket.goto(ticketHref ?? "");
  await expect(ticket.getByTestId("kitchen-ticket")).toContainText("午餐套餐 × 1");
  await shot(ticket, "kitchen-ticket");

  // A second order the shop refuses: the customer sees the reason and the refund.
  await order();
  await brandPage.reload();
  const second = brandPage.locator(".ant-table-row").filter({ hasText: "待接单" }).first();
  await openWith(
    second.getByRole("button", { name: "拒单 / 取消" }),
    brandPage.locator(".ant-modal").filter({ has: brandPage.getByLabel("原因（顾客可见）") }),
  );
  await brandPage.getByLabel("原因（顾客可见）").fill("牛肉售罄");
  await brandPage
    .locator(".ant-modal")
    .getByRole("button", { name: /确\s?定|OK/ })
    .click();
  await expect(customer.getByTestId("takeout-state")).toContainText("牛肉售罄");
  await expect(customer.getByTestId("takeout-state")).toContainText("已退款 ¥28.00");
  await shot(customer, "takeout-refused-390");
});
