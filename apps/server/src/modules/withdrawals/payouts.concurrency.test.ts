import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { PayoutInstructionView } from "@tessera/contracts";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { checkInvariants } from "../ledger";
import { PAYOUT_LEASE_MS } from "./payouts.service";

/** On the PostgreSQL server only: payout senders racing each other submit each instruction once (issue 44). */
const t = useTestApp({ AUTO_PAYOUT: "false" });
let opsA: { token: string };
let opsB: { token: string };
beforeAll(async () => {
  opsA = await registerOperator(t);
  opsB = await registerOperator(t);
});
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const card = { companyName: "Race Trading Co", bank: "Bank of China", city: "Hangzhou", account: "6217000011112222" };

async function paying(amount: number): Promise<string> {
  const m = await registerMerchant(t);
  await t.call("POST", `/api/ops/funds/merchants/${m.merchantId}/credit`, {
    token: opsA.token,
    body: { amount, reason: "funding", requestKey: `fund-${m.merchantId}` },
  });
  const saved = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws/card", {
    token: m.token,
    body: card,
  });
  await t.call("POST", `/api/ops/queues/bankCard/items/${saved.body.data.id}/approve`, { token: opsA.token });
  const w = await t.call<{ id: string }>("POST", "/api/card-brander/withdraws", {
    token: m.token,
    body: { amount, account: "reserve", requestKey: `wd-${m.merchantId}` },
  });
  const id = w.body.data.id;
  await t.call("POST", `/api/ops/withdrawals/${id}/action`, { token: opsA.token, body: { action: "firstReview" } });
  const second = await t.call<{ state: string; payoutReference: string }>("POST", `/api/ops/withdrawals/${id}/action`, {
    token: opsB.token,
    body: { action: "secondReview" },
  });
  expect(second.body.data.state).toBe("bank_paying");
  return second.body.data.payoutReference;
}

it("four senders racing over twelve unsent instructions submit each one once", async () => {
  // The reviews commit; every submission after them dies (the bank is down).
  const down = vi.spyOn(t.ctx.bank, "submit").mockRejectedValue(new Error("bank down"));
  const refs: string[] = [];
  try {
    for (let i = 0; i < 12; i++) refs.push(await paying(1_000 + i));
  } finally {
    down.mockRestore();
  }
  // The bank is back, and slow enough that the senders overlap.
  const original = t.ctx.bank.submit.bind(t.ctx.bank);
  const submit = vi.spyOn(t.ctx.bank, "submit").mockImplementation(async (p) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return original(p);
  });
  try {
    t.clock.advance(PAYOUT_LEASE_MS / 1000 + 1);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.call<{ submitted: number; failed: number }>("POST", "/api/ops/withdrawals/payouts/dispatch", {
          token: opsA.token,
        }),
      ),
    );
    expect(runs.every((r) => r.body.code === 1)).toBe(true);
    const mine = submit.mock.calls.map(([p]) => p.reference).filter((r) => refs.includes(r));
    expect(mine.sort()).toEqual([...refs].sort());
    expect(runs.reduce((n, r) => n + r.body.data.failed, 0)).toBe(0);

    const list = await t.call<{ list: PayoutInstructionView[] }>("GET", "/api/ops/withdrawals/payouts?pageSize=1000", {
      token: opsA.token,
    });
    const open = list.body.data.list.filter((p) => refs.includes(p.reference));
    expect(open).toHaveLength(12);
    expect(open.every((p) => p.state === "submitted" && p.attempts >= 2)).toBe(true);
  } finally {
    submit.mockRestore();
  }
});
