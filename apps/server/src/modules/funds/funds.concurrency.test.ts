import { afterAll, beforeAll, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";

/** On the PostgreSQL server only: real concurrent requests racing for the same money and the same notice. */
const t = useTestApp({ TOPUP_FEE_BP: "100" });
let ops: { token: string };
let ops2: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
  ops2 = await registerOperator(t);
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

async function credit(merchantId: string, amount: number, requestKey: string) {
  const res = await t.call("POST", `/api/ops/funds/merchants/${merchantId}/credit`, {
    token: ops.token,
    body: { amount, reason: "test funding", requestKey },
  });
  expect(res.body.code).toBe(1);
}

async function reserve(token: string): Promise<{ reserve: number; sup: number }> {
  const info = await t.call<{ balances: { reserve: { amount: number }; sup: { amount: number } } }>(
    "GET",
    "/api/card-user/userInfo",
    { token },
  );
  return { reserve: info.body.data.balances.reserve.amount, sup: info.body.data.balances.sup.amount };
}

it("100 parallel reserve transfers never overdraw the account", async () => {
  const buyer = await registerMerchant(t);
  await credit(buyer.merchantId, 10_000, `fund-${buyer.merchantId}`);
  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      t.call("POST", "/api/card-user/funds/reserveTransfer", {
        token: buyer.token,
        body: { amount: 300, requestKey: `spend-${buyer.merchantId}-${i}` },
      }),
    ),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(33);
  expect(results.filter((r) => r.status === 409)).toHaveLength(67);
  expect(results.some((r) => r.status >= 500)).toBe(false);
  expect(await reserve(buyer.token)).toEqual({ reserve: 100, sup: 9_900 });
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

it("the same request key replayed 50 times at once moves money once", async () => {
  const buyer = await registerMerchant(t);
  const body = { amount: 12_345, reason: "replayed credit", requestKey: `replay-${buyer.merchantId}` };
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call<{ replayed: boolean }>("POST", `/api/ops/funds/merchants/${buyer.merchantId}/credit`, {
        token: ops.token,
        body,
      }),
    ),
  );
  expect(results.every((r) => r.body.code === 1)).toBe(true);
  expect(results.filter((r) => !r.body.data.replayed)).toHaveLength(1);
  expect((await reserve(buyer.token)).reserve).toBe(12_345);

  const transfer = { amount: 345, requestKey: `replay-transfer-${buyer.merchantId}` };
  await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call("POST", "/api/card-user/funds/reserveTransfer", { token: buyer.token, body: transfer }),
    ),
  );
  expect(await reserve(buyer.token)).toEqual({ reserve: 12_000, sup: 345 });

  const notice = {
    amount: 5_000,
    payerType: "company",
    payerName: "Replay Co",
    idNumber: "REG-12345",
    otherAccount: "62220202001",
    transferRef: "T1",
    confirmed: true,
    requestKey: `notice-${buyer.merchantId}`,
  };
  const filed = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call<{ id: string }>("POST", "/api/card-user/funds/topups", { token: buyer.token, body: notice }),
    ),
  );
  expect(new Set(filed.map((r) => r.body.data.id)).size).toBe(1);
});

it("two operators confirming and rejecting one notice at once: exactly one review wins, money moves once", async () => {
  const buyer = await registerMerchant(t);
  const notice = {
    amount: 20_000,
    payerType: "company",
    payerName: "Race Co",
    idNumber: "REG-99999",
    otherAccount: "62220202002",
    transferRef: "T2",
    confirmed: true,
    requestKey: `race-${buyer.merchantId}`,
  };
  const filed = await t.call<{ id: string }>("POST", "/api/card-user/funds/topups", {
    token: buyer.token,
    body: notice,
  });
  const id = filed.body.data.id;
  const results = await Promise.all([
    ...Array.from({ length: 10 }, (_, i) =>
      t.call("POST", `/api/ops/funds/topups/${id}/confirm`, { token: i % 2 ? ops.token : ops2.token }),
    ),
    ...Array.from({ length: 10 }, () =>
      t.call("POST", `/api/ops/funds/topups/${id}/reject`, { token: ops2.token, body: { reason: "duplicate" } }),
    ),
  ]);
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  const won = results.findIndex((r) => r.body.code === 1);
  expect((await reserve(buyer.token)).reserve).toBe(won < 10 ? 19_800 : 0);
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});
