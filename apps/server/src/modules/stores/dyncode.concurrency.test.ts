import type { DynamicCodeReply, Redemption } from "@tessera/contracts";
import { expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { checkInvariants } from "../ledger";
import { invariantProblems } from "../onecard";
import { cardInBagOf, clerkOf, cust, storeOf } from "../../../test/kit/redeem-fixtures";

/** On the PostgreSQL server only: clerks racing for one customer's dynamic code. */
const t = useTestApp();

it("the same dynamic code redeemed by 10 clerks at once: one redemption, the balance right, ledger invariants hold", async () => {
  const { brand, cardId, customer } = await cardInBagOf(t, "Race Dyn Brand", "13800138201");
  const n = 10;
  const clerks: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await storeOf(t, brand, `Race dyn store ${i}`);
    clerks.push(await clerkOf(t, brand, s.id));
  }
  const code = (
    await t.call<DynamicCodeReply>("POST", `/api/mall/onecard/cards/${cardId}/dynamicCode`, { headers: cust(customer) })
  ).body.data.code;
  const results = await Promise.all(
    clerks.map((token, i) =>
      t.call<Redemption>("POST", "/api/card-brander/writeOff/redeem", {
        token,
        body: { kind: "dynamic", code, amount: 1_500, requestKey: `race-dyn-${i}-${Date.now()}` },
        lang: "en",
      }),
    ),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.filter((r) => r.body.code !== 1).map((r) => r.body.msg)).toEqual(
    Array.from({ length: n - 1 }, () => "This dynamic code has already been used"),
  );

  const bag = await t.call<{ cards: { id: string; balance: { amount: number } }[] }>("GET", "/api/mall/onecard/bag", {
    headers: cust(customer),
  });
  expect(bag.body.data.cards.find((c) => c.id === cardId)?.balance.amount).toBe(8_500);
  const db = t.ctx.database.db;
  const redemptions = await db
    .selectFrom("store_redemptions")
    .select(["value"])
    .where("brander_id", "=", Number(brand.merchantId))
    .execute();
  expect(redemptions.map((r) => Number(r.value))).toEqual([1_500]);
  const moves = await db
    .selectFrom("onecard_moves")
    .select(["amount"])
    .where("card_id", "=", Number(cardId))
    .where("kind", "=", "redeem")
    .execute();
  expect(moves.map((m) => Number(m.amount))).toEqual([-1_500]);
  expect(await checkInvariants(db)).toEqual([]);
  expect(await invariantProblems(db)).toEqual([]);
});
