import type { Redemption, Store } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

/** On the PostgreSQL server only: clerks racing for one code, settlement runs racing for one day. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

it("20 clerks at 20 stores redeem the same code at once: one redemption; two settlement runs at once: one document per store", async () => {
  const supplier = await newMerchant(t, "Race Voucher Brand");
  const b = await newBrand(t, supplier, "Race");
  const goods = await newGoods(t, supplier, b.id, {
    name: "Race voucher",
    businessType: "card_voucher",
    faceValue: 1000,
    price: 900,
    settlementPrice: 800,
    perOrderMax: 50,
  });
  const n = 20;
  const csv = cardCsv(n, (i) => `RACE${String(i).padStart(4, "0")},K${i},`);
  expect((await importFile(t, supplier.token, goods.id, "race.csv", csv)).body.code).toBe(1);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 1_000_000);
  const order = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(goods.id), quantity: n, orderNo: `PO${Date.now()}` },
  });
  expect(order.body.code).toBe(1);
  const listed = await t.call<{ list: { id: string }[] }>(
    "GET",
    `/api/card-user/purchasedCards?orderId=${order.body.data.id}&pageSize=50`,
    { token: buyer.token },
  );
  const codes = (
    await t.call<{ cardNumber: string; cardSecret: string }[]>("POST", "/api/card-user/purchasedCards/reveal", {
      token: buyer.token,
      body: { ids: listed.body.data.list.map((c) => c.id) },
    })
  ).body.data;

  const clerks: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await t.call<Store>("POST", "/api/card-brander/branderStores", {
      token: supplier.token,
      body: {
        name: `Race store ${i}`,
        provinceCode: "440000",
        cityCode: "440300",
        countyCode: "440305",
        address: `${i} Road`,
      },
    });
    const email = uniqueEmail("clerk");
    const added = await t.call<{ passportId: string }>("POST", "/api/card-brander/passport/sub/add", {
      token: supplier.token,
      body: { email, name: `Clerk ${i}`, password: STRONG_PASSWORD, menus: ["business/WriteOff"] },
    });
    await t.call("POST", `/api/card-brander/branderStores/${s.body.data.id}/clerks`, {
      token: supplier.token,
      body: { passportId: added.body.data.passportId },
    });
    clerks.push(
      (await t.call<{ token: string }>("POST", "/api/card-user/login", { body: { email, password: STRONG_PASSWORD } }))
        .body.data.token,
    );
  }
  const [one] = codes;
  if (!one) throw new Error("no code");
  const results = await Promise.all(
    clerks.map((token, i) =>
      t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
        token,
        body: {
          kind: "coupon",
          code: one.cardNumber,
          secret: one.cardSecret,
          requestKey: `race-one-${i}-${Date.now()}`,
        },
        lang: "en",
      }),
    ),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.filter((r) => r.body.code !== 1).map((r) => r.body.msg)).toEqual(
    Array.from({ length: n - 1 }, () => "This code has already been redeemed"),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);

  // Distinct codes at once: each redeemed once, at its clerk's store.
  const rest = codes.slice(1);
  const many = await Promise.all(
    rest.map((c, i) =>
      t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
        token: clerks[i % n] ?? "",
        body: { kind: "coupon", code: c.cardNumber, secret: c.cardSecret, requestKey: `race-many-${i}-${Date.now()}` },
      }),
    ),
  );
  expect(many.every((r) => r.body.code === 1)).toBe(true);

  // One document per store that redeemed (the single code's winner may share a store with a distinct code).
  const stores = new Set([...results, ...many].filter((r) => r.body.code === 1).map((r) => r.body.data.storeId));
  t.clock.advance(86_400);
  const op = await registerOperator(t);
  const runs = await Promise.all(
    [0, 1].map(() =>
      t.call<{ documents: number; amount: number }>("POST", "/api/ops/stores/settle", { token: op.token, body: {} }),
    ),
  );
  expect(runs.every((r) => r.body.code === 1)).toBe(true);
  // The runs settle every brand's day: on PostgreSQL a worker's database also holds what earlier files
  // redeemed, so what is counted is this brand's documents, not the runs' totals.
  expect(runs.reduce((a, r) => a + r.body.data.documents, 0)).toBeGreaterThanOrEqual(stores.size);
  const docs = await t.ctx.database.db
    .selectFrom("store_settlement_docs")
    .select(["store_id", "count", "amount", "paid"])
    .where("brander_id", "=", Number(supplier.merchantId))
    .execute();
  expect(docs).toHaveLength(stores.size);
  expect(new Set(docs.map((d) => d.store_id)).size).toBe(stores.size);
  expect(docs.reduce((a, d) => a + d.count, 0)).toBe(n);
  expect(docs.reduce((a, d) => a + Number(d.amount), 0)).toBe(n * 900);
  // The vouchers' money left the escrow for the brand's income once, whichever run made each document.
  expect(docs.reduce((a, d) => a + Number(d.paid), 0)).toBe(n * 900);
  const paid = await t.ctx.database.db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_accounts as a", "a.id", "e.account_id")
    .innerJoin("ledger_transactions as x", "x.id", "e.transaction_id")
    .select((eb) => eb.fn.sum<string>("e.amount").as("sum"))
    .where("a.merchant_id", "=", Number(supplier.merchantId))
    .where("a.kind", "=", "income")
    .where("x.kind", "=", "store_settlement")
    .executeTakeFirst();
  expect(Number(paid?.sum)).toBe(n * 900);
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
