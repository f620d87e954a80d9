import type { PurchaseOrder } from "@tessera/contracts";
import { expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { cardCsv } from "../../../test/kit/cards";

/**
 * The dev-only backdate route (platform/messaging/dev-routes.ts), test scaffolding for the commission
 * journey: an operator moves one purchase order and its refunds back by some days; nobody else can,
 * and nothing else moves.
 */
const t = useTestApp();

it("an operator moves one purchase order and its refunds back in time; others cannot", async () => {
  const ops = await registerOperator(t);
  const supplier = await registerMerchant(t, { orgName: "Backdate Brand" });
  const brand = await newBrand(t, supplier);
  const goods = await newGoods(t, supplier, brand.id, { name: "Backdate 10", price: 1_000, settlementPrice: 900 });
  const csv = cardCsv(4, (i) => `BACKDATE${Date.now()}${i},S${i},`);
  await importFile(t, supplier.token, goods.id, "cards.csv", csv);
  const { buyer } = await dock(t, supplier);
  await fundSup(t, buyer, 10_000);
  const buy = async (orderNo: string) =>
    (
      await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
        token: buyer.token,
        body: { goodsId: String(goods.id), quantity: 2, orderNo },
      })
    ).body.data;
  const order = await buy(`BD${Date.now()}a`);
  const other = await buy(`BD${Date.now()}b`);
  const refund = await t.call<{ id: string }>("POST", "/api/card-user/refunds", {
    token: buyer.token,
    body: { orderId: order.id, quantity: 1, reason: "unused" },
  });
  expect(
    (
      await t.call("PUT", `/api/card-brander/supplyRefunds/${refund.body.data.id}`, {
        token: supplier.token,
        body: { approve: true },
      })
    ).body.code,
  ).toBe(1);

  const db = t.ctx.database.db;
  const times = async (id: string) =>
    db
      .selectFrom("purchase_orders")
      .select(["created_at", "finished_at"])
      .where("id", "=", Number(id))
      .executeTakeFirstOrThrow();
  const refundTimes = async () =>
    db
      .selectFrom("refund_orders")
      .select(["created_at", "finished_at"])
      .where("order_id", "=", Number(order.id))
      .executeTakeFirstOrThrow();
  const before = await times(order.id);
  const refundBefore = await refundTimes();
  const otherBefore = await times(other.id);

  const backdate = (token: string, id: string, body: unknown) =>
    t.call<{ id: string; createdAt: string; finishedAt: string | null; refunds: number }>(
      "POST",
      `/api/dev/purchaseOrders/${id}/backdate`,
      { token, body },
    );
  expect((await backdate(buyer.token, order.id, { days: 40 })).status).toBe(403);
  expect((await backdate(ops.token, "987654321", { days: 40 })).status).toBe(404);
  for (const days of [0, -3, 1.5, 401, "40"]) {
    expect((await backdate(ops.token, order.id, { days })).status, String(days)).toBe(400);
  }
  expect((await times(order.id)).created_at).toEqual(before.created_at);

  const moved = await backdate(ops.token, order.id, { days: 40 });
  expect(moved.body.data).toMatchObject({ id: order.id, refunds: 1 });
  const day = 86_400_000;
  const after = await times(order.id);
  expect(new Date(after.created_at).getTime()).toBe(new Date(before.created_at).getTime() - 40 * day);
  expect(after.finished_at?.getTime()).toBe((before.finished_at?.getTime() ?? 0) - 40 * day);
  expect(moved.body.data.createdAt).toBe(new Date(after.created_at).toISOString());
  const refundAfter = await refundTimes();
  expect(new Date(refundAfter.created_at).getTime()).toBe(new Date(refundBefore.created_at).getTime() - 40 * day);
  expect(refundAfter.finished_at?.getTime()).toBe((refundBefore.finished_at?.getTime() ?? 0) - 40 * day);
  // The other order is untouched.
  expect(await times(other.id)).toEqual(otherBefore);
});
