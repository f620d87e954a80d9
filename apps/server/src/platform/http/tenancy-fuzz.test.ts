import { beforeAll, describe, expect, it } from "vitest";
import { lastCode, registerMerchant, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { onboarded } from "../../../test/kit/collection-fixtures";
import { login, newShop, stockMall, type Shop } from "../../../test/kit/mall-fixtures";
import { cardInBagOf, clerkOf, storeOf } from "../../../test/kit/redeem-fixtures";

/**
 * The tenancy sweep of the fuzz tier (issue 38 item 9). Tenant A builds the wave's objects through the API
 * (a released mall with goods, a gift pack and a wallet order; a takeout shop, menu and paid order; a store
 * and its clerk; a collection account, code and payment; a one-card card in a customer's bag; a physical
 * commodity), and everything A's merchants and A's customer can list is harvested: every id, number and
 * name. Then tenant B, as a merchant and as a customer, calls every operation of the OpenAPI document that
 * takes a path parameter with A's ids in it (those harvested from the nearest list), with a plain valid
 * body, and reads B's own lists. Asserted: never a 5xx, no reply shows B a value only A has (A's order and
 * card numbers, phones, names), and afterwards A still sees all of its data (B changed or deleted nothing).
 */
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
};
type Operation = {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Record<string, unknown>[];
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
type Caller = { headers: Record<string, string>; customer: boolean };

const t = useTestApp();
let doc: Document;
const A: Caller[] = [];
const B: Caller[] = [];
let seq = 0;
const key = () => `tf-${Date.now()}-${++seq}`;
const phone = () => uniquePhone("15");

/** Paths whose callers are not tenants (the operator console, dev scaffolding, docs, the IM service). */
const NOT_TENANT = /^\/api\/(ops|dev|docs)\b/;

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && s.$ref; i++) s = doc.components?.schemas?.[s.$ref.split("/").at(-1) ?? ""] ?? {};
  const alt = s.allOf?.[0] ?? s.anyOf?.find((x) => resolve(x).type !== "null") ?? s.oneOf?.[0];
  return alt ? { ...resolve(alt), ...s, allOf: undefined, anyOf: undefined, oneOf: undefined } : s;
}

/** A plain value the schema accepts, with `ids` for id-like fields, so a write names A's objects. */
function validValue(schema: Schema | undefined, id: string, name = "", depth = 0): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  if (/id$|ids$|no$/i.test(name) && (type === "string" || type === "array")) return type === "array" ? [id] : id;
  switch (type) {
    case "string":
      return s.format === "date" ? "2026-01-15" : "1";
    case "integer":
    case "number":
      return /id$/i.test(name) && /^\d+$/.test(id) ? Number(id) : 1;
    case "boolean":
      return true;
    case "array":
      return depth > 4 ? [] : [validValue(s.items, id, name, depth + 1)];
    case undefined:
    default: {
      if (!s.properties || depth > 4) return {};
      return Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, validValue(v, id, k, depth + 1)]));
    }
  }
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["get", "post", "put", "delete", "patch"].includes(method))
      .map(([method, op]) => ({
        path,
        method: method.toUpperCase() as "GET" | "POST" | "PUT" | "DELETE",
        op,
        customer: JSON.stringify(op.security ?? []).includes("customerToken"),
      })),
  );

/** The ids in a reply (fields named id or …Id), with the list they came from: what B's calls will name. */
function harvestIds(value: unknown, out: Map<string, string>, source: string, field = ""): void {
  if (Array.isArray(value)) for (const v of value) harvestIds(v, out, source, field);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) harvestIds(v, out, source, k);
  } else if (
    (typeof value === "string" || typeof value === "number") &&
    /^(id|\w+Id)$/.test(field) &&
    /^\d{1,18}$/.test(String(value))
  ) {
    const s = String(value);
    // The nearest list wins: a deeper path is a better guess of where the id belongs.
    const prev = out.get(s);
    if (!prev || source.length > prev.length) out.set(s, source);
  }
}

/** Values worth keeping from a reply: numbers, phones, names; not dates, amounts or words every tenant has. */
function harvest(value: unknown, out: Map<string, string>, source: string, field = ""): void {
  if (Array.isArray(value)) for (const v of value) harvest(v, out, source, field);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) harvest(v, out, source, k);
  } else if ((typeof value === "string" || typeof value === "number") && field) {
    const s = String(value);
    // Session tokens are minted afresh as the clock moves: credentials, not data to compare.
    if (
      s.length < 5 ||
      /^\d{4}-\d\d-\d\d/.test(s) ||
      /^(amount|balance|total|count|page|pageSize|price|faceValue|currency|state|status)$/i.test(field) ||
      /token/i.test(field)
    ) {
      return;
    }
    if (!out.has(s)) out.set(s, `${source} ${field}`);
  }
}

/** Everything a caller can list: each GET without a path parameter under /api. */
async function listAll(callers: Caller[], ids = new Map<string, string>()): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  for (const c of callers) {
    for (const o of operations()) {
      if (
        o.method !== "GET" ||
        o.path.includes("{") ||
        !o.path.startsWith("/api/") ||
        NOT_TENANT.test(o.path) ||
        o.customer !== c.customer
      ) {
        continue;
      }
      const res = await t.app.inject({ method: "GET", url: o.path, headers: c.headers });
      if (res.statusCode === 200 && String(res.headers["content-type"]).includes("json")) {
        harvest(res.json(), seen, o.path);
        harvestIds(res.json(), ids, o.path);
      }
    }
  }
  return seen;
}

beforeAll(async () => {
  const op = await registerOperator(t);
  const merchant = (token: string): Caller => ({ headers: { "x-auth-token": token, lang: "en" }, customer: false });
  const customer = (token: string): Caller => ({ headers: { "x-customer-token": token, lang: "en" }, customer: true });

  // Tenant A: the mall (supplier and purchaser), its customer's wallet order.
  const shop: Shop = await newShop(t, { codes: 4 });
  const mallIds = await stockMall(t, shop);
  const buyerA = await login(t, shop);
  const order = await t.call("POST", "/api/mall/shop/checkout", {
    headers: buyerA.headers,
    body: { lines: [{ kind: "goods", id: mallIds.cardSelf, quantity: 1 }], payMethod: "wallet", requestKey: key() },
  });
  expect(order.body.code, JSON.stringify(order.body)).toBe(1);
  // A store and its clerk; a collection account with a code and a payment.
  const brandA = { token: shop.supplier.token, merchantId: shop.supplier.merchantId, email: "" } as Parameters<
    typeof storeOf
  >[1];
  const store = await storeOf(t, brandA, `Tenant A store ${key()}`);
  await clerkOf(t, brandA, store.id);
  await onboarded(t, shop.purchaser, op);
  const code = await t.call<{ url: string }>(
    "POST",
    `/api/card-brander/subPassports/${shop.purchaser.userId}/paymentCodes`,
    { token: shop.purchaser.token, body: { name: "Tenant A counter" } },
  );
  expect(code.body.code).toBe(1);
  await t.call("POST", `/api/pay-public/codes/${code.body.data.url.split("/pay/")[1] ?? ""}/pay`, {
    body: { amount: 1_234, requestKey: key() },
  });
  // A takeout shop with a menu and a paid order.
  const takeout = await registerMerchant(t, { orgName: "Tenant A Noodles" });
  const tk = (method: "POST" | "PUT", url: string, body: unknown) =>
    t.call<{ id: string }[]>(method, `/api/card-brander/takeout/${url}`, { token: takeout.token, body });
  await tk("PUT", "shop", {
    name: "Tenant A Noodles",
    open: true,
    hours: [{ days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59" }],
    address: "West Lake",
    lat: 30.2741,
    lng: 120.1551,
    areaKind: "radius",
    radiusM: 5000,
    deliveryFee: 500,
    minOrder: 0,
    packingFee: 0,
    tableware: false,
  });
  const types = await tk("POST", "types", { name: "Noodles", sort: 1 });
  const items = await tk("POST", "items", {
    typeId: types.body.data[0]?.id,
    name: "Tenant A beef noodles",
    price: 1800,
    stock: 10,
  });
  const placed = await t.call<{ id: string }>("POST", "/api/mall/takeout/orders", {
    headers: buyerA.headers,
    body: {
      merchantId: takeout.merchantId,
      lines: [{ kind: "item", id: items.body.data[0]?.id, quantity: 1 }],
      contactName: "Han Meimei",
      contactPhone: "13900139000",
      address: "Wensan Road 9",
      lat: 30.28,
      lng: 120.16,
      tableware: 0,
      requestKey: key(),
    },
  });
  expect(placed.body.code, JSON.stringify(placed.body)).toBe(1);
  await t.call("POST", `/api/mall/takeout/orders/${placed.body.data.id}/pay`, { headers: buyerA.headers });
  // A one-card card in another customer's bag (its brand and buyer are tenant A too), and a commodity.
  const card = await cardInBagOf(t, `Tenant A Cards ${seq}`, phone());
  const commodity = await t.call("POST", "/api/ecommerce/commodity/add", {
    token: shop.supplier.token,
    body: {
      name: "Tenant A tee",
      category: "Apparel",
      specGroups: [{ name: "Size", values: ["M"] }],
      skus: [{ specs: ["M"], price: 5_900, stock: 10 }],
      weightG: 300,
      freightFirst: 800,
      freightExtra: 0,
      freeOver: null,
    },
  });
  expect(commodity.body.code, JSON.stringify(commodity.body)).toBe(1);
  A.push(
    merchant(shop.supplier.token),
    merchant(shop.purchaser.token),
    merchant(takeout.token),
    merchant(card.brand.token),
    customer(buyerA.headers["x-customer-token"] ?? ""),
    customer(card.customer),
  );

  // Tenant B: a merchant and a customer of its own.
  const b = await registerMerchant(t, { orgName: "Tenant B Trading" });
  const bPhone = phone();
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone: bPhone } });
  const bCustomer = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone: bPhone, smsCode: await lastCode(t, bPhone) },
  });
  B.push(merchant(b.token), customer(bCustomer.body.data.token));

  const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
  doc = res.json<Document>();
}, 300_000);

/** How many leading path segments two paths share: A's ids are tried where their list lives. */
const shared = (a: string, b: string) => {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
};

describe("tenancy sweep", () => {
  it("tenant B, as a merchant and as a customer, neither sees nor changes tenant A's objects", async () => {
    // Listed twice: what changes between two reads by A itself (fresh chat tokens) is not A's data.
    const idsOfA = new Map<string, string>();
    const first = await listAll(A, idsOfA);
    const before = new Map([...(await listAll(A))].filter(([v]) => first.has(v)));
    const own = await listAll(B);
    // A's own values: what only A has (B's lists show B's own ids, the platform's shared catalogue...).
    const onlyA = new Map([...before].filter(([v]) => !own.has(v)));
    expect(onlyA.size).toBeGreaterThan(50);
    const ids = [...idsOfA];
    const problems: string[] = [];
    let calls = 0;
    for (const o of operations()) {
      // Public operations (a charter, a storefront, a payer page) show what they show to anyone by design.
      if (
        !o.path.includes("{") ||
        !o.path.startsWith("/api/") ||
        NOT_TENANT.test(o.path) ||
        (o.op.security ?? []).length === 0
      ) {
        continue;
      }
      // A's ids from the lists nearest this operation's path: six of them.
      const tried = ids
        .map(([v, where]) => ({ v, score: shared(where, o.path) }))
        .sort((x, y) => y.score - x.score)
        .slice(0, 6)
        .map((x) => x.v);
      for (const id of tried) {
        const caller = B[o.customer ? 1 : 0];
        if (!caller) continue;
        const url = o.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
        const bodySchema = o.op.requestBody?.content?.["application/json"]?.schema;
        const payload =
          bodySchema && o.method !== "GET" && o.method !== "DELETE"
            ? JSON.stringify(validValue(bodySchema, id))
            : undefined;
        t.clock.advance(1);
        const res = await t.app.inject({
          method: o.method,
          url,
          headers: { ...caller.headers, ...(payload !== undefined && { "content-type": "application/json" }) },
          ...(payload !== undefined && { payload }),
        });
        calls++;
        const where = `${o.method} ${url} ${payload?.slice(0, 120) ?? ""} → ${res.statusCode}`;
        if (res.statusCode >= 500) problems.push(`5xx: ${where} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 300) continue;
        const body = res.body;
        for (const [value, from] of onlyA) {
          // The caller's own words echoed back are not a leak.
          if (
            value.length >= 6 &&
            body.includes(value) &&
            !url.includes(encodeURIComponent(value)) &&
            !(payload ?? "").includes(value)
          ) {
            problems.push(`B saw A's ${from} "${value}": ${where}`);
            break;
          }
        }
      }
    }
    console.log(`tenancy sweep: ${onlyA.size} values only A has, ${ids.length} of them ids, ${calls} calls as B`);
    expect(calls).toBeGreaterThan(300);
    expect(problems).toEqual([]);
    const after = await listAll(A);
    const gone = [...before.keys()].filter((v) => !after.has(v) && onlyA.has(v));
    // A's objects may move on by themselves only through A (nothing of A's ran meanwhile).
    expect(gone, "A's values no longer listed after B's calls").toEqual([]);
  }, 600_000);
});
