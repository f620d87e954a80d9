import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { cardCsv } from "../../../test/kit/cards";

/** On the PostgreSQL server only: many purchasers racing for the same codes. */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const csv = (n: number, prefix: string) => cardCsv(n, (i) => `${prefix}${String(i).padStart(6, "0")},S${i},`);

it("200 parallel purchases by 20 purchasers of 100 codes: exactly 100 sold, none twice, no money for the rest", async () => {
  const supplier = await newMerchant(t, "Race Cards Co");
  const brand = await newBrand(t, supplier, "Race");
  const goods = await newGoods(t, supplier, brand.id, {
    name: "Race card",
    price: 1_000,
    settlementPrice: 900,
    perOrderMax: 10,
  });
  await importFile(t, supplier.token, goods.id, "cards.csv", csv(100, "RACE"));
  const buyers: { token: string; merchantId: string }[] = [];
  for (let i = 0; i < 20; i++) {
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 100_000);
    buyers.push(buyer);
  }
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const buyer = buyers[i % buyers.length];
      if (!buyer) throw new Error("no buyer");
      return t.call("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 1, orderNo: `RACE-${buyer.merchantId}-${i}` },
      });
    }),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(100);
  const sold = await sql<{ n: string; distinct_orders: string }>`
    SELECT count(*)::text AS n, count(DISTINCT order_id)::text AS distinct_orders FROM supply_cards WHERE goods_id = ${goods.id} AND state = 'sold'`.execute(
    t.ctx.database.db,
  );
  expect(sold.rows[0]).toEqual({ n: "100", distinct_orders: "100" });
  let spent = 0;
  for (const b of buyers) {
    const info = await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: b.token,
    });
    spent += 100_000 - info.body.data.balances.sup.amount;
  }
  expect(spent).toBe(100 * 1_000);
  const stock = await t.call<{ stock: number }>("GET", `/api/card-brander/product/${goods.id}`, {
    token: supplier.token,
  });
  expect(stock.body.data.stock).toBe(0);
});

it("the same order number sent 20 times at once makes one order", async () => {
  const supplier = await newMerchant(t, "Once Cards Co");
  const brand = await newBrand(t, supplier, "Once");
  const goods = await newGoods(t, supplier, brand.id, { name: "Once card", price: 500, settlementPrice: 450 });
  await importFile(t, supplier.token, goods.id, "cards.csv", csv(30, "ONCE"));
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 10_000);
  const body = { goodsId: String(goods.id), quantity: 2, orderNo: `ONCE-${buyer.merchantId}` };
  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      t.call<{ id: string }>("POST", "/api/card-user/orders", { token: buyer.token, body }),
    ),
  );
  expect(results.every((r) => r.body.code === 1)).toBe(true);
  expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
  const info = await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", {
    token: buyer.token,
  });
  expect(info.body.data.balances.sup.amount).toBe(9_000);
});
