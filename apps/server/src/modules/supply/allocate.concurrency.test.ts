import { expect, it } from "vitest";
import { withTx } from "../../db/tx";
import { useTestApp } from "../../../test/kit/use-test-app";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { allocateCards } from "./allocate";

/** Runs on the PostgreSQL server only: PGlite runs one transaction at a time, so races cannot happen there. */
const t = useTestApp();

it("50 parallel allocations: each code goes to exactly one order, stock stays exact, the losers take nothing", async () => {
  const supplier = await newMerchant(t, "Race Supplier");
  const buyer = await newMerchant(t, "Race Buyer");
  const brand = await newBrand(t, supplier, "Race Brand");
  const goods = await newGoods(t, supplier, brand.id, { perOrderMax: 10 });
  const rows = [
    "cardNumber,cardSecret,expiryDate",
    ...Array.from({ length: 120 }, (_, i) => `RACE-${String(i).padStart(4, "0")},S${i},`),
  ].join("\n");
  expect((await importFile(t, supplier.token, goods.id, "race.csv", rows)).body.data.imported).toBe(120);

  const db = t.ctx.database.db;
  // 50 orders of 3 codes each = 150 asked for 120 in stock: 40 orders succeed, 10 find too few.
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, (_, i) =>
      withTx(db, (tx) =>
        allocateCards(
          tx,
          { goodsId: goods.id, quantity: 3, orderId: `RACE-ORDER-${i}`, buyerMerchantId: Number(buyer.merchantId) },
          new Date(),
        ),
      ),
    ),
  );
  const won = results.filter((r) => r.status === "fulfilled");
  const lost = results.filter((r) => r.status === "rejected");
  expect(won).toHaveLength(40);
  for (const r of lost) expect((r.reason as { messageKey?: string }).messageKey).toBe("supply.outOfStock");

  const allIds = won.flatMap((r) => r.value.cardIds);
  expect(new Set(allIds).size).toBe(120);
  const sold = await db
    .selectFrom("supply_cards")
    .select(["id", "order_id", "state"])
    .where("goods_id", "=", goods.id)
    .execute();
  expect(sold.every((c) => c.state === "sold" && c.order_id !== null)).toBe(true);
  // Each order holds exactly the codes its allocation returned.
  const byOrder = new Map<string, number[]>();
  for (const c of sold) byOrder.set(c.order_id ?? "", [...(byOrder.get(c.order_id ?? "") ?? []), c.id]);
  expect(byOrder.size).toBe(40);
  for (const ids of byOrder.values()) expect(ids).toHaveLength(3);
  const g = await db
    .selectFrom("catalog_goods")
    .select(["stock", "sold"])
    .where("id", "=", goods.id)
    .executeTakeFirstOrThrow();
  expect(g).toEqual({ stock: 0, sold: 120 });
});

it("allocations racing an import and voids keep the stock counter equal to the available codes", async () => {
  const supplier = await newMerchant(t, "Mixed Supplier");
  const buyer = await newMerchant(t, "Mixed Buyer");
  const brand = await newBrand(t, supplier, "Mixed Brand");
  const goods = await newGoods(t, supplier, brand.id, { perOrderMax: 10 });
  const csv = (from: number, n: number) =>
    ["cardNumber,cardSecret,expiryDate", ...Array.from({ length: n }, (_, i) => `MIX-${from + i},S,`)].join("\n");
  await importFile(t, supplier.token, goods.id, "a.csv", csv(0, 60));
  const db = t.ctx.database.db;
  const ids = (
    await db
      .selectFrom("supply_cards")
      .select("id")
      .where("goods_id", "=", goods.id)
      .orderBy("id", "desc")
      .limit(10)
      .execute()
  ).map((r) => r.id);
  await Promise.allSettled([
    ...Array.from({ length: 20 }, (_, i) =>
      withTx(db, (tx) =>
        allocateCards(
          tx,
          { goodsId: goods.id, quantity: 2, orderId: `MIX-${i}`, buyerMerchantId: Number(buyer.merchantId) },
          new Date(),
        ),
      ),
    ),
    importFile(t, supplier.token, goods.id, "b.csv", csv(1000, 30)),
    t.call("POST", `/api/card-brander/sup/merchandises/${goods.id}/cards/void`, {
      token: supplier.token,
      body: { ids },
    }),
  ]);
  const counted = await db
    .selectFrom("supply_cards")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("goods_id", "=", goods.id)
    .where("state", "=", "available")
    .executeTakeFirstOrThrow();
  const soldCount = await db
    .selectFrom("supply_cards")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("goods_id", "=", goods.id)
    .where("state", "=", "sold")
    .executeTakeFirstOrThrow();
  const g = await db
    .selectFrom("catalog_goods")
    .select(["stock", "sold"])
    .where("id", "=", goods.id)
    .executeTakeFirstOrThrow();
  expect(g.stock).toBe(Number(counted.n));
  expect(g.sold).toBe(Number(soldCount.n));
});
