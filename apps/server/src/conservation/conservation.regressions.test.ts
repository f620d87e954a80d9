import { expect, it } from "vitest";
import { useTestApp } from "../../test/kit/use-test-app";
import { baseline, invariantViolations, wholeDatabaseViolations } from "./invariants";
import { perform, type Op } from "./operations";
import { CONSERVATION_ENV } from "./run";
import { buildWorld } from "./world";

/**
 * Sequences the conservation runs found, shrunk to what matters, kept as ordinary tests (issue 37, point 8).
 */
const t = useTestApp(CONSERVATION_ENV);

async function replay(ops: Op[]): Promise<string[]> {
  const w = await buildWorld(t);
  const b = await baseline(t.ctx.database.db);
  const outcomes: string[] = [];
  for (const op of ops) {
    outcomes.push(await perform(w, op));
    expect(await invariantViolations(w, b), JSON.stringify(op)).toEqual([]);
  }
  expect(await wholeDatabaseViolations(t.ctx.database.db)).toEqual([]);
  return outcomes;
}

it("a purchaser cannot return to the supplier a code its mall delivered to a customer: the refund is refused and the customer keeps a live code", async () => {
  // Found by a run: the purchaser bought a card secret, its mall delivered that code (from its stock) to a
  // customer, then the purchaser asked to refund the purchase order and the supplier approved. The refund
  // voided the code the customer held in a live mall order and paid the purchaser back, who also kept the
  // customer's payment ("codes: code … delivered in live mall order … but void").
  const outcomes = await replay([
    { op: "purchase", who: 0, goods: "secret", quantity: 1 },
    { op: "mallBuy", who: 0, item: "secret", quantity: 1 },
    { op: "purchaseRefund", pick: 0, quantity: 1, approve: true },
    { op: "redeem", pick: 0 },
  ]);
  expect(outcomes).toEqual(["purchase:done", "mallBuy:done", "purchaseRefund:refused", "redeem:done"]);
});

it("a payer-page refund of the cent that completes a fee cent takes nothing from the income instead of failing", async () => {
  // Found by a run: refunds of a payment give back the fee's share of everything refunded so far, rounded;
  // a 1-cent refund that crosses a rounding step gives back that cent of fee whole, so the merchant's
  // income pays 0, and the zero posting made the refund a 500 ("posting amount must be a non-zero integer").
  const w = await buildWorld(t);
  const db = t.ctx.database.db;
  const b = await baseline(db);
  const step = async (op: Op) => {
    const outcome = await perform(w, op);
    expect(await invariantViolations(w, b), JSON.stringify(op)).toEqual([]);
    return outcome;
  };
  expect(await step({ op: "collect", amount: 10_000 })).toBe("collect:done");
  const paid = await db
    .selectFrom("pay_orders")
    .select(["amount", "fee"])
    .where("id", "=", Number(w.made.payOrders[0]))
    .executeTakeFirstOrThrow();
  const [amount, fee] = [Number(paid.amount), Number(paid.fee)];
  expect(fee).toBeGreaterThan(0);
  // The most that gives no fee back (its share rounds to 0), then the cent whose share rounds to 1.
  const below = Math.ceil(amount / (2 * fee)) - 1;
  expect(await step({ op: "collectRefund", pick: 0, amount: below })).toBe("collectRefund:done.SUCCESS");
  expect(await step({ op: "collectRefund", pick: 0, amount: 1 })).toBe("collectRefund:done.SUCCESS");
  const after = await db
    .selectFrom("pay_orders")
    .select(["refunded", "fee_refunded"])
    .where("id", "=", Number(w.made.payOrders[0]))
    .executeTakeFirstOrThrow();
  expect([Number(after.refunded), Number(after.fee_refunded)]).toEqual([below + 1, 1]);
  expect(await wholeDatabaseViolations(db)).toEqual([]);
});

it("a store voucher a mall customer bought that expires unused pays the customer back what it cost, once", async () => {
  // Issue 37: the daily job refunded the purchaser the voucher's price out of the escrow, but the mall
  // customer who paid the purchaser for it got nothing back. Now the same transaction pays the customer.
  const w = await buildWorld(t);
  const db = t.ctx.database.db;
  const b = await baseline(db);
  const owner = Number(w.purchasers[0]?.merchantId);
  const step = async (op: Op) => {
    const outcome = await perform(w, op);
    expect(await invariantViolations(w, b), JSON.stringify(op)).toEqual([]);
    return outcome;
  };
  const sandboxIncome = async () =>
    Number(
      (
        await db
          .selectFrom("ledger_accounts")
          .select("balance")
          .where("merchant_id", "=", owner)
          .where("kind", "=", "sandbox_income")
          .executeTakeFirst()
      )?.balance ?? 0,
    );
  // The mall buys the voucher for its customer: the first code of the import, which expires in two days.
  expect(await step({ op: "mallBuy", who: 0, item: "voucher", quantity: 1 })).toBe("mallBuy:done");
  const orderId = Number(w.made.mallOrders[0]);
  const delivered = await db
    .selectFrom("mall_deliveries as d")
    .innerJoin("supply_cards as c", "c.id", "d.card_id")
    .select(["c.id", "c.expires_on", "d.price"])
    .where("d.order_id", "=", orderId)
    .executeTakeFirstOrThrow();
  expect(delivered.expires_on).not.toBeNull();
  expect(Number(delivered.price)).toBe(2490);
  const income = await sandboxIncome();
  const sup = (
    await db
      .selectFrom("ledger_accounts")
      .select("balance")
      .where("merchant_id", "=", owner)
      .where("kind", "=", "sup")
      .executeTakeFirstOrThrow()
  ).balance;
  for (let day = 0; day < 4; day++) expect(await step({ op: "daily" })).toBe("daily:done");

  const o = await db
    .selectFrom("mall_orders")
    .select(["state", "refunded", "amount", "order_no"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  expect([o.state, Number(o.refunded)]).toEqual(["refunded", 2490]);
  // The customer's payment went back through the payments seam; the mall's sandbox income paid it.
  const payment = await db
    .selectFrom("payments")
    .select(["amount", "refunded"])
    .where("payment_no", "=", o.order_no)
    .executeTakeFirstOrThrow();
  expect(Number(payment.refunded)).toBe(Number(payment.amount));
  expect(await sandboxIncome()).toBe(income - 2490);
  // The purchaser got the voucher's price back from the escrow, as before.
  const back = await db
    .selectFrom("refund_orders")
    .select(["amount", "cause"])
    .where("purchaser_merchant_id", "=", owner)
    .execute();
  expect(back.map((r) => r.cause)).toEqual(["expiry"]);
  const supAfter = (
    await db
      .selectFrom("ledger_accounts")
      .select("balance")
      .where("merchant_id", "=", owner)
      .where("kind", "=", "sup")
      .executeTakeFirstOrThrow()
  ).balance;
  expect(Number(supAfter) - Number(sup)).toBe(Number(back[0]?.amount));
  // Once: more days change nothing, and the merchant cannot refund the order again.
  const fingerprintNow = await db
    .selectFrom("ledger_transactions")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  expect(await step({ op: "daily" })).toBe("daily:done");
  expect(await step({ op: "mallRefund", pick: 0 })).toBe("mallRefund:refused");
  expect(
    await db
      .selectFrom("ledger_transactions")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst(),
  ).toEqual(fingerprintNow);
  expect(await wholeDatabaseViolations(db)).toEqual([]);
});
