import type { PayCode } from "@tessera/contracts";
import { dock } from "../../test/docking";
import { lastCode, registerMerchant, type TestApp, uniquePhone } from "../../test/harness";
import { established, fundSup } from "../../test/money";
import { registerOperator } from "../../test/operators";
import { importFile, newBrand, newGoods, type TestMerchant } from "../../test/kit/catalog-fixtures";
import { onboarded } from "../../test/kit/collection-fixtures";
import { releaseConfig } from "../../test/kit/mall-fixtures";
import { clerkOf, storeOf } from "../../test/kit/redeem-fixtures";
import { cardCsv } from "../../test/kit/cards";

/**
 * The world a conservation run plays in (issue 37, point 8): one supplier (brand) that sells card secrets,
 * store vouchers and physical goods, runs a store with a clerk, a takeout shop, a collection code and one-card
 * cards; two purchasers
 * docked with it, the first running a released mall; customers of the mall and the shop; two operators
 * (withdrawals need two reviewers). Everything is made through the HTTP API, as a merchant would, except
 * what the module tests' fixtures also write directly (verification, a released mini-program version, the
 * SUP funding that stands for a confirmed top-up, the merchant's age for the unreviewed T+1 payout).
 *
 * The world also remembers what the operations made (orders, codes, withdrawals, cards), so that later
 * operations can act on them; which one is picked comes from the generated step, modulo what exists.
 */

export interface Customer {
  /** The customer's id (their one-card cards name it). */
  id: number;
  phone: string;
  /** The mall's headers (app, seller, customer token). */
  mall: Record<string, string>;
  /** The customer token alone (takeout, one-card bag). */
  token: string;
  /** When the token was issued, on the test clock: customer tokens live 7 days. */
  loggedInAt: number;
}

export interface KnownCode {
  cardId: number;
  number: string;
  secret: string;
}

export interface World {
  t: TestApp;
  opA: { token: string; userId: number };
  opB: { token: string; userId: number };
  supplier: TestMerchant;
  purchasers: TestMerchant[];
  goods: { secret: number; voucher: number };
  storeId: string;
  /** A clerk of the store (the verification page), who redeems customers' cards there. */
  clerk: string;
  /** The brand's physical goods (commerce): its commodity's SKUs and the address orders ship to. */
  physical: { skus: { id: string; price: number }[]; consignee: Record<string, string> };
  shop: { appId: string; headers: Record<string, string>; self: { secret: string; voucher: string } };
  customers: Customer[];
  takeout: { noodles: string; combo: string };
  payToken: string;
  cardProductId: string;
  /** Everything the run's merchants own, for the scoped invariants. */
  merchantIds: number[];
  /** Operations run side by side (the PostgreSQL tier): a refusal's "nothing changed" cannot be observed. */
  concurrent: boolean;
  /**
   * The fingerprint of the books as a refused call left them, while nothing else has run since (a call
   * that was done, the daily jobs or the test's own writes clear it): the next call's "before".
   */
  unchanged?: string | undefined;
  /** What the operations made, for later operations to pick from. */
  made: {
    purchaseOrders: { id: string; purchaser: number }[];
    codes: KnownCode[];
    mallOrders: string[];
    takeoutOrders: { id: string; customer: number }[];
    payOrders: string[];
    withdrawals: string[];
    cardSales: { id: string; purchaser: number }[];
    goodsOrders: { id: string; purchaser: number }[];
  };
}

let seq = 0;
/** A request key or order number unique in the database (worlds share the PostgreSQL test database). */
export const uniq = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${(++seq).toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const newPhone = () => uniquePhone("17");

/** Codes for a goods: a few expire within days (the daily jobs then have work), the rest never. */
function codesCsv(prefix: string, n: number, soon: string): string {
  const rows = Array.from(
    { length: n },
    (_, i) => `${prefix}${String(i).padStart(4, "0")},S-${prefix}-${i},${i % 4 === 0 ? soon : ""}`,
  );
  return cardCsv(rows);
}

function must<T>(res: { status: number; body: { code: number; msg: string; data: T } }, what: string): T {
  if (res.body.code !== 1) throw new Error(`world: ${what} failed (${res.status}): ${res.body.msg}`);
  return res.body.data;
}

/** A customer's login, through the mall's SMS (the merchant's SMS package pays for it). */
export async function loginCustomer(t: TestApp, shopHeaders: Record<string, string>, phone: string): Promise<Customer> {
  must(
    await t.call("POST", "/api/mall/shop/customer/sendSms", { headers: shopHeaders, body: { phone } }),
    "customer sms",
  );
  const res = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  const token = must(res, "customer login").token;
  const me = must(
    await t.call<{ id: string }>("GET", "/api/mall/customer/info", { headers: { "x-customer-token": token } }),
    "customer info",
  );
  return {
    id: Number(me.id),
    phone,
    token,
    mall: { ...shopHeaders, "x-customer-token": token },
    loggedInAt: t.clock.now().getTime(),
  };
}

export async function buildWorld(t: TestApp, options: { codes?: number; cards?: number } = {}): Promise<World> {
  const codes = options.codes ?? 40;
  const opA = await registerOperator(t);
  const opB = await registerOperator(t);
  const supplier = await registerMerchant(t, { orgName: "Conservation Brand Co" });
  // Older than PAYOUT_REVIEW_DAYS, so some T+1 payouts go out unreviewed (others wait: both are exercised).
  await established(t, supplier);
  const brand = await newBrand(t, supplier);
  const secret = await newGoods(t, supplier, brand.id, {
    name: "Video month",
    businessType: "card_secret",
    faceValue: 1500,
    price: 1200,
    settlementPrice: 1100,
    perOrderMax: 5,
  });
  const voucher = await newGoods(t, supplier, brand.id, {
    name: "Noodle voucher",
    businessType: "card_voucher",
    faceValue: 2000,
    price: 1800,
    settlementPrice: 1700,
    perOrderMax: 5,
  });
  const soon = new Date(t.clock.now().getTime() + 2 * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
  const tag = uniq("");
  must(await importFile(t, supplier.token, secret.id, "s.csv", codesCsv(`CS${tag}`, codes, soon)), "import secrets");
  must(await importFile(t, supplier.token, voucher.id, "v.csv", codesCsv(`CV${tag}`, codes, soon)), "import vouchers");
  const store = await storeOf(t, supplier, "Conservation store");
  const clerk = await clerkOf(t, supplier, store.id);
  // Physical goods: a shirt in two sizes, freight 8.00 for the first kilogram, free over 200.00.
  const commodity = must(
    await t.call<{ id: string; skus: { id: string; price: { amount: number } }[] }>(
      "POST",
      "/api/ecommerce/commodity/add",
      {
        token: supplier.token,
        body: {
          name: "Noodle house shirt",
          category: "Apparel",
          specGroups: [{ name: "Size", values: ["M", "L"] }],
          skus: [
            { specs: ["M"], price: 5_900, stock: 400 },
            { specs: ["L"], price: 6_200, stock: 400 },
          ],
          weightG: 300,
          freightFirst: 800,
          freightExtra: 200,
          freeOver: 20_000,
        },
      },
    ),
    "commodity",
  );
  must(
    await t.call("POST", "/api/ecommerce/commodity/state/update", {
      token: supplier.token,
      body: { id: commodity.id, onShelf: true },
    }),
    "commodity on shelf",
  );

  const purchasers: TestMerchant[] = [];
  for (const name of ["Mall Purchaser Co", "Second Purchaser Co"]) {
    const p = await registerMerchant(t, { orgName: name });
    await dock(t, supplier, p);
    await fundSup(t, p, 200_000);
    purchasers.push(p);
  }
  const mallOwner = purchasers[0] as TestMerchant;
  const appId = `wx${tag.toLowerCase().slice(0, 14)}`;
  await releaseConfig(t, Number(mallOwner.merchantId), appId, 2);
  const headers = { v: "1", "x-app-id": appId, "x-seller-id": mallOwner.merchantId };
  const selfSecret = must(
    await t.call<{ id: string }>("POST", "/api/card-user/mall/selfGoods", {
      token: mallOwner.token,
      body: { goodsId: String(secret.id), price: 1990 },
    }),
    "self goods",
  );
  const selfVoucher = must(
    await t.call<{ id: string }>("POST", "/api/card-user/mall/selfGoods", {
      token: mallOwner.token,
      body: { goodsId: String(voucher.id), price: 2490 },
    }),
    "self goods",
  );
  must(
    await t.call("POST", "/api/card-user/mall/sms/packages", {
      token: mallOwner.token,
      body: { code: "sms1000", requestKey: uniq("SMS") },
    }),
    "sms package",
  );
  const customers: Customer[] = [];
  for (let i = 0; i < 2; i++) customers.push(await loginCustomer(t, headers, newPhone()));

  // The brand's takeout shop, open all day, delivering around the shop.
  const b = (method: "GET" | "POST" | "PUT", url: string, body?: unknown) =>
    t.call<unknown>(method, `/api/card-brander/takeout/${url}`, { token: supplier.token, body });
  must(
    await b("PUT", "shop", {
      name: "Noodle House",
      open: true,
      hours: [{ days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59" }],
      address: "West Lake",
      lat: 30.2741,
      lng: 120.1551,
      areaKind: "radius",
      radiusM: 5000,
      deliveryFee: 500,
      minOrder: 1000,
      packingFee: 100,
      tableware: true,
    }),
    "takeout shop",
  );
  const types = must(await b("POST", "types", { name: "Noodles", sort: 1 }), "takeout type") as { id: string }[];
  const items = must(
    await b("POST", "items", { typeId: types[0]?.id, name: "Beef noodles", price: 1800, stock: null }),
    "takeout item",
  ) as { id: string }[];
  const noodles = items[0]?.id ?? "";
  const pkg = must(
    await b("POST", "packages", { name: "Lunch combo", price: 2000, items: [{ itemId: noodles, quantity: 1 }] }),
    "takeout package",
  ) as { id: string }[];

  // The brand's collection (收款) account and a code whose payer enters the amount.
  await onboarded(t, supplier, opA);
  const code = must(
    await t.call<PayCode>("POST", `/api/card-brander/subPassports/${supplier.userId}/paymentCodes`, {
      token: supplier.token,
      body: { name: "Counter" },
    }),
    "pay code",
  );
  const payToken = code.url.split("/pay/")[1] ?? "";

  // One-card: a face-value card product and a batch of cards the purchasers may buy.
  const product = must(
    await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
      token: supplier.token,
      body: {
        kind: "face_value",
        name: "Noodle card",
        faceValue: 10_000,
        salePrice: 10_000,
        named: false,
        validity: { kind: "days", days: 1200 },
        rechargeAllowed: true,
        scope: "",
        terms: "",
      },
    }),
    "card product",
  );
  must(
    await t.call("POST", "/api/card-brander/onecard/batches", {
      token: supplier.token,
      body: { productId: product.id, count: options.cards ?? 20, requestKey: uniq("BATCH") },
    }),
    "card batch",
  );

  // The brand's withdrawal card, approved by an operator (withdrawals and T+1 payouts need it).
  const card = must(
    await t.call<{ id: string }>("POST", "/api/card-brander/withdraws/card", {
      token: supplier.token,
      body: {
        companyName: "Conservation Brand Co",
        bank: "China Merchants Bank",
        city: "Shenzhen",
        account: "6222 0202 0011 2233",
      },
    }),
    "bank card",
  );
  must(
    await t.call("POST", `/api/ops/queues/bankCard/items/${card.id}/approve`, { token: opA.token }),
    "bank card approval",
  );

  return {
    t,
    opA,
    opB,
    supplier,
    purchasers,
    goods: { secret: secret.id, voucher: voucher.id },
    storeId: store.id,
    clerk,
    physical: {
      skus: commodity.skus.map((k) => ({ id: k.id, price: k.price.amount })),
      consignee: {
        name: "Li Lei",
        phone: "13800138000",
        provinceCode: "330000",
        cityCode: "330100",
        countyCode: "330106",
        address: "Wensan Road 1",
      },
    },
    shop: { appId, headers, self: { secret: selfSecret.id, voucher: selfVoucher.id } },
    customers,
    takeout: { noodles, combo: pkg[0]?.id ?? "" },
    payToken,
    cardProductId: product.id,
    merchantIds: [supplier, ...purchasers].map((m) => Number(m.merchantId)),
    concurrent: false,
    made: {
      purchaseOrders: [],
      codes: [],
      mallOrders: [],
      takeoutOrders: [],
      payOrders: [],
      withdrawals: [],
      cardSales: [],
      goodsOrders: [],
    },
  };
}

/** Customer tokens live 7 days: after the clock moved a few days, the customers log in again. */
export async function refreshCustomers(w: World): Promise<void> {
  const now = w.t.clock.now().getTime();
  for (const [i, c] of w.customers.entries()) {
    if (now - c.loggedInAt > 5 * 86_400_000) w.customers[i] = await loginCustomer(w.t, w.shop.headers, c.phone);
  }
}
