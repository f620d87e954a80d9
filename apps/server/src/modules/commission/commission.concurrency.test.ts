import type { CloseReply, CommissionStatement, PurchaseOrder } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { platformDay } from "../../platform/clock";
import { importFile, newBrand, newGoods } from "../../../test/kit/catalog-fixtures";
import { balancesOf, checkInvariants } from "../ledger";
import { shiftPeriod } from "./index";
import { cardCsv } from "../../../test/kit/cards";

/**
 * On the PostgreSQL server only: a month's close run twice at once writes one set of statements, and a
 * statement confirmed ten times at once (after its hold) is paid once, into the provider's income account. The clock starts five months ahead, so the months
 * closed here are not the ones commission.test.ts closes on a shared database.
 */
const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

function toMonth(period: string, day = "02"): void {
  const target = new Date(`${period}-${day}T10:00:00+08:00`).getTime();
  t.clock.advance((target - t.clock.now().getTime()) / 1000);
}
async function relogin(who: { email: string; token: string }): Promise<void> {
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: who.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  who.token = login.body.data.token;
}

it("two closes at once close the month once; ten confirmations at once pay once", async () => {
  const month = shiftPeriod(platformDay(t.clock.now()).slice(0, 7), 5);
  toMonth(month);
  const ops = await registerOperator(t);
  const provider = await registerMerchant(t, { orgName: "Race Provider" });
  await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
    token: ops.token,
    body: { grant: true },
  });
  await relogin(provider);
  const brandOwner = await registerMerchant(t, { orgName: "Race Brand" });
  await t.call("POST", "/api/card-servicer/brander/service", {
    token: brandOwner.token,
    body: { providerId: provider.merchantId, kind: "brand" },
  });
  const brand = await newBrand(t, brandOwner);
  const goods = await newGoods(t, brandOwner, brand.id, { name: "Race 50", price: 5_000, settlementPrice: 4_500 });
  const csv = cardCsv(4, (i) => `RACECOMM${Date.now()}${i},S${i},`);
  await importFile(t, brandOwner.token, goods.id, "cards.csv", csv);
  const { buyer } = await dock(t, brandOwner);
  await fundSup(t, buyer, 100_000);
  await t.call("POST", "/api/ops/commission/rules", {
    token: ops.token,
    body: { providerId: provider.merchantId, rateBp: 1_000, validFrom: "2026-01-01" },
  });
  const order = await t.call<PurchaseOrder>("POST", "/api/card-user/orders", {
    token: buyer.token,
    body: { goodsId: String(goods.id), quantity: 4, orderNo: `RC${Date.now()}` },
  });
  expect(order.body.data.state).toBe("success");

  toMonth(shiftPeriod(month, 1));
  await relogin(ops);
  await relogin(provider);
  const closes = await Promise.all(
    [0, 1].map(() =>
      t.call<CloseReply>("POST", "/api/ops/commission/close", { token: ops.token, body: { period: month } }),
    ),
  );
  expect(closes.every((c) => c.body.code === 1)).toBe(true);
  expect(closes.map((c) => c.body.data.alreadyClosed).sort()).toEqual([false, true]);
  const statements = await t.call<{ list: CommissionStatement[] }>(
    "GET",
    `/api/card-servicer/commission/statements?from=${month}&to=${month}`,
    { token: provider.token },
  );
  expect(statements.body.data.list).toEqual([
    expect.objectContaining({
      accrued: { amount: 2_000, currency: "CNY" },
      closing: { amount: 2_000, currency: "CNY" },
      lines: 1,
    }),
  ]);

  // Past the refund window's hold (the month's last day + 7 days), ten confirmations at once.
  toMonth(shiftPeriod(month, 1), "07");
  await relogin(provider);
  const id = statements.body.data.list[0]?.id;
  const confirms = await Promise.all(
    Array.from({ length: 10 }, () =>
      t.call("PUT", `/api/card-servicer/commission/statements/${id}/confirm`, { token: provider.token }),
    ),
  );
  expect(confirms.filter((c) => c.body.code === 1)).toHaveLength(1);
  expect(confirms.filter((c) => c.status === 409)).toHaveLength(9);
  expect((await balancesOf(t.ctx.database.db, Number(provider.merchantId), "CNY")).income.amount).toBe(2_000);
});
