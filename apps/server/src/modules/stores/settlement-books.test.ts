import type { SettlePreview, DynamicCodeReply, Redemption, SettlementDoc, WriteAccountReply } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { cardInBagOf, cust, storeOf } from "../../../test/kit/redeem-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

/**
 * Issue 37: a store's day of a voucher (88.00, paid into the escrow at sale) and a stored-value card
 * redemption (58.50, paid to the brand when the card was activated). The settlement pays 88.00 out of the
 * escrow, and the document, its lines, the PDF's figures and the write-off account say 88.00 — not 146.50.
 */
it("write-off settlement counts only the escrowed voucher money, not card redemptions paid at activation", async () => {
  const { brand, cardId, customer } = await cardInBagOf(t, "Books Brand", "13800138377");
  const store = await storeOf(t, brand, "Books store");
  const b = await newBrand(t, brand, "Books");
  const voucher = await newGoods(t, brand, b.id, {
    name: "Set meal voucher",
    businessType: "card_voucher",
    faceValue: 10_000,
    price: 8_800,
    settlementPrice: 8_000,
    perOrderMax: 5,
  });
  expect((await importFile(t, brand.token, voucher.id, "v.csv", cardCsv(["BOOKS001,S1,"]))).body.code).toBe(1);
  const { buyer } = await dock(t, brand);
  await fundSup(t, buyer, 100_000);
  const order = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(voucher.id), quantity: 1, orderNo: `BK${Date.now()}` },
  });
  expect(order.body.code).toBe(1);
  const listed = await t.call<{ list: { id: string }[] }>(
    "GET",
    `/api/card-user/purchasedCards?orderId=${order.body.data.id}`,
    { token: buyer.token },
  );
  const [code] = (
    await t.call<{ cardNumber: string; cardSecret: string }[]>("POST", "/api/card-user/purchasedCards/reveal", {
      token: buyer.token,
      body: { ids: listed.body.data.list.map((c) => c.id) },
    })
  ).body.data;
  if (!code) throw new Error("no code");

  let n = 0;
  const redeem = (body: Record<string, unknown>) =>
    t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
      token: brand.token,
      body: { storeId: store.id, requestKey: `books-${Date.now()}-${++n}`, ...body },
    });
  const v = await redeem({ kind: "coupon", code: code.cardNumber, secret: code.cardSecret });
  expect(v.body.data).toMatchObject({ kind: "coupon", settleAmount: { amount: 8_800 } });
  const dyn = (
    await t.call<DynamicCodeReply>("POST", `/api/mall/onecard/cards/${cardId}/dynamicCode`, { headers: cust(customer) })
  ).body.data;
  const c = await redeem({ kind: "dynamic", code: dyn.code, amount: 5_850 });
  // The card's money reached the brand at activation: this redemption settles nothing more.
  expect(c.body.data).toMatchObject({ kind: "onecard", value: { amount: 5_850 }, settleAmount: { amount: 0 } });

  const account = async () =>
    (await t.call<WriteAccountReply>("GET", "/api/card-brander/accounts", { token: brand.token })).body.data;
  expect((await account()).total).toMatchObject({ count: 2, unsettled: { amount: 8_800 }, settled: { amount: 0 } });

  t.clock.advance(86_400);
  brand.token = (
    await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: brand.email, password: STRONG_PASSWORD },
    })
  ).body.data.token;
  const op = await registerOperator(t);
  // The operator's page first shows what the run would settle (issue 40, item 16): exactly what it then settles.
  const preview = async () =>
    (await t.call<SettlePreview>("GET", "/api/ops/stores/settle/preview", { token: op.token })).body.data;
  const before = await preview();
  const cny = before.totals.find((x) => x.amount.currency === "CNY");
  expect(cny?.amount.amount).toBeGreaterThanOrEqual(8_800);
  const run = await t.call<{ amount: number }>("POST", "/api/ops/stores/settle", {
    token: op.token,
    body: { day: before.day },
  });
  expect(run.body.code).toBe(1);
  expect(run.body.data.amount).toBe(cny?.amount.amount);
  expect((await preview()).totals).toEqual([]);
  const future = await t.call("GET", "/api/ops/stores/settle/preview?day=2999-01-01", { token: op.token });
  expect(future.body.code).not.toBe(1);
  const docs = (
    await t.call<{ list: SettlementDoc[] }>("GET", "/api/card-brander/writeOff/docs", { token: brand.token })
  ).body.data.list;
  expect(docs.map((d) => [d.count, d.amount.amount, d.paid.amount])).toEqual([[2, 8_800, 8_800]]);
  const doc = docs[0];
  if (!doc) throw new Error("no document");
  const detail = await t.call<{ doc: SettlementDoc; lines: Redemption[] }>(
    "GET",
    `/api/card-brander/writeOff/docs/${doc.id}`,
    { token: brand.token },
  );
  // The PDF prints exactly these figures: the document's amount and each line's settled amount.
  expect(detail.body.data.doc.amount.amount).toBe(8_800);
  expect(detail.body.data.lines.map((l) => [l.kind, l.settleAmount.amount]).sort()).toEqual([
    ["coupon", 8_800],
    ["onecard", 0],
  ]);
  expect(detail.body.data.lines.reduce((a, l) => a + l.settleAmount.amount, 0)).toBe(
    detail.body.data.doc.amount.amount,
  );
  const pdf = await t.app.inject({
    method: "GET",
    url: `/api/card-brander/writeOff/docs/${doc.id}/pdf`,
    headers: { "x-auth-token": brand.token },
  });
  expect([pdf.statusCode, pdf.rawPayload.subarray(0, 5).toString()]).toEqual([200, "%PDF-"]);
  expect((await account()).total).toMatchObject({ count: 2, settled: { amount: 8_800 }, unsettled: { amount: 0 } });

  // The ledger agrees: the document's one transaction moved 88.00 from the escrow to the brand's income.
  const moved = await t.ctx.database.db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_transactions as x", "x.id", "e.transaction_id")
    .innerJoin("ledger_accounts as a", "a.id", "e.account_id")
    .select(["a.kind", "e.amount"])
    .where("x.subject_type", "=", "store_settlement_doc")
    .where("x.subject_id", "=", doc.id)
    .where("a.merchant_id", "=", Number(brand.merchantId))
    .execute();
  expect(moved.map((m) => [m.kind, Number(m.amount)])).toEqual([["income", 8_800]]);
});
