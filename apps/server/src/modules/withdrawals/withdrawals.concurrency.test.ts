import { afterAll, beforeAll, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { withTx } from "../../db/tx";
import { checkInvariants, post } from "../ledger";
import { established } from "../../../test/money";

/** On the PostgreSQL server only: withdrawals racing each other and the T+1 run racing itself. */
const t = useTestApp({ WITHDRAWALS_PER_DAY: "100", AUTO_PAYOUT: "false" });
let ops: { token: string };
let ops2: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
  ops2 = await registerOperator(t);
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const card = { companyName: "Race Trading Co", bank: "Bank of China", city: "Hangzhou", account: "6217000011112222" };

async function readyMerchant(reserve: number) {
  const m = await registerMerchant(t);
  await t.call("POST", `/api/ops/funds/merchants/${m.merchantId}/credit`, {
    token: ops.token,
    body: { amount: reserve, reason: "funding", requestKey: `fund-${m.merchantId}` },
  });
  const saved = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws/card", {
    token: m.token,
    body: card,
  });
  await t.call("POST", `/api/ops/queues/bankCard/items/${saved.body.data.id}/approve`, { token: ops.token });
  return m;
}

it("100 parallel withdrawals: one is accepted and held, none overdraws, no 5xx", async () => {
  const m = await readyMerchant(10_000);
  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      t.call("POST", "/api/card-brander/withdraws", {
        token: m.token,
        body: { amount: 3_000 + i, account: "reserve", requestKey: `race-${m.merchantId}-${i}` },
      }),
    ),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.every((r) => r.status < 500)).toBe(true);
  const list = await t.call<{ list: { state: string; amount: { amount: number } }[] }>(
    "GET",
    "/api/card-brander/withdraws",
    { token: m.token },
  );
  expect(list.body.data.list).toHaveLength(1);
  const held = list.body.data.list[0]?.amount.amount ?? 0;
  const info = await t.call<{ balances: { reserve: { amount: number } } }>("GET", "/api/card-user/userInfo", {
    token: m.token,
  });
  expect(info.body.data.balances.reserve.amount).toBe(10_000 - held);
});

it("the same withdrawal request replayed 50 times at once holds the money once", async () => {
  const m = await readyMerchant(10_000);
  const body = { amount: 4_000, account: "reserve", requestKey: `replay-${m.merchantId}` };
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call<{ id: string }>("POST", "/api/card-brander/withdraws", { token: m.token, body }),
    ),
  );
  expect(results.every((r) => r.body.code === 1)).toBe(true);
  expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
  const info = await t.call<{ balances: { reserve: { amount: number } } }>("GET", "/api/card-user/userInfo", {
    token: m.token,
  });
  expect(info.body.data.balances.reserve.amount).toBe(6_000);
});

it("two operators racing to pay and to fail one payout: one wins, money moves once", async () => {
  const m = await readyMerchant(10_000);
  const w = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws", {
    token: m.token,
    body: { amount: 10_000, account: "reserve", requestKey: `pay-${m.merchantId}` },
  });
  const id = w.body.data.id;
  await t.call("POST", `/api/ops/withdrawals/${id}/action`, { token: ops.token, body: { action: "firstReview" } });
  await t.call("POST", `/api/ops/withdrawals/${id}/action`, { token: ops2.token, body: { action: "secondReview" } });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      t.call("POST", `/api/ops/withdrawals/${id}/action`, {
        token: i % 2 ? ops.token : ops2.token,
        body: i % 2 ? { action: "markPaid" } : { action: "markFailed", reason: "bounced" },
      }),
    ),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

it("the T+1 run started five times at once pays each supplier once", async () => {
  const m = await registerMerchant(t);
  await established(t, m);
  await t.call("POST", `/api/ops/funds/merchants/${m.merchantId}/credit`, {
    token: ops.token,
    body: { amount: 1, reason: "warm-up", requestKey: `warm-${m.merchantId}` },
  });
  const saved = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws/card", {
    token: m.token,
    body: card,
  });
  await t.call("POST", `/api/ops/queues/bankCard/items/${saved.body.data.id}/approve`, { token: ops.token });
  await withTx(t.ctx.database.db, (tx) =>
    post(tx, {
      idempotencyKey: `income-${m.merchantId}`,
      kind: "purchase",
      currency: "CNY",
      postings: [
        { account: { platform: "bank_clearing" }, amount: -9_999 },
        { account: { merchantId: Number(m.merchantId), kind: "income" }, amount: 9_999 },
      ],
    }),
  );
  const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const runs = await Promise.all(
    Array.from({ length: 5 }, () =>
      t.call("POST", "/api/ops/withdrawals/autoPayout", { token: ops.token, body: { day } }),
    ),
  );
  expect(runs.every((r) => r.status === 200)).toBe(true);
  const list = await t.call<{ list: { automatic: boolean; amount: { amount: number } }[] }>(
    "GET",
    "/api/card-brander/withdraws",
    { token: m.token },
  );
  expect(list.body.data.list.map((w) => [w.automatic, w.amount.amount])).toEqual([[true, 9_999]]);
});
