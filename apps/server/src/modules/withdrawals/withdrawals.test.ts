import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { established, income } from "../../../test/money";
import { checkInvariants } from "../ledger";

const t = useTestApp({ WITHDRAWALS_PER_DAY: "2", AUTO_PAYOUT: "false" });
let opsA: { token: string };
let opsB: { token: string };
beforeAll(async () => {
  opsA = await registerOperator(t);
  opsB = await registerOperator(t);
});

interface W {
  id: string;
  state: string;
  amount: { amount: number };
  failReason: string | null;
  automatic: boolean;
  payoutReference: string | null;
  card: { account: string };
}
type Merchant = Awaited<ReturnType<typeof registerMerchant>>;

let seq = 0;
const key = () => `wd-${Date.now()}-${++seq}`;
const card = {
  companyName: "Blue Sky Trading Co",
  bank: "China Merchants Bank",
  city: "Shenzhen",
  account: "6222 0202 0011 2233",
};

async function fund(m: Merchant, amount: number) {
  const res = await t.call("POST", `/api/ops/funds/merchants/${m.merchantId}/credit`, {
    token: opsA.token,
    body: { amount, reason: "funding", requestKey: key() },
  });
  expect(res.body.code).toBe(1);
}

async function approvedCard(m: Merchant) {
  const saved = await t.call<{ id: string; state: string }>("POST", "/api/card-brander/withdraws/card", {
    token: m.token,
    body: card,
  });
  expect(saved.body.data.state).toBe("pending");
  const approved = await t.call("POST", `/api/ops/queues/bankCard/items/${saved.body.data.id}/approve`, {
    token: opsA.token,
  });
  expect(approved.body.code).toBe(1);
}

const withdraw = (m: Merchant, body: Record<string, unknown>, lang: "cn" | "tw" | "en" = "en") =>
  t.call<W>("POST", "/api/card-brander/withdraws", { token: m.token, body: { requestKey: key(), ...body }, lang });
const act = (id: string, action: string, token: string, reason?: string) =>
  t.call<W>("POST", `/api/ops/withdrawals/${id}/action`, {
    token,
    body: { action, ...(reason && { reason }) },
    lang: "en",
  });
const balances = async (m: Merchant) =>
  (
    await t.call<{ balances: { reserve: { amount: number }; income: { amount: number } } }>(
      "GET",
      "/api/card-user/userInfo",
      { token: m.token },
    )
  ).body.data.balances;

describe("withdrawal rules of spec 01 §5, in order", () => {
  it("amount required, balance, card added, card approved, one in progress, daily count", async () => {
    const m = await registerMerchant(t);
    const noAmount = await withdraw(m, { account: "reserve" });
    expect(noAmount.body.msg).toBe("Please enter the withdrawal amount");
    expect((await withdraw(m, { amount: 100, account: "reserve" })).body.msg).toBe("Insufficient balance");
    await fund(m, 10_000);
    expect((await withdraw(m, { amount: 100, account: "reserve" })).body.msg).toBe(
      "Please add a withdrawal card first",
    );
    const saved = await t.call<{ id: string; account: string }>("POST", "/api/card-brander/withdraws/card", {
      token: m.token,
      body: card,
    });
    expect(saved.body.data.account).toBe("6222********2233");
    const zh = await withdraw(m, { amount: 100, account: "reserve" }, "cn");
    expect(zh.body.msg).toBe("银行卡审核未通过");
    await t.call("POST", `/api/ops/queues/bankCard/items/${saved.body.data.id}/approve`, { token: opsA.token });

    const first = await withdraw(m, { amount: 1_000, account: "reserve", remark: "monthly" });
    expect(first.body.data).toMatchObject({ state: "under_review", amount: { amount: 1_000 } });
    expect(await balances(m)).toMatchObject({ reserve: { amount: 9_000 } });
    const tw = await withdraw(m, { amount: 100, account: "reserve" }, "tw");
    expect(tw.body.msg).toBe("您有一筆提現正在處理中");

    await act(first.body.data.id, "reject", opsA.token, "Wrong payee");
    const second = await withdraw(m, { amount: 100, account: "reserve" });
    await act(second.body.data.id, "reject", opsA.token, "Wrong payee");
    const third = await withdraw(m, { amount: 100, account: "reserve" });
    expect(third.status).toBe(409);
    expect(third.body.msg).toBe("You have exceeded today's withdrawal times");
    expect(await balances(m)).toMatchObject({ reserve: { amount: 10_000 } });
  });

  it("a card needs its fields, and replacing it sends it back to review", async () => {
    const m = await registerMerchant(t);
    const bad = await t.call("POST", "/api/card-brander/withdraws/card", {
      token: m.token,
      body: { ...card, account: "12" },
      lang: "en",
    });
    expect(bad.body.msg).toBe("Please enter a correct account number (6-34 letters or digits)");
    const noCity = await t.call("POST", "/api/card-brander/withdraws/card", {
      token: m.token,
      body: { ...card, city: " " },
      lang: "en",
    });
    expect(noCity.body.msg).toBe("Please enter the city");
    await approvedCard(m);
    await t.call("POST", "/api/card-brander/withdraws/card", { token: m.token, body: { ...card, bank: "ICBC" } });
    const current = await t.call<{ bank: string; state: string }>("GET", "/api/card-brander/withdraws/card", {
      token: m.token,
    });
    expect(current.body.data).toMatchObject({ bank: "ICBC", state: "pending" });
  });
});

describe("review, payout and failure", () => {
  it("two different operators review, the bank adapter writes the payout file, paid moves the hold out", async () => {
    const m = await registerMerchant(t);
    await income(t, m, 50_000);
    await approvedCard(m);
    const w = (await withdraw(m, { amount: 20_000, account: "income" })).body.data;
    expect(await balances(m)).toMatchObject({ income: { amount: 30_000 } });

    expect((await act(w.id, "secondReview", opsA.token)).body.msg).toBe(
      "This withdrawal cannot do that in its current state",
    );
    expect((await act(w.id, "firstReview", opsA.token)).body.data.state).toBe("first_review_passed");
    const same = await act(w.id, "secondReview", opsA.token);
    expect(same.status).toBe(409);
    expect(same.body.msg).toBe("The second review must be done by a different operator");
    const paying = await act(w.id, "secondReview", opsB.token);
    expect(paying.body.data).toMatchObject({ state: "bank_paying", payoutReference: `PAY${w.id.padStart(10, "0")}` });

    const dir = path.join(t.config.dataDir, "bank-payouts");
    const [day] = readdirSync(dir);
    const file = readFileSync(path.join(dir, day ?? "", `${paying.body.data.payoutReference}.csv`), "utf8");
    expect(file).toContain("20000,CNY,Blue Sky Trading Co,China Merchants Bank,Shenzhen,6222020200112233");

    expect((await act(w.id, "markPaid", opsB.token)).body.data.state).toBe("success");
    expect((await act(w.id, "markPaid", opsB.token)).status).toBe(409);
    const list = await t.call<{ list: W[] }>("GET", "/api/card-brander/withdraws", { token: m.token });
    expect(list.body.data.list[0]).toMatchObject({ state: "success", card: { account: "6222********2233" } });
    const changes = await t.call<{ list: { type: string; expense: number }[] }>(
      "GET",
      "/api/card-brander/order/fund/search",
      { token: m.token },
    );
    expect(changes.body.data.list[0]).toMatchObject({ type: "withdrawal_hold", expense: 20_000 });
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);

    const audit = await t.call<{ list: { action: string }[] }>("GET", "/api/ops/auditLog?subjectType=withdrawal", {
      token: opsA.token,
    });
    expect(audit.body.data.list.map((r) => r.action)).toEqual(
      expect.arrayContaining(["withdrawal.firstReview", "withdrawal.secondReview", "withdrawal.markPaid"]),
    );
  });

  it("a failed payout releases the hold back to the account", async () => {
    const m = await registerMerchant(t);
    await income(t, m, 8_000);
    await approvedCard(m);
    const w = (await withdraw(m, { amount: 8_000, account: "income" })).body.data;
    await act(w.id, "firstReview", opsA.token);
    await act(w.id, "secondReview", opsB.token);
    expect((await act(w.id, "markFailed", opsA.token)).body.msg).toBe("Please enter the reason");
    const failed = await act(w.id, "markFailed", opsA.token, "Account closed");
    expect(failed.body.data).toMatchObject({ state: "failed", failReason: "Account closed" });
    expect(await balances(m)).toMatchObject({ income: { amount: 8_000 } });
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("merchants see only their own withdrawals and cannot act as operators", async () => {
    const m = await registerMerchant(t);
    const other = await registerMerchant(t);
    await income(t, m, 1_000);
    await approvedCard(m);
    const w = (await withdraw(m, { amount: 500, account: "income" })).body.data;
    const theirs = await t.call<{ total: number }>("GET", "/api/card-brander/withdraws", { token: other.token });
    expect(theirs.body.data.total).toBe(0);
    expect(
      (await t.call("POST", `/api/ops/withdrawals/${w.id}/action`, { token: m.token, body: { action: "firstReview" } }))
        .status,
    ).toBe(403);
    expect((await t.call("POST", "/api/ops/withdrawals/autoPayout", { token: m.token, body: {} })).status).toBe(403);
    expect((await t.call("GET", "/api/ops/withdrawals")).status).toBe(401);
  });
});

describe("T+1 automatic payout", () => {
  it("pays yesterday's closing income to the approved card once, however often it runs", async () => {
    const m = await registerMerchant(t);
    const noCard = await registerMerchant(t);
    await established(t, m);
    await established(t, noCard);
    await income(t, m, 30_000);
    await income(t, noCard, 5_000);
    await approvedCard(m);
    // The income arrived "yesterday" as far as the run is concerned: run for today, whose close is tomorrow 00:00.
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const run = () =>
      t.call<{ created: number; skipped: number }>("POST", "/api/ops/withdrawals/autoPayout", {
        token: opsA.token,
        body: { day },
      });
    const first = await run();
    expect(first.body.data.created).toBeGreaterThanOrEqual(1);
    await run();
    const list = await t.call<{ list: W[] }>("GET", "/api/card-brander/withdraws", { token: m.token });
    expect(list.body.data.list).toHaveLength(1);
    expect(list.body.data.list[0]).toMatchObject({ automatic: true, state: "bank_paying", amount: { amount: 30_000 } });
    expect(await balances(m)).toMatchObject({ income: { amount: 0 } });
    expect(await balances(noCard)).toMatchObject({ income: { amount: 5_000 } });

    // Income that arrives after the day closed waits for the next run.
    await income(t, m, 700);
    const past = await t.call<{ created: number }>("POST", "/api/ops/withdrawals/autoPayout", {
      token: opsA.token,
      body: { day: "2001-01-01" },
    });
    expect(past.body.code).toBe(1);
    expect(
      (await t.call<{ total: number }>("GET", "/api/card-brander/withdraws", { token: m.token })).body.data.total,
    ).toBe(1);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});

describe("guarded payouts", () => {
  const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const listOf = async (m: { token: string }, lang: "en" | "cn" = "en") =>
    (
      await t.call<{ list: (W & { reviewReason: string | null })[] }>("GET", "/api/card-brander/withdraws", {
        token: m.token,
        lang,
      })
    ).body.data.list;

  it("a new merchant's automatic payout waits for the operators' two reviews, and says why", async () => {
    const m = await registerMerchant(t);
    await income(t, m, 12_000);
    await approvedCard(m);
    const run = await t.call<{ created: number; held: number }>("POST", "/api/ops/withdrawals/autoPayout", {
      token: opsA.token,
      body: { day: today() },
    });
    expect(run.body.data.held).toBeGreaterThanOrEqual(1);
    const [w] = await listOf(m);
    expect(w).toMatchObject({
      automatic: true,
      state: "under_review",
      amount: { amount: 12_000 },
      payoutReference: null,
    });
    expect(w?.reviewReason).toBe(
      "The merchant joined less than 30 days ago: its automatic payout waits for an operator",
    );
    expect((await listOf(m, "cn"))[0]?.reviewReason).toBe("商户入驻不满 30 天，自动结算待运营审核");
    // The money is held, not paid: nothing went to the bank until two operators agree.
    expect(await balances(m)).toMatchObject({ income: { amount: 0 } });
    const dir = path.join(t.config.dataDir, "bank-payouts");
    const files = existsSync(dir) ? readdirSync(dir).flatMap((d) => readdirSync(path.join(dir, d))) : [];
    expect(files).not.toContain(`PAY${String(w?.id).padStart(10, "0")}.csv`);
    await t.call("POST", `/api/ops/withdrawals/${w?.id}/action`, {
      token: opsA.token,
      body: { action: "firstReview" },
    });
    const second = await t.call<W>("POST", `/api/ops/withdrawals/${w?.id}/action`, {
      token: opsB.token,
      body: { action: "secondReview" },
    });
    expect(second.body.data.state).toBe("bank_paying");
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("a payout above PAYOUT_REVIEW_ABOVE waits even for an established merchant", async () => {
    const m = await registerMerchant(t);
    await established(t, m);
    await income(t, m, 5_000_001);
    await approvedCard(m);
    await t.call("POST", "/api/ops/withdrawals/autoPayout", { token: opsA.token, body: { day: today() } });
    const [w] = await listOf(m);
    expect(w).toMatchObject({ state: "under_review", amount: { amount: 5_000_001 } });
    expect(w?.reviewReason).toBe(
      "The automatic payout of ¥50,000.01 is above the review threshold of ¥50,000.00: it waits for an operator",
    );
    const ops = await t.call<{ list: (W & { reviewReason: string | null })[] }>(
      "GET",
      `/api/ops/withdrawals?merchantId=${m.merchantId}`,
      { token: opsA.token, lang: "en" },
    );
    expect(ops.body.data.list[0]?.reviewReason).toContain("above the review threshold");
  });
});

describe("operators add operators (second reviewers)", () => {
  it("adds one that can log in; refuses merchants, a taken e-mail and a weak password", async () => {
    const email = `second-${Date.now()}@example.com`;
    const added = await t.call<{ userId: string }>("POST", "/api/ops/operators", {
      token: opsA.token,
      body: { email, password: "Second#Op2026" },
    });
    expect(added.body.code).toBe(1);
    const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email, password: "Second#Op2026", version: "domestic" },
    });
    expect(login.body.code).toBe(1);
    const info = await t.call<{ kind: string }>("GET", "/api/card-user/userInfo", { token: login.body.data.token });
    expect(info.body.data.kind).toBe("operator");
    const again = await t.call("POST", "/api/ops/operators", {
      token: opsA.token,
      body: { email, password: "Second#Op2026" },
      lang: "en",
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe("This email is already in use");
    const weak = await t.call("POST", "/api/ops/operators", {
      token: opsA.token,
      body: { email: `w-${email}`, password: "weakpass" },
      lang: "en",
    });
    expect(weak.body.msg).toBe("Password strength is weak, please reset");
    const m = await registerMerchant(t);
    expect(
      (
        await t.call("POST", "/api/ops/operators", {
          token: m.token,
          body: { email: `m-${email}`, password: "Second#Op2026" },
        })
      ).status,
    ).toBe(403);
  });
});
