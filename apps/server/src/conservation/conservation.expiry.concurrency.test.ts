import { expect, it } from "vitest";
import { voucherExpiryDeps } from "../../test/kit/mall-fixtures";
import { useTestApp } from "../../test/kit/use-test-app";
import { refundExpiredVouchers } from "../modules/purchasing";
import { baseline, invariantViolations, wholeDatabaseViolations } from "./invariants";
import { perform } from "./operations";
import { CONSERVATION_ENV } from "./run";
import { buildWorld, uniq } from "./world";

/**
 * The voucher-expiry job pays back the mall customers of codes that expired unused (issue 37) in the
 * transaction that refunds the purchaser, locking the mall order after the purchase order; the mall's refund
 * locks them the other way round. Raced on PostgreSQL: nothing deadlocks or fails, and every customer is paid
 * back exactly once, by the refund or by the job (a job that met a refund in progress leaves the order to a
 * later run).
 */
const t = useTestApp(CONSERVATION_ENV);

it("the expiry job racing the mall's refunds of the same expired vouchers: each customer paid back once, no deadlock", async () => {
  for (let round = 0; round < 3; round++) {
    const w = await buildWorld(t);
    const db = t.ctx.database.db;
    const b = await baseline(db);
    const owner = w.purchasers[0];
    if (!owner) throw new Error("no mall");
    // 13 orders of one voucher each: the codes go out in import order, every fourth expiring in two days.
    for (let i = 0; i < 13; i++) {
      expect(await perform(w, { op: "mallBuy", who: i % 2, item: "voucher", quantity: 1 })).toBe("mallBuy:done");
    }
    t.clock.advance(4 * 86_400);
    // The refunds newest first, so the jobs (oldest order first) and the refunds meet in the middle.
    const refunds = [...w.made.mallOrders].reverse().map((id) =>
      t.call("POST", `/api/card-user/mall/orders/${id}/refund`, {
        token: owner.token,
        body: { reason: "Customer asked", requestKey: uniq("MR") },
      }),
    );
    const jobs = [0, 1, 2].map(() => refundExpiredVouchers(voucherExpiryDeps(t)));
    const [answers] = await Promise.all([Promise.all(refunds), Promise.all(jobs)]);
    for (const r of answers) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
    // What a job left to a later run is refunded now.
    await refundExpiredVouchers(voucherExpiryDeps(t));
    const orders = await db
      .selectFrom("mall_orders as o")
      .innerJoin("payments as p", "p.payment_no", "o.order_no")
      .select(["o.id", "o.state", "o.amount", "o.refunded", "p.refunded as paidBack"])
      .where("o.id", "in", w.made.mallOrders.map(Number))
      .execute();
    expect(orders).toHaveLength(13);
    for (const o of orders) {
      // Every order went back whole (a merchant's refund, or its one expired voucher), through the seam once.
      expect([o.state, Number(o.refunded), Number(o.paidBack)], `order ${o.id}`).toEqual([
        "refunded",
        Number(o.amount),
        Number(o.amount),
      ]);
    }
    expect(await invariantViolations(w, b)).toEqual([]);
  }
  expect(await wholeDatabaseViolations(t.ctx.database.db)).toEqual([]);
});
