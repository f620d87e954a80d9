import { CODE } from "@tessera/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { lastCode, registerMerchant, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";
import { cardNumber, parseCardNumber } from "./cardno";
import { invariantProblems } from "./repo";

const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  expect(await invariantProblems(t.ctx.database.db)).toEqual([]);
});

let seq = 0;
const key = () => `oc-${Date.now()}-${++seq}`;
type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
interface Product {
  id: string;
  stock: number;
}
interface Card {
  id: string;
  cardNo: string;
  state: string;
  balance: { amount: number };
}
const supOf = async (m: Merchant) =>
  (await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: m.token })).body
    .data.balances.sup.amount;
const incomeOf = async (m: Merchant) =>
  (await t.call<{ balances: { income: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: m.token }))
    .body.data.balances.income.amount;

const productBody = {
  kind: "discount",
  name: "Coffee card 100",
  faceValue: 10_000,
  salePrice: 9_000,
  named: false,
  validity: { kind: "days", days: 1200 },
  rechargeAllowed: true,
  scope: "All stores",
  terms: "No cash back",
};

async function brandWithBatch(count = 10): Promise<{ brand: Merchant; product: Product }> {
  const brand = await registerMerchant(t, { orgName: "Brew Brand Co" });
  const p = await t.call<Product>("POST", "/api/card-brander/onecard/products", {
    token: brand.token,
    body: productBody,
  });
  expect(p.body.code).toBe(1);
  const b = await t.call<{ count: number; firstNo: string }>("POST", "/api/card-brander/onecard/batches", {
    token: brand.token,
    body: { productId: p.body.data.id, count, requestKey: key() },
  });
  expect(b.body.data.count).toBe(count);
  return { brand, product: p.body.data };
}

/** A purchaser docked with the brand (purchasing's rule applies to cards too), with SUP funds. */
async function buyer(brand: Merchant, sup = 1_000_000): Promise<Merchant> {
  const m = await registerMerchant(t);
  await dock(t, brand, m);
  await fundSup(t, m, sup);
  return m;
}

const cardsOf = async (m: Merchant, state?: string) =>
  (
    await t.call<{ list: Card[] }>(
      "GET",
      `/api/card-user/onecard/cards?pageSize=100${state ? `&state=${state}` : ""}`,
      { token: m.token },
    )
  ).body.data.list;

async function extract(m: Merchant, ids: string[]): Promise<{ no: string; password: string }[]> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/card-user/onecard/extract",
    headers: { "x-auth-token": m.token },
    payload: { cardIds: ids },
  });
  expect(res.statusCode).toBe(200);
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const out: { no: string; password: string }[] = [];
  wb.worksheets[0]?.eachRow((row, n) => {
    if (n > 1) out.push({ no: row.getCell(1).text, password: row.getCell(2).text });
  });
  return out;
}

async function customerLogin(phone: string): Promise<string> {
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
  const res = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
    body: { phone, smsCode: await lastCode(t, phone) },
  });
  expect(res.body.code).toBe(1);
  return res.body.data.token;
}
const cust = (token: string) => ({ "x-customer-token": token });
const newPhone = () => uniquePhone("15");

describe("card numbers", () => {
  it("carry a Luhn check digit and their batch and serial", () => {
    const no = cardNumber(12, 345);
    expect(no).toHaveLength(16);
    expect(parseCardNumber(no)).toEqual({ batchId: 12, serial: 345 });
    expect(parseCardNumber(`${no.slice(0, 15)}${(Number(no[15]) + 1) % 10}`)).toBeNull();
  });
});

describe("products and batches", () => {
  it("enforce the prepaid-card rules and bad input changes nothing", async () => {
    const brand = await registerMerchant(t);
    const bad = (body: object) =>
      t.call("POST", "/api/card-brander/onecard/products", {
        token: brand.token,
        body: { ...productBody, ...body },
        lang: "en",
      });
    expect((await bad({ faceValue: 200_000, salePrice: 150_000 })).body.msg).toBe(
      "A bearer card's face value cannot exceed 1000 yuan",
    );
    expect((await bad({ named: true, faceValue: 600_000, salePrice: 500_000 })).body.msg).toBe(
      "A named card's face value cannot exceed 5000 yuan",
    );
    expect((await bad({ validity: { kind: "days", days: 30 } })).body.msg).toBe(
      "A bearer card must be valid for at least 3 years",
    );
    expect((await bad({ salePrice: 12_000 })).body.msg).toBe("A discount card sells below its face value");
    expect((await bad({ kind: "face_value" })).body.msg).toBe("A face-value card sells at its face value");
    expect((await bad({ name: "" })).status).toBe(400);
    const list = await t.call<{ total: number }>("GET", "/api/card-brander/onecard/products", { token: brand.token });
    expect(list.body.data.total).toBe(0);
  });

  it("a batch issues numbered cards once per request key; others see none of them", async () => {
    const { brand, product } = await brandWithBatch(5);
    const again = await t.call<{ list: { id: string; count: number }[] }>("GET", "/api/card-brander/onecard/batches", {
      token: brand.token,
    });
    expect(again.body.data.list).toHaveLength(1);
    const products = await t.call<{ list: Product[] }>("GET", "/api/card-brander/onecard/products", {
      token: brand.token,
    });
    expect(products.body.data.list[0]).toMatchObject({ id: product.id, stock: 5 });
    const other = await registerMerchant(t);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/onecard/batches", { token: other.token })).body.data
        .total,
    ).toBe(0);
    const steal = await t.call("POST", "/api/card-brander/onecard/batches", {
      token: other.token,
      body: { productId: product.id, count: 1, requestKey: key() },
    });
    expect(steal.status).toBe(404);
    // 0 cards is refused with its own message (issue 37), in each language; nothing is made.
    for (const [lang, msg] of [
      ["en", "Make at least 1 card: 0 cards makes nothing"],
      ["cn", "制卡数量至少为1张，0张不会制卡"],
      ["tw", "製卡數量至少為1張，0張不會製卡"],
    ] as const) {
      const zero = await t.call("POST", "/api/card-brander/onecard/batches", {
        token: brand.token,
        body: { productId: product.id, count: 0, requestKey: key() },
        lang,
      });
      expect(zero.status).toBe(400);
      expect(zero.body.msg).toBe(msg);
    }
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/onecard/batches", { token: brand.token })).body.data
        .total,
    ).toBe(1);
  });

  it("a product changes only its selling terms once cards are issued; the brand lists a batch's cards masked and filters by sale", async () => {
    const brand = await registerMerchant(t);
    const made = await t.call<Product>("POST", "/api/card-brander/onecard/products", {
      token: brand.token,
      body: productBody,
    });
    const id = made.body.data.id;
    const put = (body: object, token = brand.token) =>
      t.call<{ name: string; faceValue: { amount: number } }>("PUT", `/api/card-brander/onecard/products/${id}`, {
        token,
        body: { ...productBody, ...body },
        lang: "en",
      });
    expect((await put({ faceValue: 20_000, salePrice: 18_000 })).body.data.faceValue.amount).toBe(20_000);
    const batch = await t.call<{ id: string; firstNo: string }>("POST", "/api/card-brander/onecard/batches", {
      token: brand.token,
      body: { productId: id, count: 3, requestKey: key() },
    });
    const locked = await put({ faceValue: 30_000, salePrice: 18_000 });
    expect(locked.status).toBe(409);
    expect(locked.body.msg).toContain("only its name");
    expect((await put({ faceValue: 20_000, salePrice: 17_000, name: "Coffee card 200" })).body.data.name).toBe(
      "Coffee card 200",
    );
    const other = await registerMerchant(t);
    expect((await put({ faceValue: 20_000, salePrice: 17_000 }, other.token)).status).toBe(404);

    const cards = await t.call<{ total: number; list: { cardNo: string; state: string }[] }>(
      "GET",
      `/api/card-brander/onecard/batches/${batch.body.data.id}/cards`,
      { token: brand.token },
    );
    expect(cards.body.data.total).toBe(3);
    expect(cards.body.data.list.every((c) => c.cardNo.includes("****") && c.state === "issued")).toBe(true);
    expect(
      (
        await t.call<{ total: number }>("GET", `/api/card-brander/onecard/batches/${batch.body.data.id}/cards`, {
          token: other.token,
        })
      ).body.data.total,
    ).toBe(0);
    expect(
      (
        await t.call<{ total: number }>("GET", `/api/card-brander/onecard/batches?productId=${id}`, {
          token: brand.token,
        })
      ).body.data.total,
    ).toBe(1);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/onecard/products?onSale=true", { token: brand.token }))
        .body.data.total,
    ).toBe(1);
    await t.call("PUT", `/api/card-brander/onecard/products/${id}/onSale`, {
      token: brand.token,
      body: { onSale: false },
    });
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/onecard/products?onSale=true", { token: brand.token }))
        .body.data.total,
    ).toBe(0);
    expect(
      (
        await t.call<{ total: number }>("GET", "/api/card-brander/onecard/products?onSale=false", {
          token: brand.token,
        })
      ).body.data.total,
    ).toBe(1);
  });

  it("a fixed validity reads back as its calendar day and gives activated cards that day as expiry", async () => {
    const brand = await registerMerchant(t);
    const made = await t.call<Product & { validity: { until: string } }>("POST", "/api/card-brander/onecard/products", {
      token: brand.token,
      body: { ...productBody, named: true, validity: { kind: "fixed", until: "2031-06-30" } },
    });
    expect(made.body.data.validity.until).toBe("2031-06-30");
    await t.call("POST", "/api/card-brander/onecard/batches", {
      token: brand.token,
      body: { productId: made.body.data.id, count: 1, requestKey: key() },
    });
    const p = await buyer(brand, 100_000);
    const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: made.body.data.id, quantity: 1, requestKey: key() },
    });
    expect(
      (
        await t.call("POST", "/api/card-user/onecard/activate", {
          token: p.token,
          body: { saleId: sale.body.data.id, requestKey: key() },
        })
      ).body.code,
    ).toBe(1);
    const [card] = await cardsOf(p, "activated");
    expect((card as unknown as { expiresAt: string }).expiresAt).toBe("2031-06-30T15:59:59.000Z");
  });
});

describe("sale, activation, return", () => {
  it("sells only to a purchaser docked with the brand, and the mall shows only such brands' cards", async () => {
    const { brand, product } = await brandWithBatch(2);
    const stranger = await registerMerchant(t);
    await fundSup(t, stranger, 100_000);
    const mallOf = async (m: Merchant) =>
      (
        await t.call<{ list: Product[] }>("GET", "/api/card-user/onecard/mall?pageSize=100", { token: m.token })
      ).body.data.list.map((x) => x.id);
    expect(await mallOf(stranger)).not.toContain(product.id);
    const refused = await t.call("POST", "/api/card-user/onecard/purchase", {
      token: stranger.token,
      body: { productId: product.id, quantity: 1, requestKey: key() },
      lang: "en",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/dock/i);
    expect(await supOf(stranger)).toBe(100_000);
    await dock(t, brand, stranger);
    expect(await mallOf(stranger)).toContain(product.id);
    const bought = await t.call("POST", "/api/card-user/onecard/purchase", {
      token: stranger.token,
      body: { productId: product.id, quantity: 1, requestKey: key() },
    });
    expect(bought.body.code).toBe(1);
  });

  it("buys from SUP into escrow, activates (income to the brand), returns unactivated cards to SUP", async () => {
    const { brand, product } = await brandWithBatch(6);
    const p = await buyer(brand, 100_000);
    const body = { productId: product.id, quantity: 4, requestKey: key() };
    const sale = await t.call<{ id: string; amount: { amount: number } }>("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body,
    });
    expect(sale.body.data.amount.amount).toBe(36_000);
    const replay = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", { token: p.token, body });
    expect(replay.body.data.id).toBe(sale.body.data.id);
    expect(await supOf(p)).toBe(64_000);
    const cards = await cardsOf(p);
    expect(cards).toHaveLength(4);
    expect(cards[0]?.cardNo).toContain("****");

    const short = await t.call("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 3, requestKey: key() },
      lang: "en",
    });
    expect(short.body.msg).toBe("Not enough cards in stock: 2 left");
    expect(await supOf(p)).toBe(64_000);

    const [a, b, c, d] = cards.map((x) => x.id).sort();
    const other = await buyer(brand);
    const foreign = await t.call("POST", "/api/card-user/onecard/activate", {
      token: other.token,
      body: { cardIds: [a], requestKey: key() },
      lang: "en",
    });
    expect(foreign.body.msg).toBe("You can only handle cards your company bought");
    const act = await t.call<{ count: number; amount: { amount: number } }>("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: [a, b], requestKey: key() },
    });
    expect(act.body.data).toMatchObject({ count: 2, amount: { amount: 18_000 } });
    expect(await incomeOf(brand)).toBe(18_000);
    const mixed = await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: [b, c], requestKey: key() },
      lang: "en",
    });
    expect(mixed.body.msg).toBe("Some of these cards cannot be activated; none was activated");
    expect((await cardsOf(p, "activated")).map((x) => x.balance.amount)).toEqual([10_000, 10_000]);

    const retActivated = await t.call("POST", "/api/card-user/onecard/returns", {
      token: p.token,
      body: { cardIds: [a], requestKey: key() },
      lang: "en",
    });
    expect(retActivated.body.msg).toBe("An activated card cannot be returned");
    // The preview the return's confirmation shows (issue 37): the cards and the price paid back to SUP; it
    // changes nothing, and refuses what the return would refuse, with the same message.
    const retPreview = await t.call("POST", "/api/card-user/onecard/returns/preview", {
      token: p.token,
      body: { cardIds: [c, d] },
    });
    expect(retPreview.body.data).toEqual({ count: 2, amount: { amount: 18_000, currency: "CNY" } });
    expect(await supOf(p)).toBe(64_000);
    expect(await cardsOf(p, "sold")).toHaveLength(2);
    const previewActivated = await t.call("POST", "/api/card-user/onecard/returns/preview", {
      token: p.token,
      body: { cardIds: [c, a] },
      lang: "en",
    });
    expect(previewActivated.status).toBe(409);
    expect(previewActivated.body.msg).toBe("An activated card cannot be returned");
    const previewForeign = await t.call("POST", "/api/card-user/onecard/returns/preview", {
      token: other.token,
      body: { cardIds: [c] },
      lang: "en",
    });
    expect(previewForeign.body.msg).toBe("You can only handle cards your company bought");
    const ret = await t.call<{ count: number; amount: { amount: number } }>("POST", "/api/card-user/onecard/returns", {
      token: p.token,
      body: { cardIds: [c, d], reason: "unsold", requestKey: key() },
    });
    expect(ret.body.data).toMatchObject({ count: 2, amount: { amount: 18_000 } });
    expect(await supOf(p)).toBe(82_000);
  });

  it("activates a number range and a whole purchase, all or nothing", async () => {
    const { brand, product } = await brandWithBatch(5);
    const p = await buyer(brand);
    const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 5, requestKey: key() },
    });
    const secrets = await extract(
      p,
      (await cardsOf(p)).map((c) => c.id),
    );
    const nos = secrets.map((s) => s.no).sort();
    // The preview the confirmation shows (issue 37): the cards, the price paid and the face value; it changes nothing.
    type Preview = { count: number; amount: { amount: number }; faceValue: { amount: number } };
    const preview = await t.call<Preview>("POST", "/api/card-user/onecard/activate/preview", {
      token: p.token,
      body: { range: { from: nos[0], to: nos[1] } },
    });
    expect(preview.body.data).toMatchObject({
      count: 2,
      amount: { amount: 18_000, currency: "CNY" },
      faceValue: { amount: 20_000 },
    });
    expect(await cardsOf(p, "activated")).toHaveLength(0);
    const range = await t.call<{ count: number }>("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { range: { from: nos[0], to: nos[1] }, requestKey: key() },
    });
    expect(range.body.data.count).toBe(2);
    // A selection the activation would refuse is refused by the preview, with the same message.
    const mixed = await t.call("POST", "/api/card-user/onecard/activate/preview", {
      token: p.token,
      body: { saleId: sale.body.data.id },
      lang: "en",
    });
    expect(mixed.status).toBe(409);
    expect(mixed.body.msg).toBe("Some of these cards cannot be activated; none was activated");
    const foreign = await t.call("POST", "/api/card-user/onecard/activate/preview", {
      token: (await buyer(brand)).token,
      body: { range: { from: nos[2], to: nos[3] } },
      lang: "en",
    });
    expect(foreign.body.msg).toBe("You can only handle cards your company bought");
    const whole = await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { saleId: sale.body.data.id, requestKey: key() },
    });
    expect(whole.status).toBe(409);
    expect(await cardsOf(p, "activated")).toHaveLength(2);
    const extracted = await t.call<{ list: { count: number }[] }>("GET", "/api/card-user/onecard/extractions", {
      token: p.token,
    });
    expect(extracted.body.data.list[0]?.count).toBe(5);
  });
});

describe("reports", () => {
  it("CardSalesOrder follows each purchase's cards; it and the report export as xlsx; others see none", async () => {
    const { brand, product } = await brandWithBatch(4);
    const p = await buyer(brand);
    const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 4, requestKey: key() },
    });
    const [a, b, c, d] = (await cardsOf(p)).map((x) => x.id).sort();
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: [a, b], requestKey: key() },
    });
    await t.call("POST", "/api/card-user/onecard/gifts", { token: p.token, body: { cardIds: [b], requestKey: key() } });
    await t.call("POST", "/api/card-user/onecard/returns", {
      token: p.token,
      body: { cardIds: [c], reason: "unsold", requestKey: key() },
    });
    expect(d).toBeDefined();
    const orders = await t.call<{ list: Record<string, unknown>[]; total: number }>(
      "GET",
      `/api/card-user/onecard/salesOrders?productId=${product.id}`,
      { token: p.token },
    );
    expect(orders.body.data.total).toBe(1);
    expect(orders.body.data.list[0]).toMatchObject({
      id: sale.body.data.id,
      quantity: 4,
      activated: 2,
      gifted: 1,
      inBags: 0,
      returned: 1,
      redeemed: { amount: 0 },
      outstanding: { amount: 20_000 },
    });
    const future = await t.call<{ total: number }>("GET", "/api/card-user/onecard/salesOrders?from=2999-01-01", {
      token: p.token,
    });
    expect(future.body.data.total).toBe(0);
    const stranger = await registerMerchant(t);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/onecard/salesOrders", { token: stranger.token })).body
        .data.total,
    ).toBe(0);
    for (const url of [
      "/api/card-user/onecard/salesOrders/export",
      "/api/card-user/onecard/report/export?dimension=month",
    ]) {
      const file = await t.app.inject({ method: "GET", url, headers: { "x-auth-token": p.token, lang: "en" } });
      expect(file.statusCode, url).toBe(200);
      const ExcelJS = (await import("exceljs")).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      expect(wb.worksheets[0]?.rowCount, url).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("the service provider's TikaOrder", () => {
  it("lists the extractions of the purchasers it serves, never others', never the secrets", async () => {
    const ops = await registerOperator(t);
    const provider = await registerMerchant(t, { orgName: "Tika Services" });
    await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
      token: ops.token,
      body: { grant: true },
    });
    const { brand, product } = await brandWithBatch(3);
    const served = await buyer(brand);
    const unserved = await buyer(brand);
    const bound = await t.call("POST", "/api/card-servicer/brander/service", {
      token: served.token,
      body: { providerId: provider.merchantId, kind: "vendor" },
    });
    expect(bound.body.code).toBe(1);
    for (const m of [served, unserved]) {
      await t.call("POST", "/api/card-user/onecard/purchase", {
        token: m.token,
        body: { productId: product.id, quantity: 1, requestKey: key() },
      });
      await extract(
        m,
        (await cardsOf(m)).map((c) => c.id),
      );
    }
    const list = await t.call<{ list: Record<string, unknown>[]; total: number }>(
      "GET",
      "/api/card-servicer/onecard/extractions",
      { token: provider.token },
    );
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({
      merchantId: served.merchantId,
      count: 1,
      products: "Coffee card 100",
      faceValue: { amount: 10_000 },
    });
    expect(JSON.stringify(list.body.data)).not.toMatch(/password|sealed/i);
    expect(
      (
        await t.call<{ total: number }>(
          "GET",
          `/api/card-servicer/onecard/extractions?merchantId=${unserved.merchantId}`,
          { token: provider.token },
        )
      ).body.data.total,
    ).toBe(0);
    expect((await t.call("GET", "/api/card-servicer/onecard/extractions", { token: served.token })).status).toBe(403);
  });
});

describe("the end customer", () => {
  it("gift by SMS, claim once into the card bag, query, recharge an equity, see the change", async () => {
    const { brand, product } = await brandWithBatch(3);
    const p = await buyer(brand);
    await t.call("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 2, requestKey: key() },
    });
    const ids = (await cardsOf(p)).map((c) => c.id).sort();
    const [secret] = await extract(p, [ids[0] ?? ""]);
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: ids, requestKey: key() },
    });
    const phone = newPhone();
    const gift = await t.call<{ id: string; state: string }>("POST", "/api/card-user/onecard/gifts", {
      token: p.token,
      body: { cardIds: [ids[1]], phone, requestKey: key() },
    });
    expect(gift.body.data.state).toBe("sent");

    const noToken = await t.call("GET", "/api/mall/onecard/bag", { lang: "en" });
    expect(noToken.body).toMatchObject({ code: 1007, msg: "Login state expired" });
    const token = await customerLogin(phone);
    const bag = await t.call<{ cards: Card[]; gifts: { id: string }[] }>("GET", "/api/mall/onecard/bag", {
      headers: cust(token),
    });
    expect(bag.body.data.gifts.map((g) => g.id)).toEqual([gift.body.data.id]);
    const claimed = await t.call<{ cards: Card[] }>("POST", `/api/mall/onecard/gifts/${gift.body.data.id}/claim`, {
      headers: cust(token),
    });
    expect(claimed.body.data.cards).toHaveLength(1);
    const twice = await t.call("POST", `/api/mall/onecard/gifts/${gift.body.data.id}/claim`, {
      headers: cust(token),
      lang: "en",
    });
    expect(twice.body.msg).toBe("This gift has already been claimed");
    const stranger = await customerLogin(newPhone());
    expect(
      (await t.call("POST", `/api/mall/onecard/gifts/${gift.body.data.id}/claim`, { headers: cust(stranger) })).status,
    ).toBe(404);
    expect(
      (await t.call<{ cards: Card[] }>("GET", "/api/mall/onecard/bag", { headers: cust(stranger) })).body.data.cards,
    ).toHaveLength(0);

    // The other card: bound by number and password (extract card), queried publicly.
    if (!secret) throw new Error("no secret");
    const bound = await t.call<{ cards: Card[] }>("POST", "/api/mall/onecard/bind", {
      headers: cust(token),
      body: { cardNo: secret.no, password: secret.password },
    });
    expect(bound.body.data.cards).toHaveLength(2);
    const q = await t.call<{ balance: { amount: number }; state: string }>("POST", "/api/card-public/onecard/balance", {
      body: { cardNo: secret.no, password: secret.password.toLowerCase() },
    });
    expect(q.body.data).toMatchObject({ balance: { amount: 10_000 }, state: "activated" });
    const card = bound.body.data.cards.find((c) => c.cardNo === secret.no);
    // The equity is a direct top-up the card's brand buys from a supplier it is docked with, paid from its SUP.
    const supplier = await registerMerchant(t, { orgName: "Tele Supply Co" });
    const tele = await newBrand(t, supplier, "Tele");
    const topUp = await newGoods(t, supplier, tele.id, {
      name: "Mobile top-up 30",
      businessType: "top_up",
      faceValue: 3_000,
      price: 2_900,
      settlementPrice: 2_800,
      topUpAccountType: "mobile",
    });
    await dock(t, supplier, brand);
    await fundSup(t, brand, 5_000);
    const offers = await t.call<{ list: { goodsId: string; price: { amount: number } }[] }>(
      "GET",
      `/api/mall/onecard/equities?cardId=${card?.id}`,
      { headers: cust(token) },
    );
    expect(offers.body.data.list).toContainEqual(
      expect.objectContaining({
        goodsId: String(topUp.id),
        price: { amount: 3_000, currency: "CNY" },
        topUpAccountType: "mobile",
      }),
    );
    // An account the goods' type cannot take (issue 40, item 4) is refused before the card pays anything.
    const badAccount = await t.call("POST", "/api/mall/onecard/recharge", {
      headers: cust(token),
      body: { cardId: card?.id, goodsId: String(topUp.id), account: "1381234", requestKey: key() },
      lang: "en",
    });
    expect([badAccount.status, badAccount.body.msg]).toEqual([400, "Enter a valid 11-digit mobile number"]);
    const untouched = await t.call<{ cards: Card[] }>("GET", "/api/mall/onecard/bag", { headers: cust(token) });
    expect(untouched.body.data.cards.find((c) => c.id === card?.id)?.balance.amount).toBe(10_000);
    expect(await supOf(brand)).toBe(5_000);
    const rk = key();
    const body = { cardId: card?.id, goodsId: String(topUp.id), account: "13800000000", requestKey: rk };
    const order = await t.call<{ id: string; state: string; orderNo: string; amount: { amount: number } }>(
      "POST",
      "/api/mall/onecard/recharge",
      { headers: cust(token), body },
    );
    expect(order.body.data).toMatchObject({ state: "processing", amount: { amount: 3_000 } });
    const replay = await t.call<{ id: string }>("POST", "/api/mall/onecard/recharge", { headers: cust(token), body });
    expect(replay.body.data.id).toBe(order.body.data.id);
    expect(await supOf(brand)).toBe(2_100);
    // The supplier tops the phone up: the brand's purchase order succeeds, and so does the customer's order.
    const bought = await t.call<{ list: { id: string; orderNo: string }[] }>(
      "GET",
      `/api/card-user/orders?orderNo=${order.body.data.orderNo}`,
      { token: brand.token },
    );
    const po = bought.body.data.list[0];
    expect(po?.orderNo).toBe(order.body.data.orderNo);
    await t.call("PUT", `/api/card-brander/supplyOrders/${po?.id}/fulfil`, {
      token: supplier.token,
      body: { result: "success", upstreamChannelId: "TEL-1" },
    });
    const done = await t.call<{ list: { state: string }[] }>("GET", "/api/mall/onecard/orders", {
      headers: cust(token),
    });
    expect(done.body.data.list[0]?.state).toBe("success");

    // The brand's SUP no longer covers a second one: refused at once, the card is paid back.
    const refused = await t.call<{ state: string; failReason: string }>("POST", "/api/mall/onecard/recharge", {
      headers: cust(token),
      body: { ...body, requestKey: key() },
      lang: "en",
    });
    expect(refused.body.data.state).toBe("failed");
    expect(refused.body.data.failReason).toMatch(/insufficient|not enough/i);
    const moves = await t.call<{
      list: { kind: string; amount: { amount: number }; balanceAfter: { amount: number } }[];
    }>("GET", "/api/mall/onecard/moves", { headers: cust(token) });
    expect(moves.body.data.list.slice(0, 3).map((m) => [m.kind, m.amount.amount, m.balanceAfter.amount])).toEqual([
      ["refund", 3_000, 7_000],
      ["redeem", -3_000, 4_000],
      ["redeem", -3_000, 7_000],
    ]);
    expect(
      (await t.call<{ total: number }>("GET", "/api/mall/onecard/orders", { headers: cust(token) })).body.data.total,
    ).toBe(2);

    // A supplier's failure later pays the card back too.
    await fundSup(t, brand, 5_000);
    const third = await t.call<{ orderNo: string }>("POST", "/api/mall/onecard/recharge", {
      headers: cust(token),
      body: { ...body, requestKey: key() },
    });
    const po3 = (
      await t.call<{ list: { id: string }[] }>("GET", `/api/card-user/orders?orderNo=${third.body.data.orderNo}`, {
        token: brand.token,
      })
    ).body.data.list[0];
    await t.call("PUT", `/api/card-brander/supplyOrders/${po3?.id}/fulfil`, {
      token: supplier.token,
      body: { result: "failure", reason: "Number not in service" },
    });
    const after = await t.call<{ list: { state: string; failReason: string }[] }>("GET", "/api/mall/onecard/orders", {
      headers: cust(token),
    });
    expect(after.body.data.list[0]).toMatchObject({ state: "failed", failReason: "Number not in service" });
    const balance = await t.call<{ cards: { id: string; balance: { amount: number } }[] }>(
      "GET",
      "/api/mall/onecard/bag",
      { headers: cust(token) },
    );
    expect(balance.body.data.cards.find((c) => c.id === card?.id)?.balance.amount).toBe(7_000);

    const tooMuch = await t.call("POST", "/api/mall/onecard/recharge", {
      headers: cust(token),
      body: {
        ...body,
        goodsId: String(
          (
            await newGoods(t, supplier, tele.id, {
              name: "Top-up 100",
              businessType: "top_up",
              faceValue: 10_000,
              price: 9_800,
              settlementPrice: 9_500,
            })
          ).id,
        ),
        requestKey: key(),
      },
      lang: "en",
    });
    expect(tooMuch.body.msg).toBe("Insufficient card balance");
    const notEquity = await t.call("POST", "/api/mall/onecard/recharge", {
      headers: cust(token),
      body: { ...body, goodsId: "999999999", requestKey: key() },
      lang: "en",
    });
    expect(notEquity.body.msg).toBe("Please choose an equity this card can pay for");
    const strangerRecharge = await t.call("POST", "/api/mall/onecard/recharge", {
      headers: cust(stranger),
      body: { ...body, requestKey: key() },
    });
    expect(strangerRecharge.status).toBe(404);
  });

  it("gift packages go to phones and by links from activated cards, all or nothing, once per request key; a link is claimed once", async () => {
    const { brand, product } = await brandWithBatch(6);
    const p = await buyer(brand);
    await t.call("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 5, requestKey: key() },
    });
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: (await cardsOf(p)).map((c) => c.id), requestKey: key() },
    });
    const empty = await t.call("POST", "/api/card-user/onecard/giftPackages", {
      token: p.token,
      body: { name: "Box", items: [] },
      lang: "en",
    });
    expect(empty.body.msg).toBe("Please choose 1 to 10 card products for the package");
    const made = await t.call<{ id: string; available: number; value: { amount: number } }>(
      "POST",
      "/api/card-user/onecard/giftPackages",
      {
        token: p.token,
        body: {
          name: "Spring box",
          message: "Happy spring",
          items: [
            { productId: product.id, count: 1 },
            { productId: product.id, count: 1 },
          ],
        },
      },
    );
    expect(made.body.data).toMatchObject({ available: 2, value: { amount: 20_000 } });
    const other = await buyer(brand);
    expect(
      (
        await t.call("POST", `/api/card-user/onecard/giftPackages/${made.body.data.id}/send`, {
          token: other.token,
          body: { phones: [newPhone()], requestKey: key() },
        })
      ).status,
    ).toBe(404);

    const tooMany = await t.call("POST", `/api/card-user/onecard/giftPackages/${made.body.data.id}/send`, {
      token: p.token,
      body: { phones: [newPhone(), newPhone()], links: 1, requestKey: key() },
      lang: "en",
    });
    expect(tooMany.body.msg).toBe('Not enough activated cards of "Coffee card 100" to give: 6 needed, 5 available');
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-user/onecard/gifts", { token: p.token })).body.data.total,
    ).toBe(0);

    const phone = newPhone();
    const body = { phones: [phone], links: 1, requestKey: key() };
    const sent = await t.call<{
      gifts: { id: string; phone: string | null; link: string | null; cardCount: number; packageName: string }[];
    }>("POST", `/api/card-user/onecard/giftPackages/${made.body.data.id}/send`, { token: p.token, body });
    expect(sent.body.data.gifts).toHaveLength(2);
    expect(sent.body.data.gifts.every((g) => g.cardCount === 2 && g.packageName === "Spring box")).toBe(true);
    const again = await t.call<{ gifts: { id: string }[] }>(
      "POST",
      `/api/card-user/onecard/giftPackages/${made.body.data.id}/send`,
      { token: p.token, body },
    );
    expect(again.body.data.gifts.map((g) => g.id).sort()).toEqual(sent.body.data.gifts.map((g) => g.id).sort());
    const pkg = await t.call<{ list: { available: number; sent: number }[] }>(
      "GET",
      "/api/card-user/onecard/giftPackages",
      { token: p.token },
    );
    expect(pkg.body.data.list[0]).toMatchObject({ available: 0, sent: 2 });

    // The link: claimed by the first customer who opens it, once; a forged token claims nothing.
    const link = sent.body.data.gifts.find((g) => g.phone === null)?.link ?? "";
    const token = new URL(link, "http://x").searchParams.get("token") ?? "";
    const first = await customerLogin(newPhone());
    const forged = await t.call("POST", "/api/mall/onecard/gifts/claimByLink", {
      headers: cust(first),
      body: { token: `${token.split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAAAA` },
      lang: "en",
    });
    expect(forged.body.msg).toBe("This gift does not exist");
    const claimed = await t.call<{ cards: unknown[] }>("POST", "/api/mall/onecard/gifts/claimByLink", {
      headers: cust(first),
      body: { token },
    });
    expect(claimed.body.data.cards).toHaveLength(2);
    const second = await customerLogin(newPhone());
    const twice = await t.call("POST", "/api/mall/onecard/gifts/claimByLink", {
      headers: cust(second),
      body: { token },
      lang: "en",
    });
    expect(twice.status).toBe(409);
    // The phone's gift is waiting in that phone's card bag.
    const bag = await t.call<{ gifts: { cardCount: number }[] }>("GET", "/api/mall/onecard/bag", {
      headers: cust(await customerLogin(phone)),
    });
    expect(bag.body.data.gifts).toEqual([expect.objectContaining({ cardCount: 2 })]);
  });

  it("wrong passwords lock the card and throttle the client; reset by SMS to the bound phone", async () => {
    const { brand, product } = await brandWithBatch(1);
    const p = await buyer(brand);
    await t.call("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 1, requestKey: key() },
    });
    const ids = (await cardsOf(p)).map((c) => c.id);
    const [s] = await extract(p, ids);
    if (!s) throw new Error("no secret");
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: ids, requestKey: key() },
    });
    const phone = newPhone();
    const token = await customerLogin(phone);
    await t.call("POST", "/api/mall/onecard/bind", {
      headers: cust(token),
      body: { cardNo: s.no, password: s.password },
    });
    const check = (password: string, ip = "10.0.0.1") =>
      t.app.inject({
        method: "POST",
        url: "/api/card-public/onecard/balance",
        headers: { lang: "en" },
        remoteAddress: ip,
        payload: { cardNo: s.no, password },
      });
    // Five wrong passwords lock the card for that client only (issue 38): anyone else still gets in, and to
    // the locked-out caller a locked card answers exactly like an unissued number (no oracle).
    for (let i = 0; i < 5; i++) {
      expect((await check("WRONG", "10.1.0.1")).json<{ msg: string }>().msg).toBe("Wrong card number or password");
    }
    const locked = await check(s.password, "10.1.0.1");
    const unissued = await check("WRONG", "10.1.0.2");
    expect([locked.statusCode, locked.json<{ msg: string }>().msg]).toEqual([400, "Wrong card number or password"]);
    const unknownCard = await t.app.inject({
      method: "POST",
      url: "/api/card-public/onecard/balance",
      headers: { lang: "en" },
      remoteAddress: "10.1.0.3",
      payload: { cardNo: `${s.no.slice(0, -4)}0000`, password: "WRONG" },
    });
    expect([unknownCard.statusCode, unknownCard.json<{ msg: string }>().msg]).toEqual([
      unissued.statusCode,
      unissued.json<{ msg: string }>().msg,
    ]);
    expect((await check(s.password, "10.1.1.1")).json<{ code: number }>().code).toBe(1);
    t.clock.advance(16 * 60);
    expect((await check(s.password, "10.1.0.1")).json<{ code: number }>().code).toBe(1);
    // One client guessing across cards is throttled.
    for (let i = 0; i < 20; i++) await check("WRONG", "10.9.9.9");
    expect((await check(s.password, "10.9.9.9")).statusCode).toBe(429);

    // A card number alone texts nobody and names no phone: the reset needs the session of the customer
    // whose bag holds the card (or the current password).
    const anonymous = await t.call("POST", "/api/card-public/onecard/resetPwd/sms", { body: { cardNo: s.no } });
    expect(anonymous.body.code).not.toBe(1);
    const stranger = await customerLogin(newPhone());
    const notTheirs = await t.call("POST", "/api/card-public/onecard/resetPwd/sms", {
      headers: cust(stranger),
      body: { cardNo: s.no },
      lang: "en",
    });
    expect([notTheirs.body.code, notTheirs.body.msg]).toEqual([
      CODE.INVALID_PARAMETER,
      "Wrong card number or password",
    ]);
    const codesBefore = (await t.call<{ list: unknown[] }>("GET", `/api/dev/outbox?to=${phone}`)).body.data.list.length;
    const sent = await t.call<Record<string, unknown>>("POST", "/api/card-public/onecard/resetPwd/sms", {
      headers: cust(token),
      body: { cardNo: s.no },
    });
    expect(sent.body.code).toBe(1);
    expect(sent.body.data).not.toHaveProperty("phone");
    expect(JSON.stringify(sent.body)).not.toContain(phone.slice(-4));
    expect((await t.call<{ list: unknown[] }>("GET", `/api/dev/outbox?to=${phone}`)).body.data.list.length).toBe(
      codesBefore + 1,
    );
    const smsCode = await lastCode(t, phone);
    // The code without the session proves nothing.
    const noSession = await t.call("POST", "/api/card-public/onecard/resetPwd", {
      body: { cardNo: s.no, smsCode, password: "new2Card8" },
    });
    expect(noSession.body.code).not.toBe(1);
    // Six digits are one of a million guesses: a new password has 8 or more letters and digits (issue 38).
    for (const weak of ["246810", "24681012", "abcdefgh", "ab1"]) {
      const refused = await t.call("POST", "/api/card-public/onecard/resetPwd", {
        headers: cust(token),
        body: { cardNo: s.no, smsCode, password: weak },
        lang: "en",
      });
      expect([refused.status, refused.body.msg], weak).toEqual([
        400,
        "The new password must be 8 to 32 letters and digits, with at least one of each",
      ]);
    }
    const reset = await t.call("POST", "/api/card-public/onecard/resetPwd", {
      headers: cust(token),
      body: { cardNo: s.no, smsCode, password: "new2Card8" },
    });
    expect(reset.body.code).toBe(1);
    // The current password proves it too, without a session; a wrong one is a card check like any other.
    const wrongCurrent = await t.call("POST", "/api/card-public/onecard/resetPwd", {
      body: { cardNo: s.no, currentPassword: "WRONG", password: "new3Card9" },
      lang: "en",
    });
    expect(wrongCurrent.body.msg).toBe("Wrong card number or password");
    expect(
      (
        await t.call("POST", "/api/card-public/onecard/resetPwd", {
          body: { cardNo: s.no, currentPassword: "new2Card8", password: "new2Card8" },
        })
      ).body.code,
    ).toBe(1);
    // Card passwords are not case-sensitive: typed in any case, it is the one set.
    expect((await check("new2card8", "10.1.2.1")).json<{ code: number }>().code).toBe(1);
    expect((await check("NEW2CARD8", "10.1.2.3")).json<{ code: number }>().code).toBe(1);
    expect((await check(s.password, "10.1.2.2")).json<{ code: number }>().code).not.toBe(1);
  });

  it("1,000 wrong passwords across cards from one client, in parallel bursts: throttled and locked, nothing revealed; right passwords work once the locks lapse", async () => {
    const { brand, product } = await brandWithBatch(10);
    const p = await buyer(brand);
    await t.call("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 10, requestKey: key() },
    });
    const ids = (await cardsOf(p)).map((c) => c.id);
    const secrets = await extract(p, ids);
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: ids, requestKey: key() },
    });
    const check = (cardNo: string, password: string, ip: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/card-public/onecard/balance",
        remoteAddress: ip,
        payload: { cardNo, password },
      });
    const statuses = new Map<number, number>();
    for (let burst = 0; burst < 20; burst++) {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const card = secrets[(burst * 50 + i) % secrets.length];
          const guess = String((burst * 50 + i) % 1_000_000).padStart(6, "0");
          return check(card?.no ?? "", guess === card?.password ? "999999" : guess, "10.66.0.1");
        }),
      );
      for (const r of replies) {
        expect(r.json<{ code: number }>().code).not.toBe(1);
        statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
      }
    }
    // At most 20 guesses were ever compared; the rest were throttled before reaching a card.
    expect(statuses.get(429)).toBeGreaterThanOrEqual(980);
    expect([...statuses.keys()].every((code) => code < 500)).toBe(true);
    // Another client hitting one card is stopped by its lock on the card after five wrong tries (its own
    // lock: it answers like a wrong password, and other clients are not locked out).
    const target = secrets[0];
    if (!target) throw new Error("no card");
    for (let i = 0; i < 5; i++) await check(target.no, "000000" === target.password ? "111111" : "000000", "10.67.0.1");
    const lockedOut = await check(target.no, target.password, "10.67.0.1");
    expect([lockedOut.statusCode, lockedOut.json<{ code: number }>().code]).toEqual([400, CODE.INVALID_PARAMETER]);
    t.clock.advance(16 * 60);
    for (const [i, sct] of secrets.entries()) {
      expect((await check(sct.no, sct.password, `10.68.0.${i}`)).json<{ code: number }>().code).toBe(1);
    }
  });

  it("two-phase redemption by the card's brand: hold, capture, release; others cannot", async () => {
    const { brand, product } = await brandWithBatch(1);
    const p = await buyer(brand);
    await t.call("POST", "/api/card-user/onecard/purchase", {
      token: p.token,
      body: { productId: product.id, quantity: 1, requestKey: key() },
    });
    const ids = (await cardsOf(p)).map((c) => c.id);
    const [s] = await extract(p, ids);
    if (!s) throw new Error("no secret");
    const early = await t.call("POST", "/api/card-brander/onecard/redeem", {
      token: brand.token,
      body: { cardNo: s.no, password: s.password, amount: 100, requestKey: key() },
      lang: "en",
    });
    expect(early.body.msg).toBe("This card is not activated");
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: p.token,
      body: { cardIds: ids, requestKey: key() },
    });
    const h1 = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/holds", {
      token: brand.token,
      body: { cardNo: s.no, password: s.password, amount: 6_000, requestKey: key() },
    });
    const over = await t.call("POST", "/api/card-brander/onecard/holds", {
      token: brand.token,
      body: { cardNo: s.no, password: s.password, amount: 5_000, requestKey: key() },
      lang: "en",
    });
    expect(over.body.msg).toBe("Insufficient card balance");
    const other = await registerMerchant(t);
    expect(
      (await t.call("PUT", `/api/card-brander/onecard/holds/${h1.body.data.id}/capture`, { token: other.token }))
        .status,
    ).toBe(404);
    // Another brand learns nothing about this brand's card (issue 38): the right password answers exactly
    // like a wrong one and like an unissued number, and its guesses never lock the card for its brand.
    const foreign = (password: string, cardNo = s.no) =>
      t.call("POST", "/api/card-brander/onecard/redeem", {
        token: other.token,
        body: { cardNo, password, amount: 100, requestKey: key() },
        lang: "en",
      });
    const right = await foreign(s.password);
    const wrong = await foreign("WRONG");
    const unissued = await foreign("WRONG", `${s.no.slice(0, -4)}0000`);
    expect([right.status, right.body.code, right.body.msg]).toEqual([
      400,
      CODE.INVALID_PARAMETER,
      "Wrong card number or password",
    ]);
    expect([wrong.status, wrong.body.msg]).toEqual([right.status, right.body.msg]);
    expect([unissued.status, unissued.body.msg]).toEqual([right.status, right.body.msg]);
    for (let i = 0; i < 10; i++) await foreign("WRONG");
    expect(
      await t.ctx.database.db
        .selectFrom("onecard_card_failures")
        .select("client")
        .where("client", "like", `merchant:${other.merchantId}`)
        .execute(),
    ).toEqual([]);
    // The brand's own wrong passwords lock the card for the brand only (per card and client): the holder
    // still checks the balance.
    for (let i = 0; i < 5; i++) {
      await t.call("POST", "/api/card-brander/onecard/redeem", {
        token: brand.token,
        body: { cardNo: s.no, password: "WRONG", amount: 1, requestKey: key() },
      });
    }
    const brandLocked = await t.call("POST", "/api/card-brander/onecard/holds", {
      token: brand.token,
      body: { cardNo: s.no, password: s.password, amount: 1, requestKey: key() },
      lang: "en",
    });
    expect(brandLocked.status).toBe(429);
    const holder = await t.app.inject({
      method: "POST",
      url: "/api/card-public/onecard/balance",
      remoteAddress: "10.70.0.1",
      payload: { cardNo: s.no, password: s.password },
    });
    expect(holder.json<{ code: number }>().code).toBe(1);
    t.clock.advance(16 * 60);
    const cap = await t.call<{ balance: { amount: number } }>(
      "PUT",
      `/api/card-brander/onecard/holds/${h1.body.data.id}/capture`,
      { token: brand.token },
    );
    expect(cap.body.data.balance.amount).toBe(4_000);
    expect(
      (await t.call("PUT", `/api/card-brander/onecard/holds/${h1.body.data.id}/release`, { token: brand.token }))
        .status,
    ).toBe(409);
    const h2 = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/holds", {
      token: brand.token,
      body: { cardNo: s.no, password: s.password, amount: 4_000, requestKey: key() },
    });
    const rel = await t.call<{ state: string; balance: { amount: number } }>(
      "PUT",
      `/api/card-brander/onecard/holds/${h2.body.data.id}/release`,
      { token: brand.token },
    );
    expect(rel.body.data).toMatchObject({ state: "released", balance: { amount: 4_000 } });
    const report = await t.call<{ outstanding: { amount: number }; rows: { soldCount: number }[] }>(
      "GET",
      "/api/card-user/onecard/report?dimension=month",
      { token: p.token },
    );
    expect(report.body.data.outstanding.amount).toBe(4_000);
    expect(report.body.data.rows[0]?.soldCount).toBe(1);
  });
});
