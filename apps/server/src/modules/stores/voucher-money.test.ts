import type { Page, SettlementDoc, Store, WriteAccountReply } from "@tessera/contracts";
import { expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();

type Balances = { balances: { income: { amount: number }; sup: { amount: number } } };

/**
 * The money of store vouchers (issue 27): the purchaser's payment waits in the platform's order escrow
 * until a code is redeemed; the store's settlement document (T+1) pays it into the brand's income once;
 * a voucher returned unused is refunded out of the escrow. Card secrets keep paying the supplier at sale.
 */
it("a voucher's money waits in escrow until it is redeemed and settled next day; an unused voucher is refunded from the escrow", async () => {
  const supplier = await newMerchant(t, "Escrow Brand");
  const b = await newBrand(t, supplier, "Escrow");
  const voucher = await newGoods(t, supplier, b.id, {
    name: "Noodle voucher",
    businessType: "card_voucher",
    faceValue: 2000,
    price: 1800,
    settlementPrice: 1700,
    perOrderMax: 10,
  });
  const secret = await newGoods(t, supplier, b.id, {
    name: "Video month",
    businessType: "card_secret",
    faceValue: 1500,
    price: 1200,
    settlementPrice: 1100,
    perOrderMax: 10,
  });
  expect(
    (await importFile(t, supplier.token, voucher.id, "v.csv", cardCsv(["NDL001,A1,", "NDL002,A2,", "NDL003,A3,"]))).body
      .code,
  ).toBe(1);
  expect((await importFile(t, supplier.token, secret.id, "s.csv", cardCsv(["VID001,B1,"]))).body.code).toBe(1);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 100_000);
  const me = async (token: string) =>
    (await t.call<Balances>("GET", "/api/card-user/userInfo", { token })).body.data.balances;
  const income0 = (await me(supplier.token)).income.amount;

  const vOrder = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(voucher.id), quantity: 3, orderNo: `VO${Date.now()}` },
  });
  expect(vOrder.body.code).toBe(1);
  expect((await me(supplier.token)).income.amount).toBe(income0);
  const sOrder = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(secret.id), quantity: 1, orderNo: `SO${Date.now()}` },
  });
  expect(sOrder.body.code).toBe(1);
  // A card secret pays the supplier at sale, as before.
  expect((await me(supplier.token)).income.amount).toBe(income0 + 1200);
  const sup0 = (await me(buyer.token)).sup.amount;

  // One voucher comes back unused: its price returns to the buyer out of the escrow, the brand's income untouched.
  const refund = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
    token: buyer.token,
    body: { orderId: vOrder.body.data.id, quantity: 1, reason: "not needed" },
  });
  expect(
    (
      await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
        token: supplier.token,
        body: { approve: true },
      })
    ).body.code,
  ).toBe(1);
  expect((await me(buyer.token)).sup.amount).toBe(sup0 + 1800);
  expect((await me(supplier.token)).income.amount).toBe(income0 + 1200);

  // The brand redeems one voucher and the card secret at its store.
  const store = (
    await t.call<Store>("POST", "/api/card-brander/branderStores", {
      token: supplier.token,
      body: {
        name: "Escrow store",
        provinceCode: "440000",
        cityCode: "440300",
        countyCode: "440305",
        address: "2 Keji Road",
        openingHours: "10:00-22:00",
        contactPhone: "0755-88888888",
      },
    })
  ).body.data;
  const codes = async (orderId: string) => {
    const list = await t.call<{ list: { id: string }[] }>("GET", `/api/card-user/purchasedCards?orderId=${orderId}`, {
      token: buyer.token,
    });
    return (
      await t.call<{ cardNumber: string; cardSecret: string }[]>("POST", "/api/card-user/purchasedCards/reveal", {
        token: buyer.token,
        body: { ids: list.body.data.list.map((c) => c.id) },
      })
    ).body.data;
  };
  const [v] = await codes(vOrder.body.data.id);
  const [s] = await codes(sOrder.body.data.id);
  if (!v || !s) throw new Error("no codes");
  for (const c of [v, s]) {
    const r = await t.call("POST", "/api/card-brander/writeOff/redeem", {
      token: supplier.token,
      body: {
        kind: "coupon",
        code: c.cardNumber,
        secret: c.cardSecret,
        storeId: store.id,
        requestKey: `vm-${c.cardNumber}`,
      },
    });
    expect(r.body.code).toBe(1);
  }
  expect((await me(supplier.token)).income.amount).toBe(income0 + 1200);
  // The brand's redemption account: one voucher (18.00) still waits for redemption; one redeemed, to settle.
  const account = async () =>
    (await t.call<WriteAccountReply>("GET", "/api/card-brander/accounts", { token: supplier.token })).body.data;
  expect((await account()).awaitingRedemption.amount).toBe(1800);
  // Only the voucher waits to be settled: the card secret paid the supplier at sale (issue 37).
  expect((await account()).total.unsettled.amount).toBe(1800);

  // Today's redemptions are settled tomorrow: the operator's run now (settling up to yesterday) makes no document of them.
  const op = await registerOperator(t);
  const docsOf = async () =>
    (await t.call<Page<SettlementDoc>>("GET", "/api/card-brander/writeOff/docs", { token: supplier.token })).body.data
      .list;
  await t.call("POST", "/api/ops/stores/settle", { token: op.token, body: {} });
  expect(await docsOf()).toEqual([]);

  // Next day: one document; it pays the voucher's held price into the brand's income, and only once.
  t.clock.advance(86_400);
  supplier.token = (
    await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: supplier.email, password: STRONG_PASSWORD },
    })
  ).body.data.token;
  const op2 = await registerOperator(t);
  const runs = [
    await t.call("POST", "/api/ops/stores/settle", { token: op2.token, body: {} }),
    await t.call("POST", "/api/ops/stores/settle", { token: op2.token, body: {} }),
  ];
  expect(runs.map((r) => r.body.code)).toEqual([1, 1]);
  const docs = await docsOf();
  expect(docs.map((d) => [d.storeName, d.count, d.amount.amount, d.paid.amount])).toEqual([
    ["Escrow store", 2, 1800, 1800],
  ]);
  expect((await me(supplier.token)).income.amount).toBe(income0 + 1200 + 1800);
  const settlementTxs = await t.ctx.database.db
    .selectFrom("ledger_transactions")
    .select("id")
    .where("subject_type", "=", "store_settlement_doc")
    .where("subject_id", "=", docs[0]?.id ?? "")
    .execute();
  expect(settlementTxs).toHaveLength(1);
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
