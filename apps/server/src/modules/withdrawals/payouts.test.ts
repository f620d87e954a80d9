import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PayoutInstructionView } from "@tessera/contracts";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { buildApp } from "../../app";
import { createContext } from "../../context";
import { createLocalBankPayouts } from "../../platform/adapters/bank";
import { checkInvariants } from "../ledger";
import { PAYOUT_LEASE_MS } from "./payouts.service";

/** Issue 44, item 1: the payout instruction commits with the second review and reaches the bank once. */
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

interface W {
  id: string;
  state: string;
  payoutReference: string | null;
}
const card = { companyName: "Harbour Trading Co", bank: "Bank of Ningbo", city: "Ningbo", account: "6230580000123456" };

/** A merchant with reserve money and an approved card, and a withdrawal of `amount` past its first review. */
async function firstReviewed(amount: number): Promise<W> {
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
  const w = await t.call<W>("POST", "/api/card-brander/withdraws", {
    token: m.token,
    body: { amount, account: "reserve", requestKey: `wd-${m.merchantId}` },
  });
  expect(w.body.code).toBe(1);
  expect((await act(w.body.data.id, "firstReview", opsA.token)).body.code).toBe(1);
  return w.body.data;
}
const act = (id: string, action: string, token: string, reason?: string) =>
  t.call<W>("POST", `/api/ops/withdrawals/${id}/action`, {
    token,
    body: { action, ...(reason && { reason }) },
    lang: "en",
  });
const reference = (w: W) => `PAY${w.id.padStart(10, "0")}`;
async function instruction(w: W): Promise<PayoutInstructionView | undefined> {
  const res = await t.call<{ list: PayoutInstructionView[] }>("GET", "/api/ops/withdrawals/payouts?pageSize=1000", {
    token: opsA.token,
  });
  expect(res.body.code).toBe(1);
  return res.body.data.list.find((p) => p.withdrawalId === w.id);
}
/** Where the local bank adapter writes an instruction: DATA_DIR/bank-payouts/<platform day>/<reference>.csv. */
function payoutFile(instr: { reference: string }): string {
  const dir = path.join(t.config.dataDir, "bank-payouts");
  const days = existsSync(dir) ? readdirSync(dir) : [];
  const day = days.find((d) => existsSync(path.join(dir, d, `${instr.reference}.csv`))) ?? "none";
  return path.join(dir, day, `${instr.reference}.csv`);
}

describe("the payout outbox", () => {
  it("a review whose submission died is submitted by the job at the next start, once", async () => {
    const w = await firstReviewed(7_000);
    // The process dies in the bank submission that follows the commit.
    const submit = vi.spyOn(t.ctx.bank, "submit").mockRejectedValueOnce(new Error("killed"));
    try {
      const paying = await act(w.id, "secondReview", opsB.token);
      expect(paying.body.data).toMatchObject({ state: "bank_paying", payoutReference: reference(w) });
      const left = await instruction(w);
      expect(left).toMatchObject({
        reference: reference(w),
        state: "pending",
        amount: { amount: 7_000, currency: "CNY" },
        attempts: 1,
        lastError: "killed",
        submittedAt: null,
      });
      expect(existsSync(payoutFile(left!))).toBe(false);
      // A retried review is still refused: the instruction is not lost, it waits.
      expect((await act(w.id, "secondReview", opsB.token)).body.msg).toBe(
        "This withdrawal cannot do that in its current state",
      );

      // The next start, on the same database, past any lease a dead sender held.
      t.clock.advance(PAYOUT_LEASE_MS / 1000 + 1);
      const ctx = await createContext(t.config, { database: t.ctx.database, clock: t.clock, log: () => undefined });
      const restartedSubmit = vi.spyOn(ctx.bank, "submit");
      const restarted = await buildApp(ctx);
      await restarted.ready(); // the payout job looks at once...
      await restarted.close(); // ...and closing waits for that look
      const bothSubmits = () =>
        [...restartedSubmit.mock.calls, ...submit.mock.calls.slice(1)].filter(([p]) => p.reference === reference(w));
      expect(bothSubmits()).toHaveLength(1);

      const sent = await instruction(w);
      expect(sent).toMatchObject({ state: "submitted", attempts: 2, nextAttemptAt: null });
      expect(sent?.submittedAt).not.toBeNull();
      expect(readFileSync(payoutFile(sent!), "utf8")).toContain(
        `${reference(w)},7000,CNY,Harbour Trading Co,Bank of Ningbo,Ningbo,6230580000123456`,
      );
      // Later looks send nothing more.
      t.clock.advance(3_600);
      const again = await t.call<{ submitted: number }>("POST", "/api/ops/withdrawals/payouts/dispatch", {
        token: opsA.token,
      });
      expect(again.body.code).toBe(1);
      expect(bothSubmits()).toHaveLength(1);

      // The bank's result acknowledges it: it leaves the list.
      expect((await act(w.id, "markPaid", opsA.token)).body.data.state).toBe("success");
      expect(await instruction(w)).toBeUndefined();
    } finally {
      submit.mockRestore();
    }
  });

  it("a sender that died after the bank took the instruction: the next one finds it done", async () => {
    const w = await firstReviewed(3_000);
    const original = t.ctx.bank.submit.bind(t.ctx.bank);
    const submit = vi.spyOn(t.ctx.bank, "submit").mockImplementationOnce(async (p) => {
      await original(p);
      throw new Error("killed after the bank took it");
    });
    try {
      await act(w.id, "secondReview", opsB.token);
      const left = await instruction(w);
      expect(left).toMatchObject({ state: "pending", attempts: 1 });
      const file = payoutFile(left!);
      const written = readFileSync(file, "utf8");
      t.clock.advance(PAYOUT_LEASE_MS / 1000 + 1);
      await t.call("POST", "/api/ops/withdrawals/payouts/dispatch", { token: opsA.token });
      expect(await instruction(w)).toMatchObject({ state: "submitted", attempts: 2, lastError: null });
      expect(readFileSync(file, "utf8")).toBe(written);
      expect(submit.mock.calls.filter(([p]) => p.reference === reference(w))).toHaveLength(2);
    } finally {
      submit.mockRestore();
    }
  });

  it("a withdrawal marked failed before its instruction went out is never sent", async () => {
    const w = await firstReviewed(2_000);
    const submit = vi.spyOn(t.ctx.bank, "submit").mockRejectedValueOnce(new Error("bank unreachable"));
    try {
      await act(w.id, "secondReview", opsB.token);
      const left = await instruction(w);
      expect(left).toMatchObject({ state: "pending", lastError: "bank unreachable" });
      expect((await act(w.id, "markFailed", opsA.token, "Card closed")).body.data.state).toBe("failed");
      expect(await instruction(w)).toBeUndefined();
      t.clock.advance(PAYOUT_LEASE_MS / 1000 + 1);
      await t.call("POST", "/api/ops/withdrawals/payouts/dispatch", { token: opsA.token });
      expect(submit.mock.calls.filter(([p]) => p.reference === reference(w))).toHaveLength(1);
      expect(existsSync(payoutFile(left!))).toBe(false);
    } finally {
      submit.mockRestore();
    }
  });

  it("the list is the operators' only", async () => {
    const m = await registerMerchant(t);
    expect((await t.call("GET", "/api/ops/withdrawals/payouts", { token: m.token })).body.code).not.toBe(1);
    expect((await t.call("POST", "/api/ops/withdrawals/payouts/dispatch", { token: m.token })).body.code).not.toBe(1);
  });
});

describe("the local bank adapter", () => {
  it("takes a second submission of a reference as done and leaves the first file as it was", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "tessera-bank-"));
    try {
      const bank = createLocalBankPayouts(dir);
      const p = {
        reference: "PAY0000000042",
        amount: 100,
        currency: "CNY",
        companyName: "A",
        bank: "B",
        city: "C",
        account: "1",
        day: "2026-01-02",
      };
      const first = await bank.submit(p);
      expect(first.duplicate).toBe(false);
      const second = await bank.submit({ ...p, amount: 999 });
      expect(second).toEqual({ file: first.file, duplicate: true });
      expect(readFileSync(first.file, "utf8")).toContain("PAY0000000042,100,CNY");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
