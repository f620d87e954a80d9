import { afterAll, describe, expect, it } from "vitest";
import { withTx } from "../../db/tx";
import { AppError } from "../../platform/http/errors";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { balancesOf, checkInvariants, post, type PostRequest } from "./service";

const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

const db = () => t.ctx.database.db;
let keySeq = 0;
const key = (label: string) => `${label}-${Date.now()}-${++keySeq}`;

function topUp(merchantId: number, amount: number, idempotencyKey = key("topup")): PostRequest {
  return {
    idempotencyKey,
    kind: "top_up",
    currency: "CNY",
    reason: "bank transfer",
    postings: [
      { account: { platform: "bank_clearing" }, amount: -amount },
      { account: { merchantId, kind: "reserve" }, amount },
    ],
  };
}

describe("ledger postings", () => {
  it("credits a top-up and shows it in userInfo", async () => {
    const m = await registerMerchant(t);
    const merchantId = Number(m.merchantId);
    const result = await withTx(db(), (tx) => post(tx, topUp(merchantId, 12_345)));
    expect(result.replayed).toBe(false);
    expect(result.entries.map((e) => e.amount).reduce((a, b) => a + b, 0)).toBe(0);
    expect((await balancesOf(db(), merchantId, "CNY")).reserve).toEqual({ amount: 12_345, currency: "CNY" });
    const info = await t.call<{ balances: { reserve: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: m.token,
    });
    expect(info.body.data.balances.reserve.amount).toBe(12_345);
  });

  it("replaying an idempotency key moves money once and returns the first result", async () => {
    const merchantId = Number((await registerMerchant(t)).merchantId);
    const k = key("replay");
    const first = await withTx(db(), (tx) => post(tx, topUp(merchantId, 500, k)));
    const again = await withTx(db(), (tx) => post(tx, topUp(merchantId, 500, k)));
    expect(again).toMatchObject({ transactionId: first.transactionId, replayed: true });
    expect((await balancesOf(db(), merchantId, "CNY")).reserve.amount).toBe(500);
  });

  it("refuses the same key for a different movement", async () => {
    const merchantId = Number((await registerMerchant(t)).merchantId);
    const k = key("mismatch");
    await withTx(db(), (tx) => post(tx, topUp(merchantId, 500, k)));
    await expect(withTx(db(), (tx) => post(tx, topUp(merchantId, 501, k)))).rejects.toMatchObject({
      messageKey: "ledger.idempotencyMismatch",
    });
    expect((await balancesOf(db(), merchantId, "CNY")).reserve.amount).toBe(500);
  });

  it("never takes a merchant account below zero, and a refusal changes nothing", async () => {
    const merchantId = Number((await registerMerchant(t)).merchantId);
    await withTx(db(), (tx) => post(tx, topUp(merchantId, 1_000)));
    const transfer = (amount: number): PostRequest => ({
      idempotencyKey: key("transfer"),
      kind: "reserve_transfer",
      currency: "CNY",
      postings: [
        { account: { merchantId, kind: "reserve" }, amount: -amount },
        { account: { merchantId, kind: "sup" }, amount },
      ],
    });
    await withTx(db(), (tx) => post(tx, transfer(600)));
    const refused = withTx(db(), (tx) => post(tx, transfer(600)));
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ messageKey: "ledger.insufficientBalance" });
    const balances = await balancesOf(db(), merchantId, "CNY");
    expect(balances.reserve.amount).toBe(400);
    expect(balances.sup.amount).toBe(600);
  });

  it("rolls back the posting with the business transaction that fails after it", async () => {
    const merchantId = Number((await registerMerchant(t)).merchantId);
    await expect(
      withTx(db(), async (tx) => {
        await post(tx, topUp(merchantId, 777));
        throw new Error("the business row could not be written");
      }),
    ).rejects.toThrow("business row");
    expect((await balancesOf(db(), merchantId, "CNY")).reserve.amount).toBe(0);
  });

  it("refuses unbalanced entries, zero amounts, mixed currencies and single-account transactions", async () => {
    const merchantId = Number((await registerMerchant(t)).merchantId);
    const base = topUp(merchantId, 100);
    await expect(
      withTx(db(), (tx) =>
        post(tx, {
          ...base,
          postings: [
            { account: { platform: "bank_clearing" }, amount: -100 },
            { account: { merchantId, kind: "reserve" }, amount: 99 },
          ],
        }),
      ),
    ).rejects.toThrow("sum to zero");
    await expect(
      withTx(db(), (tx) =>
        post(tx, {
          ...base,
          postings: [
            { account: { platform: "bank_clearing" }, amount: 0 },
            { account: { merchantId, kind: "reserve" }, amount: 0 },
          ],
        }),
      ),
    ).rejects.toThrow("non-zero");
    await expect(withTx(db(), (tx) => post(tx, { ...base, currency: "USD" }))).rejects.toThrow("settles in CNY");
    await expect(
      withTx(db(), (tx) =>
        post(tx, {
          ...base,
          postings: [
            { account: { merchantId, kind: "reserve" }, amount: 5 },
            { account: { merchantId, kind: "reserve" }, amount: -5 },
          ],
        }),
      ),
    ).rejects.toThrow("two accounts");
    expect((await balancesOf(db(), merchantId, "CNY")).reserve.amount).toBe(0);
  });

  it("keeps each currency separate", async () => {
    const usd = Number((await registerMerchant(t, { version: "international", currency: "USD" })).merchantId);
    const hkd = Number((await registerMerchant(t, { version: "international", currency: "HKD" })).merchantId);
    await withTx(db(), (tx) => post(tx, { ...topUp(usd, 300), currency: "USD" }));
    await withTx(db(), (tx) => post(tx, { ...topUp(hkd, 800), currency: "HKD" }));
    expect((await balancesOf(db(), usd, "USD")).reserve).toEqual({ amount: 300, currency: "USD" });
    expect((await balancesOf(db(), hkd, "HKD")).reserve).toEqual({ amount: 800, currency: "HKD" });
    expect(await checkInvariants(db())).toEqual([]);
  });
});
