import type { MallOrder, Redemption } from "@tessera/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { importFile, newGoods } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { clerkOf, storeOf } from "../../../test/kit/redeem-fixtures";
import { key, login, newShop, type Shop } from "../../../test/kit/mall-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/**
 * On the PostgreSQL server only (issue 37): a mall voucher's refund racing store redemptions of the same
 * code. Exactly one wins: either the code is served and the refund refused, or the refund voids the code
 * (and returns its escrowed price to the merchant) and every redemption is refused.
 */
const t = useTestApp();
let shop: Shop;
let voucherSelf: string;
let goodsId: number;
const clerks: string[] = [];
beforeAll(async () => {
  shop = await newShop(t, { codes: 1 });
  // Store vouchers of the shop's supplier: paid into the order escrow until a store redeems them.
  const goods = await newGoods(t, shop.supplier, shop.brand.id, {
    name: "Race coffee voucher",
    businessType: "card_voucher",
    faceValue: 3000,
    price: 2500,
    settlementPrice: 2000,
    perOrderMax: 50,
  });
  goodsId = goods.id;
  const csv = cardCsv(12, (i) => `MVR${Date.now().toString(36).toUpperCase()}${String(i).padStart(3, "0")},MVS-${i},`);
  expect((await importFile(t, shop.supplier.token, goods.id, "vouchers.csv", csv)).body.code).toBe(1);
  const self = await t.call<{ id: string }>("POST", "/api/card-user/mall/selfGoods", {
    token: shop.purchaser.token,
    body: { goodsId: String(goods.id), price: 2990 },
  });
  expect(self.body.code).toBe(1);
  voucherSelf = self.body.data.id;
  const sms = await t.call("POST", "/api/card-user/mall/sms/packages", {
    token: shop.purchaser.token,
    body: { code: "sms1000", requestKey: key() },
  });
  expect(sms.body.code).toBe(1);
  for (let i = 0; i < 4; i++) {
    clerks.push(await clerkOf(t, shop.supplier, (await storeOf(t, shop.supplier, `Race voucher store ${i}`)).id));
  }
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const db = () => t.ctx.database.db;
const sup = async () =>
  (
    await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: shop.purchaser.token,
    })
  ).body.data.balances.sup.amount;

/** A customer buys one voucher in the mall (smart purchase from the supplier, escrowed); returns the order and its code. */
async function boughtVoucher(): Promise<{ order: MallOrder; number: string; secret: string; cardId: number }> {
  const c = await login(t, shop);
  const paid = await t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
    headers: c.headers,
    body: { lines: [{ kind: "goods", id: voucherSelf, quantity: 1 }], payMethod: "wallet", requestKey: key() },
  });
  expect(paid.body.code).toBe(1);
  const d = paid.body.data.deliveries[0];
  if (!d?.cardSecret || !d.cardNumber) throw new Error("no voucher delivered");
  const row = await db()
    .selectFrom("mall_deliveries")
    .select("card_id")
    .where("order_id", "=", Number(paid.body.data.id))
    .executeTakeFirstOrThrow();
  return { order: paid.body.data, number: d.cardNumber, secret: d.cardSecret, cardId: Number(row.card_id) };
}

async function race(refunds: number, redemptions: number) {
  const v = await boughtVoucher();
  const supBefore = await sup();
  const card = await db()
    .selectFrom("supply_cards")
    .select(["order_id"])
    .where("id", "=", v.cardId)
    .executeTakeFirstOrThrow();
  const purchaseOrder = await db()
    .selectFrom("purchase_orders")
    .select(["id", "held_until_redeemed", "unit_price"])
    .where("id", "=", Number(card.order_id))
    .executeTakeFirstOrThrow();
  expect(purchaseOrder.held_until_redeemed).toBe(true);
  const calls = [
    ...Array.from({ length: refunds }, (_, i) => ({ kind: "refund" as const, i })),
    ...Array.from({ length: redemptions }, (_, i) => ({ kind: "redeem" as const, i })),
  ].sort((a, b) => (a.i % 2) - (b.i % 2) || a.i - b.i);
  const results = await Promise.all(
    calls.map(async (c) => ({
      kind: c.kind,
      res:
        c.kind === "refund"
          ? await t.call<MallOrder>("POST", `/api/card-user/mall/orders/${v.order.id}/refund`, {
              token: shop.purchaser.token,
              body: { reason: "Customer asked", requestKey: `race-refund-${v.order.id}-${c.i}` },
              lang: "en",
            })
          : await t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
              token: clerks[c.i % clerks.length] ?? "",
              body: { kind: "coupon", code: v.number, secret: v.secret, requestKey: key() },
              lang: "en",
            }),
    })),
  );
  expect(results.every((r) => r.res.status < 500)).toBe(true);
  const refunded = results.filter((r) => r.kind === "refund" && r.res.body.code === 1);
  const redeemed = results.filter((r) => r.kind === "redeem" && r.res.body.code === 1);
  // Exactly one side won, and once.
  expect([refunded.length, redeemed.length].sort()).toEqual([0, 1]);

  const code = await db()
    .selectFrom("supply_cards")
    .select(["state", "redeemed_at"])
    .where("id", "=", v.cardId)
    .executeTakeFirstOrThrow();
  const order = await db()
    .selectFrom("mall_orders")
    .select("state")
    .where("id", "=", Number(v.order.id))
    .executeTakeFirstOrThrow();
  const served = await db()
    .selectFrom("store_redemptions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("source", "=", "coupon")
    .where("source_id", "=", v.cardId)
    .executeTakeFirstOrThrow();
  const refundRows = await db()
    .selectFrom("refund_orders")
    .select(["amount", "state", "quantity"])
    .where("order_id", "=", purchaseOrder.id)
    .execute();
  if (refunded.length === 1) {
    // The refund won: the code is void and never served; its escrowed price went back to the merchant once.
    expect(code).toMatchObject({ state: "void", redeemed_at: null });
    expect(order.state).toBe("refunded");
    expect(results.filter((r) => r.kind === "redeem").map((r) => r.res.body.msg)).toEqual(
      Array.from({ length: redemptions }, () => "This code has been voided"),
    );
    expect(refundRows.map((r) => [Number(r.amount), r.state, r.quantity])).toEqual([
      [purchaseOrder.unit_price, "success", 1],
    ]);
    expect((await sup()) - supBefore).toBe(purchaseOrder.unit_price);
  } else {
    // A redemption won: the code was served, the order stays paid and the refund was refused.
    expect(code.state).toBe("sold");
    expect(code.redeemed_at).not.toBeNull();
    expect(order.state).toBe("delivered");
    expect(results.filter((r) => r.kind === "refund").map((r) => r.res.body.msg)).toEqual(
      Array.from({ length: refunds }, () => "A code of this order has already been redeemed, so it cannot be refunded"),
    );
    expect(results.filter((r) => r.kind === "redeem" && r.res.body.code !== 1).map((r) => r.res.body.msg)).toEqual(
      Array.from({ length: redemptions - 1 }, () => "This code has already been redeemed"),
    );
    expect(refundRows).toEqual([]);
    expect(await sup()).toBe(supBefore);
  }
  expect(Number(served.n)).toBe(redeemed.length);
  return refunded.length === 1 ? "refund" : "redeem";
}

it("one refund against 19 redemption attempts of the same mall voucher, five times: exactly one wins each time", async () => {
  for (let round = 0; round < 5; round++) await race(1, 19);
});

it("10 refunds and 10 redemptions of the same mall voucher at once, five times: exactly one side wins each time", async () => {
  for (let round = 0; round < 5; round++) await race(10, 10);
});

it("a refund after a redemption is refused; a redemption after a refund is refused; the code stays void", async () => {
  const served = await boughtVoucher();
  expect(
    (
      await t.call("POST", "/api/card-brander/writeOff/redeem", {
        token: clerks[0] ?? "",
        body: { kind: "coupon", code: served.number, secret: served.secret, requestKey: key() },
      })
    ).body.code,
  ).toBe(1);
  const refused = await t.call("POST", `/api/card-user/mall/orders/${served.order.id}/refund`, {
    token: shop.purchaser.token,
    body: { reason: "Too late" },
    lang: "cn",
  });
  expect([refused.status, refused.body.msg]).toEqual([409, "订单中的券码已核销，不能退款"]);

  const back = await boughtVoucher();
  const ok = await t.call<MallOrder>("POST", `/api/card-user/mall/orders/${back.order.id}/refund`, {
    token: shop.purchaser.token,
    body: { reason: "Changed mind" },
  });
  expect(ok.body.data.state).toBe("refunded");
  const late = await t.call("POST", "/api/card-brander/writeOff/redeem", {
    token: clerks[1] ?? "",
    body: { kind: "coupon", code: back.number, secret: back.secret, requestKey: key() },
    lang: "tw",
  });
  expect([late.status, late.body.msg]).toEqual([409, "該券碼已作廢"]);
  // The voided code left the goods' sold count for the voided one, in the refund's transaction.
  const counted = await db()
    .selectFrom("supply_cards")
    .select(["state"])
    .where("goods_id", "=", goodsId)
    .where("id", "=", back.cardId)
    .executeTakeFirstOrThrow();
  expect(counted.state).toBe("void");
});
