import { afterAll, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { authorisedSender, income } from "../../../test/money";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";

/** On the PostgreSQL server only: acceptances and withdrawals racing for one supplier's income. */
const t = useTestApp({ WITHDRAWALS_PER_DAY: "100", AUTO_PAYOUT: "false" });
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const incomeOf = async (token: string) =>
  (await t.call<{ balances: { income: { amount: number } } }>("GET", "/api/card-user/userInfo", { token })).body.data
    .balances.income.amount;

it("100 parallel acceptances and withdrawals never overdraw one account; at most one withdrawal is in progress", async () => {
  const sender = await authorisedSender(t);
  const ops = await registerOperator(t);
  await income(t, sender, 10_000);
  const card = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws/card", {
    token: sender.token,
    body: { companyName: "Race Supplier Co", bank: "Bank of China", city: "Hangzhou", account: "6217000011113333" },
  });
  await t.call("POST", `/api/ops/queues/bankCard/items/${card.body.data.id}/approve`, { token: ops.token });
  const recipients = await Promise.all(Array.from({ length: 5 }, () => registerMerchant(t)));
  const created: { id: string; token: string }[] = [];
  for (let i = 0; i < 50; i++) {
    const to = recipients[i % recipients.length];
    if (!to) continue;
    const res = await t.call<{ id: string }>("POST", "/api/card-brander/transfers", {
      token: sender.token,
      body: { toMerchantId: to.merchantId, amount: 300, requestKey: `race-${sender.merchantId}-${i}` },
    });
    created.push({ id: res.body.data.id, token: to.token });
  }
  const results = await Promise.all([
    ...created.map((c) => t.call("PUT", `/api/card-brander/transfers/${c.id}/accept`, { token: c.token })),
    ...Array.from({ length: 50 }, (_, i) =>
      t.call("POST", "/api/card-brander/withdraws", {
        token: sender.token,
        body: { amount: 500 + i, account: "income", requestKey: `wd-${sender.merchantId}-${i}` },
      }),
    ),
  ]);
  expect(results.every((r) => r.status < 500)).toBe(true);
  const accepted = results.slice(0, 50).filter((r) => r.body.code === 1).length;
  const withdrawals = await t.call<{ list: { state: string; amount: { amount: number } }[] }>(
    "GET",
    "/api/card-brander/withdraws",
    { token: sender.token },
  );
  const inProgress = withdrawals.body.data.list.filter((w) => w.state === "under_review");
  expect(inProgress.length).toBeLessThanOrEqual(1);
  const held = inProgress.reduce((sum, w) => sum + w.amount.amount, 0);
  const left = await incomeOf(sender.token);
  expect(left).toBeGreaterThanOrEqual(0);
  expect(left).toBe(10_000 - accepted * 300 - held);
  let received = 0;
  for (const r of recipients) received += await incomeOf(r.token);
  expect(received).toBe(accepted * 300);
});

it("the same acceptance sent 50 times at once moves the money once", async () => {
  const sender = await authorisedSender(t);
  const to = await registerMerchant(t);
  await income(t, sender, 5_000);
  const created = await t.call<{ id: string }>("POST", "/api/card-brander/transfers", {
    token: sender.token,
    body: { toMerchantId: to.merchantId, amount: 1_234, requestKey: `once-${sender.merchantId}` },
  });
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call("PUT", `/api/card-brander/transfers/${created.body.data.id}/accept`, { token: to.token }),
    ),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.filter((r) => r.status === 409)).toHaveLength(49);
  expect(await incomeOf(to.token)).toBe(1_234);
  expect(await incomeOf(sender.token)).toBe(5_000 - 1_234);
});
