import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { registerMerchant, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { checkInvariants } from "../ledger";
import { invariantProblems } from "./repo";

/** On the PostgreSQL server only: redemptions, recharges, activations and purchases racing. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  expect(await invariantProblems(t.ctx.database.db)).toEqual([]);
  const negative = await t.ctx.database.db
    .selectFrom("onecard_cards")
    .select("id")
    .where((eb) => eb.or([eb("balance", "<", 0), eb("held", ">", eb.ref("balance"))]))
    .execute();
  expect(negative).toEqual([]);
});

let seq = 0;
const key = (p: string) => `${p}-${Date.now()}-${++seq}`;
type Merchant = Awaited<ReturnType<typeof registerMerchant>>;

async function setup(count: number, faceValue = 10_000): Promise<{ brand: Merchant; productId: string }> {
  const brand = await registerMerchant(t);
  const p = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
    token: brand.token,
    body: {
      kind: "face_value",
      name: "Race card",
      faceValue,
      salePrice: faceValue,
      named: true,
      validity: { kind: "none" },
      rechargeAllowed: true,
    },
  });
  await t.call("POST", "/api/card-brander/onecard/batches", {
    token: brand.token,
    body: { productId: p.body.data.id, count, requestKey: key("b") },
  });
  return { brand, productId: p.body.data.id };
}

/** A purchaser docked with the brand: purchasing's rule of who may buy applies to cards too. */
async function dockedBuyer(brand: Merchant): Promise<Merchant> {
  const m = await registerMerchant(t);
  await dock(t, brand, m);
  return m;
}

async function secretsOf(p: Merchant, ids: string[]): Promise<{ no: string; password: string }[]> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/card-user/onecard/extract",
    headers: { "x-auth-token": p.token },
    payload: { cardIds: ids },
  });
  const ExcelJS = (await import("exceljs")).default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const out: { no: string; password: string }[] = [];
  wb.worksheets[0]?.eachRow((row, n) => {
    if (n > 1) out.push({ no: row.getCell(1).text, password: row.getCell(2).text });
  });
  return out;
}

const cardIds = async (p: Merchant) =>
  (
    await t.call<{ list: { id: string }[] }>("GET", "/api/card-user/onecard/cards?pageSize=1000", { token: p.token })
  ).body.data.list.map((c) => c.id);

it("parallel purchases of one batch never sell a card twice nor overdraw SUP", async () => {
  const { brand, productId } = await setup(50, 100);
  const buyers = await Promise.all(Array.from({ length: 5 }, () => dockedBuyer(brand)));
  for (const b of buyers) await fundSup(t, b, 2_000);
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) => {
      const b = buyers[i % buyers.length] as Merchant;
      return t.call("POST", "/api/card-user/onecard/purchase", {
        token: b.token,
        body: { productId, quantity: 3, requestKey: key("p") },
      });
    }),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  const bought = results.filter((r) => r.body.code === 1).length;
  let cards = 0;
  for (const b of buyers) cards += (await cardIds(b)).length;
  expect(cards).toBe(bought * 3);
  expect(cards).toBeLessThanOrEqual(50);
});

it("200 parallel redemptions against a card that covers 100: exactly 100 succeed, the balance ends at 0", async () => {
  const { brand, productId } = await setup(1, 10_000);
  const p = await dockedBuyer(brand);
  await fundSup(t, p, 10_000);
  await t.call("POST", "/api/card-user/onecard/purchase", {
    token: p.token,
    body: { productId, quantity: 1, requestKey: key("p") },
  });
  const ids = await cardIds(p);
  const [s] = await secretsOf(p, ids);
  if (!s) throw new Error("no card");
  await t.call("POST", "/api/card-user/onecard/activate", {
    token: p.token,
    body: { cardIds: ids, requestKey: key("a") },
  });
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      t.app.inject({
        method: "POST",
        url: "/api/card-brander/onecard/redeem",
        remoteAddress: `10.2.${i % 200}.1`,
        headers: { "x-auth-token": brand.token },
        payload: { cardNo: s.no, password: s.password, amount: 100, requestKey: key("r") },
      }),
    ),
  );
  expect(results.every((r) => r.statusCode < 500)).toBe(true);
  expect(results.filter((r) => r.json<{ code: number }>().code === 1)).toHaveLength(100);
  const card = await t.ctx.database.db
    .selectFrom("onecard_cards")
    .select("balance")
    .where("id", "=", Number(ids[0]))
    .executeTakeFirstOrThrow();
  expect(card.balance).toBe(0);
});

it("the same redemption key replayed 50 times changes the balance once; recharges race safely", async () => {
  const { brand, productId } = await setup(1, 5_000);
  const p = await dockedBuyer(brand);
  await fundSup(t, p, 5_000);
  await t.call("POST", "/api/card-user/onecard/purchase", {
    token: p.token,
    body: { productId, quantity: 1, requestKey: key("p") },
  });
  const ids = await cardIds(p);
  const [s] = await secretsOf(p, ids);
  if (!s) throw new Error("no card");
  await t.call("POST", "/api/card-user/onecard/activate", {
    token: p.token,
    body: { cardIds: ids, requestKey: key("a") },
  });
  const rk = key("same");
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      t.app.inject({
        method: "POST",
        url: "/api/card-brander/onecard/redeem",
        remoteAddress: `10.3.${i}.1`,
        headers: { "x-auth-token": brand.token },
        payload: { cardNo: s.no, password: s.password, amount: 700, requestKey: rk },
      }),
    ),
  );
  const after = await t.ctx.database.db
    .selectFrom("onecard_cards")
    .select("balance")
    .where("id", "=", Number(ids[0]))
    .executeTakeFirstOrThrow();
  expect(after.balance).toBe(4_300);

  // A customer recharging 1-yuan equities with the card (the brand's purchase orders, paid from its SUP),
  // in parallel with holds at the brand's store.
  const supplier = await registerMerchant(t);
  const topUp = await newGoods(t, supplier, (await newBrand(t, supplier, "Tele")).id, {
    name: "Top-up 1",
    businessType: "top_up",
    faceValue: 100,
    price: 100,
    settlementPrice: 90,
  });
  await dock(t, supplier, brand);
  await fundSup(t, brand, 10_000);
  const phone = uniquePhone("16");
  await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
  const code = await (await import("../../../test/harness")).lastCode(t, phone);
  const login = await t.call<{ token: string }>("POST", "/api/mall/customer/login", { body: { phone, smsCode: code } });
  const headers = { "x-customer-token": login.body.data.token };
  await t.call("POST", "/api/mall/onecard/bind", { headers, body: { cardNo: s.no, password: s.password } });
  const results = await Promise.all([
    ...Array.from({ length: 30 }, () =>
      t.call("POST", "/api/mall/onecard/recharge", {
        headers,
        body: { cardId: ids[0], goodsId: String(topUp.id), account: "13800000000", requestKey: key("o") },
      }),
    ),
    ...Array.from({ length: 30 }, (_, i) =>
      t.app.inject({
        method: "POST",
        url: "/api/card-brander/onecard/holds",
        remoteAddress: `10.4.${i}.1`,
        headers: { "x-auth-token": brand.token },
        payload: { cardNo: s.no, password: s.password, amount: 100, requestKey: key("h") },
      }),
    ),
  ]);
  const okCount = results.filter(
    (r) =>
      ("body" in r && typeof r.body === "object"
        ? (r.body as { code: number }).code
        : (r as { json: <T>() => T }).json<{ code: number }>().code) === 1,
  ).length;
  expect(okCount).toBe(43);
  const card = await t.ctx.database.db
    .selectFrom("onecard_cards")
    .select(["balance", "held"])
    .where("id", "=", Number(ids[0]))
    .executeTakeFirstOrThrow();
  expect(card.balance - card.held).toBe(0);
});

it("100 parallel activations of one range activate each card once", async () => {
  const { brand, productId } = await setup(20, 1_000);
  const p = await dockedBuyer(brand);
  await fundSup(t, p, 20_000);
  await t.call("POST", "/api/card-user/onecard/purchase", {
    token: p.token,
    body: { productId, quantity: 20, requestKey: key("p") },
  });
  const secrets = (await secretsOf(p, await cardIds(p))).map((x) => x.no).sort();
  const range = { from: secrets[0], to: secrets[secrets.length - 1] };
  const results = await Promise.all(
    Array.from({ length: 100 }, () =>
      t.call("POST", "/api/card-user/onecard/activate", { token: p.token, body: { range, requestKey: key("a") } }),
    ),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  const moves = await t.ctx.database.db
    .selectFrom("onecard_moves as v")
    .innerJoin("onecard_cards as c", "c.id", "v.card_id")
    .where("c.owner_id", "=", Number(p.merchantId))
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  expect(Number(moves.n)).toBe(20);
});
