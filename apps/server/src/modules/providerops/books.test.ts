import type {
  Commodity,
  FiguresReply,
  FundChangeRow,
  InvoiceableRow,
  LinkDataReply,
  CommerceOrder,
  Page,
  PurchaseOrder,
  ServedSettlement,
} from "@tessera/contracts";
import { expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { platformDay } from "../../platform/clock";
import { checkInvariants } from "../ledger";

/**
 * Issue 37, point 6 ("one set of books"): a purchaser buys digital goods, stored-value cards, physical goods
 * and an SMS package, returns some cards and gets a refund on the goods. Its provider's LinkData and purchase
 * figures, the brand's settlement line and the purchaser's invoiceable amount all equal what its fund sheet
 * shows, because all of them read the same ledger entries.
 */
const t = useTestApp();

let seq = 0;
const key = () => `books-${Date.now()}-${++seq}`;

async function provider(orgName: string) {
  const ops = await registerOperator(t);
  const p = await registerMerchant(t, { orgName });
  await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, { token: ops.token, body: { grant: true } });
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: p.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  return { ...p, token: login.body.data.token };
}

it("the provider's figures, the brand's settlement and the invoiceable amount agree with the purchaser's fund sheet", async () => {
  const mine = await provider("Books Provider");
  const brand = await registerMerchant(t, { orgName: "Books Brand" });
  const { buyer } = await dock(t, brand);
  await t.call("POST", "/api/card-servicer/brander/service", {
    token: buyer.token,
    body: { providerId: mine.merchantId, kind: "vendor" },
  });
  await fundSup(t, buyer, 1_000_000);

  // Digital goods (card secrets): 2 × ¥50.00, one of them refunded later.
  const catalogBrand = await newBrand(t, brand, "Books codes");
  const goods = await newGoods(t, brand, catalogBrand.id, { name: "Books code", price: 5_000, settlementPrice: 4_500 });
  await importFile(
    t,
    brand.token,
    goods.id,
    "cards.csv",
    cardCsv(3, (i) => `BOOKS${Date.now()}${i},S${i},`),
  );
  const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(goods.id), quantity: 2, orderNo: `PO${Date.now()}${++seq}` },
  });
  expect(order.body.data.state).toBe("success");

  // Stored-value cards: 3 × ¥100.00 bought, 1 returned, 1 activated (the brand is paid then).
  const product = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
    token: brand.token,
    body: {
      kind: "face_value",
      name: "Books card",
      faceValue: 10_000,
      salePrice: 10_000,
      named: false,
      validity: { kind: "days", days: 1200 },
      rechargeAllowed: true,
      scope: "",
      terms: "",
    },
  });
  expect(product.body.code).toBe(1);
  await t.call("POST", "/api/card-brander/onecard/batches", {
    token: brand.token,
    body: { productId: product.body.data.id, count: 3, requestKey: key() },
  });
  const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
    token: buyer.token,
    body: { productId: product.body.data.id, quantity: 3, requestKey: key() },
  });
  expect(sale.body.code).toBe(1);
  const cards = (
    await t.call<{ list: { id: string }[] }>("GET", "/api/card-user/onecard/cards?pageSize=100", { token: buyer.token })
  ).body.data.list;
  expect(cards).toHaveLength(3);
  const returned = await t.call("POST", "/api/card-user/onecard/returns", {
    token: buyer.token,
    body: { cardIds: [cards[0]?.id], reason: "", requestKey: key() },
  });
  expect(returned.body.code).toBe(1);
  const activated = await t.call("POST", "/api/card-user/onecard/activate", {
    token: buyer.token,
    body: { cardIds: [cards[1]?.id], requestKey: key() },
  });
  expect(activated.body.code).toBe(1);

  // Physical goods: one tee at ¥59.00 plus ¥8.00 freight, paid.
  const added = await t.call<Commodity>("POST", "/api/ecommerce/commodity/add", {
    token: brand.token,
    body: {
      name: "Books tee",
      category: "Apparel",
      specGroups: [{ name: "Size", values: ["M"] }],
      skus: [{ specs: ["M"], price: 5_900, stock: 5 }],
      weightG: 300,
      freightFirst: 800,
      freightExtra: 200,
      freeOver: 20_000,
    },
  });
  await t.call("POST", "/api/ecommerce/commodity/state/update", {
    token: brand.token,
    body: { id: added.body.data.id, onShelf: true },
  });
  const physical = await t.call<CommerceOrder>("POST", "/api/card-user/commerce/orders", {
    token: buyer.token,
    body: {
      items: [{ skuId: added.body.data.skus[0]?.id, quantity: 1 }],
      consignee: {
        name: "Li Lei",
        phone: "13800138000",
        provinceCode: "330000",
        cityCode: "330100",
        countyCode: "330106",
        address: "Wensan Road 1",
      },
      requestKey: key(),
    },
  });
  expect(physical.body.code).toBe(1);
  const paid = await t.call<CommerceOrder>("POST", `/api/card-user/commerce/orders/${physical.body.data.id}/pay`, {
    token: buyer.token,
  });
  expect(paid.body.code).toBe(1);

  // An SMS package (platform fees): ¥50.00.
  const sms = await t.call("POST", "/api/card-user/mall/sms/packages", {
    token: buyer.token,
    body: { code: "sms1000", requestKey: key() },
  });
  expect(sms.body.code).toBe(1);

  // The refund of one code of the digital goods order.
  const asked = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
    token: buyer.token,
    body: { orderId: order.body.data.id, quantity: 1, reason: "Not needed" },
  });
  const accepted = await t.call<{ state: string }>("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
    token: brand.token,
    body: { approve: true },
  });
  expect(accepted.body.data.state).toBe("success");

  // The purchaser's fund sheet: every SUP change except the top-up.
  const sheet = (
    await t.call<Page<FundChangeRow>>("GET", "/api/card-user/funds/changes?account=sup&pageSize=100", {
      token: buyer.token,
    })
  ).body.data.list.filter((r) => r.type !== "top_up" && r.type !== "manual_credit");
  const spent = sheet.reduce((s, r) => s + r.expense - r.increase, 0);
  // ¥100 of codes less a refunded one, ¥200 of cards kept, ¥67 of goods with freight, ¥50 of SMS.
  expect(spent).toBe(10_000 - 5_000 + 20_000 + 6_700 + 5_000);

  const today = platformDay(t.clock.now());
  const link = (
    await t.call<LinkDataReply>("GET", `/api/card-servicer/ops/linkData?from=${today}&to=${today}`, {
      token: mine.token,
    })
  ).body.data;
  const vendorRow = link.merchants.find((m) => m.merchantId === String(buyer.merchantId) && m.role === "vendor");
  expect(vendorRow?.amount.amount).toBe(spent);
  // One code order, one card sale, one physical order, one SMS package.
  expect(vendorRow?.orders).toBe(4);
  expect(link.totals.amount.amount).toBe(spent);

  const figures = (
    await t.call<FiguresReply>("GET", `/api/card-servicer/ops/figures?from=${today}&to=${today}`, {
      token: mine.token,
    })
  ).body.data;
  expect(figures.totals.amount.amount - figures.totals.refunds.amount).toBe(spent);
  expect(figures.totals.orders).toBe(4);
  expect(figures.days.at(-1)?.buyers).toBe(1);

  // The purchaser's invoiceable spend: codes by the goods' type, cards 0% ordinary, physical VAT 13%, SMS as fees.
  const invoiceable = (
    await t.call<InvoiceableRow[]>("GET", "/api/card-user/invoice/invoiceable", { token: buyer.token })
  ).body.data;
  const spentOf = (type: string) => invoiceable.find((r) => r.invoiceType === type)?.spent.amount ?? 0;
  expect(invoiceable.reduce((s, r) => s + r.spent.amount, 0)).toBe(spent);
  expect(spentOf("ordinary_0")).toBe(20_000);
  expect(spentOf("vat_13")).toBe(6_700);
  expect(spentOf("vat_6")).toBeGreaterThanOrEqual(5_000);

  // The brand's monthly settlement: what it sold to merchants that reached its income (codes, activated cards).
  const brandProvider = await provider("Books Brand Provider");
  await t.call("POST", "/api/card-servicer/brander/service", {
    token: brand.token,
    body: { providerId: brandProvider.merchantId, kind: "brand" },
  });
  const month = today.slice(0, 7);
  const settlements = (
    await t.call<ServedSettlement[]>("GET", `/api/card-servicer/ops/settlements?from=${month}&to=${month}`, {
      token: brandProvider.token,
    })
  ).body.data;
  const brandIncome = (
    await t.call<Page<FundChangeRow>>("GET", "/api/card-user/funds/changes?account=income&pageSize=100", {
      token: brand.token,
    })
  ).body.data.list.reduce((s, r) => s + r.increase - r.expense, 0);
  expect(settlements).toHaveLength(1);
  expect(settlements[0]?.net.amount).toBe(brandIncome);

  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
