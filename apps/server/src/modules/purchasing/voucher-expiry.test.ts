import type { Page, RefundOrder, Store, WriteAccountReply } from "@tessera/contracts";
import { expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { platformDay } from "../../platform/clock";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { refundExpiredVouchers } from "./voucher-expiry";
import { voucherExpiryDeps } from "../../../test/kit/mall-fixtures";
import { cardCsv } from "../../../test/kit/cards";

const t = useTestApp();

type Balances = { balances: { income: { amount: number }; sup: { amount: number } } };

function dayAfter(days: number): string {
  return platformDay(new Date(t.clock.now().getTime() + days * 86_400_000));
}

async function relogin(m: TestMerchant): Promise<void> {
  m.token = (
    await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: m.email, password: STRONG_PASSWORD },
    })
  ).body.data.token;
}

/**
 * Store vouchers that expire unused (issue 27: their price waited in the order escrow for a redemption that
 * can no longer come): the daily job refunds them to the purchaser out of the escrow, once, as a refund row
 * of cause "expiry"; redeemed, returned and not yet expired codes, card secrets and orders with an open
 * refund are left alone.
 */
it("expired unredeemed vouchers are refunded out of the escrow once; redeemed, returned and unexpired codes and card secrets stay", async () => {
  const supplier = await newMerchant(t, "Expiry Brand");
  const b = await newBrand(t, supplier, "Expiry");
  const voucher = await newGoods(t, supplier, b.id, {
    name: "Tea voucher",
    businessType: "card_voucher",
    faceValue: 2000,
    price: 1500,
    settlementPrice: 1400,
    perOrderMax: 10,
  });
  const later = await newGoods(t, supplier, b.id, {
    name: "Cake voucher",
    businessType: "card_voucher",
    faceValue: 3000,
    price: 2500,
    settlementPrice: 2400,
    perOrderMax: 10,
  });
  const secret = await newGoods(t, supplier, b.id, {
    name: "Music month",
    businessType: "card_secret",
    faceValue: 1500,
    price: 1200,
    settlementPrice: 1100,
    perOrderMax: 10,
  });
  const soon = dayAfter(1);
  const rows = (prefix: string, n: number, expiry: string) =>
    Array.from({ length: n }, (_, i) => `${prefix}${i},S${prefix}${i},${expiry}`);
  expect((await importFile(t, supplier.token, voucher.id, "v.csv", cardCsv(rows("TEA", 4, soon)))).body.code).toBe(1);
  expect(
    (await importFile(t, supplier.token, later.id, "l.csv", cardCsv(rows("CAKE", 1, dayAfter(30))))).body.code,
  ).toBe(1);
  expect((await importFile(t, supplier.token, secret.id, "s.csv", cardCsv(rows("MUS", 1, soon)))).body.code).toBe(1);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 100_000);
  const me = async (m: TestMerchant) =>
    (await t.call<Balances>("GET", "/api/card-user/userInfo", { token: m.token })).body.data.balances;
  const order = async (goodsId: number, quantity: number) => {
    const r = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goodsId), quantity, orderNo: `EX${Date.now()}${Math.random().toString(36).slice(2, 6)}` },
    });
    expect(r.body.code).toBe(1);
    return r.body.data.id;
  };
  const tea = await order(voucher.id, 4);
  await order(later.id, 1);
  await order(secret.id, 1);

  // One tea voucher is redeemed at a store, one is returned (the supplier accepts): two stay unused.
  const store = (
    await t.call<Store>("POST", "/api/card-brander/branderStores", {
      token: supplier.token,
      body: {
        name: "Expiry store",
        provinceCode: "440000",
        cityCode: "440300",
        countyCode: "440305",
        address: "3 Keji Road",
        openingHours: "10:00-22:00",
        contactPhone: "0755-88888888",
      },
    })
  ).body.data;
  const list = await t.call<{ list: { id: string }[] }>("GET", `/api/card-user/purchasedCards?orderId=${tea}`, {
    token: buyer.token,
  });
  const [first] = (
    await t.call<{ cardNumber: string; cardSecret: string }[]>("POST", "/api/card-user/purchasedCards/reveal", {
      token: buyer.token,
      body: { ids: list.body.data.list.map((c) => c.id) },
    })
  ).body.data;
  if (!first) throw new Error("no code");
  const redeemed = await t.call("POST", "/api/card-brander/writeOff/redeem", {
    token: supplier.token,
    body: {
      kind: "coupon",
      code: first.cardNumber,
      secret: first.cardSecret,
      storeId: store.id,
      requestKey: `expiry-${first.cardNumber}`,
    },
  });
  expect(redeemed.body.code).toBe(1);
  const returned = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
    token: buyer.token,
    body: { orderId: tea, quantity: 1, reason: "not needed" },
  });
  expect(
    (
      await t.call("PUT", `/api/card-brander/supplyRefunds/${returned.body.data.id}`, {
        token: supplier.token,
        body: { approve: true },
      })
    ).body.code,
  ).toBe(1);

  // Nothing has expired yet. (The job runs over the whole database, which on PostgreSQL earlier test files
  // share: what it did is checked on this test's own orders, never by its count.)
  const deps = voucherExpiryDeps(t);
  const refundsOf = async () =>
    (await t.call<Page<RefundOrder>>("GET", "/api/card-user/refunds", { token: buyer.token })).body.data.list;
  await refundExpiredVouchers(deps);
  expect((await refundsOf()).map((r) => r.cause)).toEqual(["request"]);
  const sup0 = (await me(buyer)).sup.amount;
  const income0 = (await me(supplier)).income.amount;

  // Two days on, the tea vouchers' expiry day has passed: two runs at once refund the two unused ones once.
  t.clock.advance(2 * 86_400);
  await relogin(buyer);
  await relogin(supplier);
  // (The app's own daily job, which looks every minute, may take them first: the same outcome.)
  await Promise.all([refundExpiredVouchers(deps), refundExpiredVouchers(deps)]);
  await refundExpiredVouchers(deps);

  const refunds = await refundsOf();
  const expiry = refunds.filter((r) => r.cause === "expiry");
  expect(expiry.map((r) => [r.orderId, r.quantity, r.amount.amount, r.state])).toEqual([[tea, 2, 3000, "success"]]);
  expect(refunds.filter((r) => r.cause === "request").map((r) => r.quantity)).toEqual([1]);
  // The supplier sees it too, with nothing to decide.
  const supplierSide = (
    await t.call<Page<RefundOrder>>("GET", "/api/card-brander/supplyRefunds", { token: supplier.token })
  ).body.data.list;
  expect(supplierSide.find((r) => r.cause === "expiry")?.state).toBe("success");

  // The money: back to the buyer's account that paid, out of the escrow; the brand's income is untouched,
  // and nothing waits for redemption any more but the cake voucher.
  expect((await me(buyer)).sup.amount).toBe(sup0 + 3000);
  expect((await me(supplier)).income.amount).toBe(income0);
  const account = (await t.call<WriteAccountReply>("GET", "/api/card-brander/accounts", { token: supplier.token })).body
    .data;
  expect(account.awaitingRedemption.amount).toBe(2500);

  // The codes: the two refunded ones are expired; the redeemed one stays sold; the card secret (paid to the
  // supplier at sale) and the cake voucher (not expired) are untouched.
  const db = t.ctx.database.db;
  const states = await db
    .selectFrom("supply_cards")
    .select(["goods_id", "state", "redeemed_at"])
    .where("goods_id", "in", [voucher.id, later.id, secret.id])
    .orderBy("goods_id")
    .orderBy("id")
    .execute();
  expect(states.map((c) => [c.goods_id, c.state, c.redeemed_at !== null])).toEqual([
    [voucher.id, "sold", true],
    [voucher.id, "void", false],
    [voucher.id, "expired", false],
    [voucher.id, "expired", false],
    [later.id, "sold", false],
    [secret.id, "sold", false],
  ]);
  // The ledger: one refund transaction for the expiry refund, and every invariant holds.
  const expiryTx = await db
    .selectFrom("ledger_transactions")
    .select("id")
    .where("subject_type", "=", "refund_order")
    .where("subject_id", "=", expiry[0]?.id ?? "-")
    .execute();
  expect(expiryTx).toHaveLength(1);
  expect(await checkInvariants(db)).toEqual([]);
});

it("an order with a refund still open is left until the supplier decides, then refunded", async () => {
  const supplier = await newMerchant(t, "Open Refund Brand");
  const b = await newBrand(t, supplier, "OpenRefund");
  const voucher = await newGoods(t, supplier, b.id, {
    name: "Juice voucher",
    businessType: "card_voucher",
    faceValue: 1000,
    price: 800,
    settlementPrice: 700,
    perOrderMax: 10,
  });
  expect(
    (
      await importFile(
        t,
        supplier.token,
        voucher.id,
        "v.csv",
        cardCsv([`JUICE1,SJ1,${dayAfter(1)}`, `JUICE2,SJ2,${dayAfter(1)}`]),
      )
    ).body.code,
  ).toBe(1);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 10_000);
  const placed = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(voucher.id), quantity: 2, orderNo: `OR${Date.now()}` },
  });
  expect(placed.body.code).toBe(1);
  const asked = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
    token: buyer.token,
    body: { orderId: placed.body.data.id, quantity: 1, reason: "changed my mind" },
  });
  expect(asked.body.code).toBe(1);

  t.clock.advance(2 * 86_400);
  await relogin(buyer);
  await relogin(supplier);
  const deps = voucherExpiryDeps(t);
  await refundExpiredVouchers(deps);
  const byCause = async () =>
    (await t.call<Page<RefundOrder>>("GET", "/api/card-user/refunds", { token: buyer.token })).body.data.list.map(
      (r) => [r.cause, r.quantity, r.state],
    );
  expect(await byCause()).toEqual([["request", 1, "processing"]]);

  // The supplier refuses the return: the next run refunds both expired codes.
  expect(
    (
      await t.call("PUT", `/api/card-brander/supplyRefunds/${asked.body.data.id}`, {
        token: supplier.token,
        body: { approve: false, reason: "used" },
      })
    ).body.code,
  ).toBe(1);
  await refundExpiredVouchers(deps);
  expect(await byCause()).toEqual(
    expect.arrayContaining([
      ["expiry", 2, "success"],
      ["request", 1, "failure"],
    ]),
  );
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
