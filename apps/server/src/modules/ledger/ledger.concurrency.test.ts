import { expect, it } from "vitest";
import { withTx } from "../../db/tx";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { balancesOf, checkInvariants, post, type PostRequest } from "./service";

/** On the PostgreSQL server only: real concurrent transactions racing for the same money. */
const t = useTestApp();

const db = () => t.ctx.database.db;

function credit(merchantId: number, amount: number, idempotencyKey: string): PostRequest {
  return {
    idempotencyKey,
    kind: "top_up",
    currency: "CNY",
    postings: [
      { account: { platform: "bank_clearing" }, amount: -amount },
      { account: { merchantId, kind: "reserve" }, amount },
    ],
  };
}

it("100 parallel spends against one account never overdraw it", async () => {
  const merchantId = Number((await registerMerchant(t)).merchantId);
  await withTx(db(), (tx) => post(tx, credit(merchantId, 10_000, `fund-${merchantId}`)));
  // 100 transfers of 300 against 10,000: exactly 33 can succeed.
  const results = await Promise.allSettled(
    Array.from({ length: 100 }, (_, i) =>
      withTx(db(), (tx) =>
        post(tx, {
          idempotencyKey: `spend-${merchantId}-${i}`,
          kind: "reserve_transfer",
          currency: "CNY",
          postings: [
            { account: { merchantId, kind: "reserve" }, amount: -300 },
            { account: { merchantId, kind: "sup" }, amount: 300 },
          ],
        }),
      ),
    ),
  );
  const ok = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.filter((r) => r.status === "rejected");
  expect(ok).toBe(33);
  for (const r of refused) expect(r.reason).toMatchObject({ messageKey: "ledger.insufficientBalance" });
  const balances = await balancesOf(db(), merchantId, "CNY");
  expect(balances.reserve.amount).toBe(100);
  expect(balances.sup.amount).toBe(9_900);
  expect(await checkInvariants(db())).toEqual([]);
});

it("replaying one idempotency key 50 times at once moves money once", async () => {
  const merchantId = Number((await registerMerchant(t)).merchantId);
  const results = await Promise.all(
    Array.from({ length: 50 }, () => withTx(db(), (tx) => post(tx, credit(merchantId, 250, `replay-${merchantId}`)))),
  );
  expect(new Set(results.map((r) => r.transactionId)).size).toBe(1);
  expect(results.filter((r) => !r.replayed)).toHaveLength(1);
  expect((await balancesOf(db(), merchantId, "CNY")).reserve.amount).toBe(250);
  expect(await checkInvariants(db())).toEqual([]);
});

it("transfers in both directions between two merchants do not deadlock", async () => {
  const a = Number((await registerMerchant(t)).merchantId);
  const b = Number((await registerMerchant(t)).merchantId);
  await withTx(db(), (tx) => post(tx, credit(a, 5_000, `fund-a-${a}`)));
  await withTx(db(), (tx) => post(tx, credit(b, 5_000, `fund-b-${b}`)));
  const move = (from: number, to: number, i: number) =>
    withTx(db(), (tx) =>
      post(tx, {
        idempotencyKey: `x-${from}-${to}-${i}`,
        kind: "transfer",
        currency: "CNY",
        postings: [
          { account: { merchantId: from, kind: "reserve" }, amount: -10 },
          { account: { merchantId: to, kind: "reserve" }, amount: 10 },
        ],
      }),
    );
  await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? move(a, b, i) : move(b, a, i))));
  const sum = (await balancesOf(db(), a, "CNY")).reserve.amount + (await balancesOf(db(), b, "CNY")).reserve.amount;
  expect(sum).toBe(10_000);
  expect(await checkInvariants(db())).toEqual([]);
});
