import type { MallOrder } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { checkInvariants } from "../ledger";
import { key, login, newShop, stockMall } from "../../../test/kit/mall-fixtures";

/** On the PostgreSQL server only: checkouts racing for the merchant's own codes and for smart purchases. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

it("parallel checkouts sell each code once, pay once per request key, and the ledger sums to zero", async () => {
  const shop = await newShop(t, { codes: 30 });
  const ids = await stockMall(t, shop);
  // Some own stock (4 codes the purchaser bought), the rest bought for the orders as they come.
  const own = await t.call("POST", "/api/card-user/orders", {
    token: shop.purchaser.token,
    body: { goodsId: String(shop.cardGoodsId), quantity: 4, orderNo: `OWN${Date.now()}` },
  });
  expect(own.body.code).toBe(1);
  const customers = await Promise.all(Array.from({ length: 6 }, () => login(t, shop)));
  const requests = customers.flatMap((c) => {
    const requestKey = key();
    const body = { lines: [{ kind: "goods", id: ids.cardSelf, quantity: 2 }], payMethod: "wallet", requestKey };
    // Each customer sends the same checkout twice at once: one order.
    return [0, 1].map(() => t.call<MallOrder>("POST", "/api/mall/shop/checkout", { headers: c.headers, body }));
  });
  const results = await Promise.all(requests);
  const orders = results.filter((r) => r.body.code === 1).map((r) => r.body.data);
  const distinct = new Map(orders.map((o) => [o.id, o]));
  expect(distinct.size).toBe(6);
  const codes = [...distinct.values()].flatMap((o) => o.deliveries.map((d) => d.cardNumber));
  expect(codes).toHaveLength(12);
  expect(new Set(codes).size).toBe(12);
  const db = t.ctx.database.db;
  const rows = await db
    .selectFrom("mall_deliveries")
    .select("card_id")
    .where("order_id", "in", [...distinct.keys()].map(Number))
    .execute();
  expect(new Set(rows.map((r) => r.card_id)).size).toBe(12);
  const pays = await db
    .selectFrom("ledger_transactions")
    .select("id")
    .where("idempotency_key", "like", "mall:pay:%")
    .where(
      "idempotency_key",
      "in",
      [...distinct.keys()].map((id) => `mall:pay:${id}`),
    )
    .execute();
  expect(pays).toHaveLength(6);
});

/**
 * Issue 43 (the mall bench's validity check found it): smart purchases racing with a little own stock. Every
 * checkout counts the one code in stock; most find it taken and buy their own, and before holds those codes
 * were taken by the next checkouts in turn, until customers were refused "sold out" while the supplier had
 * plenty. Now a checkout's purchase is its own until it hands the codes on: every checkout succeeds.
 */
it("smart purchases racing for one code in stock all succeed: a checkout's purchase is its own", async () => {
  const shop = await newShop(t, { codes: 200 });
  const ids = await stockMall(t, shop);
  const own = await t.call("POST", "/api/card-user/orders", {
    token: shop.purchaser.token,
    body: { goodsId: String(shop.cardGoodsId), quantity: 1, orderNo: `ONE${Date.now()}` },
  });
  expect(own.body.code).toBe(1);
  const customers = await Promise.all(Array.from({ length: 12 }, () => login(t, shop)));
  for (let round = 0; round < 3; round++) {
    const results = await Promise.all(
      customers.map((c) =>
        t.call<MallOrder>("POST", "/api/mall/shop/checkout", {
          headers: c.headers,
          body: { lines: [{ kind: "goods", id: ids.cardSelf, quantity: 1 }], payMethod: "wallet", requestKey: key() },
        }),
      ),
    );
    expect(results.map((r) => r.body.msg).filter((msg) => msg !== "success")).toEqual([]);
  }
  // Every hold let go once its checkout ended.
  const holds = await t.ctx.database.db.selectFrom("mall_smart_buys").select("hold_key").execute();
  expect(holds).toEqual([]);
});
