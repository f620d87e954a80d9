import type { Page, RefundOrder } from "@tessera/contracts";
import { expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { platformDay } from "../../platform/clock";
import { importFile, newBrand, newGoods, newMerchant } from "../../../test/kit/catalog-fixtures";
import { checkInvariants } from "../ledger";
import { refundExpiredVouchers } from "./voucher-expiry";
import { voucherExpiryDeps } from "../../../test/kit/mall-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/** On the PostgreSQL server only: expiry refund runs racing each other and the purchaser's own refund requests. */
const t = useTestApp();

it("four expiry runs at once beside 20 refund requests over 20 orders: every expired code is refunded once, never beyond what was paid", async () => {
  const supplier = await newMerchant(t, "Expiry Race Brand");
  const b = await newBrand(t, supplier, "ExpiryRace");
  const goods = await newGoods(t, supplier, b.id, {
    name: "Race tea voucher",
    businessType: "card_voucher",
    faceValue: 1000,
    price: 900,
    settlementPrice: 800,
    perOrderMax: 10,
  });
  const expiry = platformDay(new Date(t.clock.now().getTime() + 86_400_000));
  const n = 20;
  const csv = cardCsv(n * 3, (i) => `XR${String(i).padStart(4, "0")},K${i},${expiry}`);
  expect((await importFile(t, supplier.token, goods.id, "race.csv", csv)).body.code).toBe(1);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 1_000_000);
  const orders: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.call<{ id: string }>("POST", "/api/card-user/orders", {
      token: buyer.token,
      body: { goodsId: String(goods.id), quantity: 3, orderNo: `XR${Date.now()}${i}` },
    });
    expect(r.body.code).toBe(1);
    orders.push(r.body.data.id);
  }

  t.clock.advance(2 * 86_400);
  buyer.token = (
    await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: buyer.email, password: STRONG_PASSWORD },
    })
  ).body.data.token;
  const deps = voucherExpiryDeps(t);
  const [requests] = await Promise.all([
    Promise.all(
      orders.map((orderId) =>
        t.call("POST", "/api/card-user/refunds", {
          token: buyer.token,
          body: { orderId, quantity: 3, reason: "race" },
        }),
      ),
    ),
    ...[0, 1, 2, 3].map(() => refundExpiredVouchers(deps)),
  ]);
  expect(requests.every((r) => r.status < 500)).toBe(true);

  // Per order: either the purchaser's request came first (it waits for the supplier, the codes untouched)
  // or the expiry refund did (all three codes, and the request is refused as too many).
  const refunds = (
    await t.call<Page<RefundOrder>>("GET", "/api/card-user/refunds?pageSize=100", { token: buyer.token })
  ).body.data.list;
  for (const orderId of orders) {
    const mine = refunds.filter((r) => r.orderId === orderId).map((r) => [r.cause, r.quantity, r.state]);
    expect([[["request", 3, "processing"]], [["expiry", 3, "success"]]]).toContainEqual(mine);
  }
  const refunded = refunds.filter((r) => r.cause === "expiry");
  // Each expiry refund moved money once and expired its three codes, no more (the runs' own counts may
  // include earlier test files' vouchers: this worker's database is shared).
  const moved = await t.ctx.database.db
    .selectFrom("ledger_transactions")
    .select("subject_id")
    .where("subject_type", "=", "refund_order")
    .where("subject_id", "in", refunded.length ? refunded.map((r) => r.id) : ["-"])
    .execute();
  expect(moved).toHaveLength(refunded.length);
  const expired = await t.ctx.database.db
    .selectFrom("supply_cards")
    .select("id")
    .where("goods_id", "=", goods.id)
    .where("state", "=", "expired")
    .execute();
  expect(expired).toHaveLength(refunded.length * 3);
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
