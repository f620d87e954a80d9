import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { WithdrawalStateColumn } from "./tables";

/** SQL of the withdrawals module: bank cards and withdrawal records. Tenant ids are required arguments. */

export function currentCard(db: Executor, merchantId: number) {
  return db
    .selectFrom("withdrawal_cards")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("current", "=", true)
    .executeTakeFirst();
}

export function findCard(db: Executor, id: number) {
  return db.selectFrom("withdrawal_cards").selectAll().where("id", "=", id).executeTakeFirst();
}

export function lockCard(tx: Executor, id: number) {
  return tx.selectFrom("withdrawal_cards").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export type CardRow = NonNullable<Awaited<ReturnType<typeof findCard>>>;

/** Replaces the merchant's current card with a new one awaiting review. */
export async function replaceCard(
  tx: Executor,
  c: { merchantId: number; companyName: string; bank: string; city: string; account: string; submittedBy: number },
): Promise<number> {
  await tx
    .updateTable("withdrawal_cards")
    .set({ current: false })
    .where("merchant_id", "=", c.merchantId)
    .where("current", "=", true)
    .execute();
  const row = await tx
    .insertInto("withdrawal_cards")
    .values({
      merchant_id: c.merchantId,
      company_name: c.companyName,
      bank: c.bank,
      city: c.city,
      account: c.account,
      submitted_by: c.submittedBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function reviewCard(
  tx: Executor,
  id: number,
  r: { state: "approved" | "rejected"; reason: string | null; by: number; now: Date },
) {
  await tx
    .updateTable("withdrawal_cards")
    .set({ state: r.state, reject_reason: r.reason, reviewed_by: r.by, reviewed_at: r.now })
    .where("id", "=", id)
    .execute();
}

export async function countPendingCards(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("withdrawal_cards")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("state", "=", "pending")
    .where("current", "=", true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function cardPage(
  db: Executor,
  f: {
    state?: "pending" | "approved" | "rejected" | undefined;
    merchantId?: number | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("withdrawal_cards").where("current", "=", true);
  if (f.state) q = q.where("state", "=", f.state);
  if (f.merchantId !== undefined) q = q.where("merchant_id", "=", f.merchantId);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

const WITHDRAWAL_COLUMNS = [
  "id",
  "merchant_id",
  "account",
  "amount",
  "currency",
  "card_id",
  "state",
  "remark",
  "fail_reason",
  "automatic",
  "request_key",
  "first_reviewed_by",
  "second_reviewed_by",
  "payout_reference",
  "review_reason",
  "created_at",
  "finished_at",
] as const;

/** Inserts a withdrawal; null when the merchant already used the request key. */
export async function insertWithdrawal(
  tx: Executor,
  w: {
    merchantId: number;
    account: "reserve" | "income";
    amount: number;
    currency: "CNY" | "USD" | "HKD";
    cardId: number;
    remark: string;
    automatic: boolean;
    state: WithdrawalStateColumn;
    requestKey: string;
    requestedBy: number | null;
    day: string;
    reviewReason?: {
      key: "withdraw.review.aboveThreshold" | "withdraw.review.newMerchant" | "withdraw.review.reconciliation";
      params: Record<string, string | number>;
    } | null;
  },
): Promise<number | null> {
  const row = await tx
    .insertInto("withdrawals")
    .values({
      merchant_id: w.merchantId,
      account: w.account,
      amount: w.amount,
      currency: w.currency,
      card_id: w.cardId,
      remark: w.remark,
      automatic: w.automatic,
      state: w.state,
      request_key: w.requestKey,
      requested_by: w.requestedBy,
      request_day: w.day,
      review_reason: w.reviewReason ? JSON.stringify(w.reviewReason) : null,
    })
    .onConflict((oc) => oc.columns(["merchant_id", "request_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export function findWithdrawal(db: Executor, id: number) {
  return db.selectFrom("withdrawals").select(WITHDRAWAL_COLUMNS).where("id", "=", id).executeTakeFirst();
}

export function findByRequestKey(db: Executor, merchantId: number, requestKey: string) {
  return db
    .selectFrom("withdrawals")
    .select(WITHDRAWAL_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("request_key", "=", requestKey)
    .executeTakeFirst();
}

export function lockWithdrawal(tx: Executor, id: number) {
  return tx.selectFrom("withdrawals").select(WITHDRAWAL_COLUMNS).where("id", "=", id).forUpdate().executeTakeFirst();
}

export type WithdrawalRow = NonNullable<Awaited<ReturnType<typeof findWithdrawal>>>;

export async function updateWithdrawal(
  tx: Executor,
  id: number,
  changes: {
    state: WithdrawalStateColumn;
    firstReviewedBy?: number;
    secondReviewedBy?: number;
    payoutReference?: string;
    failReason?: string;
    finishedAt?: Date;
  },
): Promise<void> {
  await tx
    .updateTable("withdrawals")
    .set({
      state: changes.state,
      ...(changes.firstReviewedBy !== undefined && { first_reviewed_by: changes.firstReviewedBy }),
      ...(changes.secondReviewedBy !== undefined && { second_reviewed_by: changes.secondReviewedBy }),
      ...(changes.payoutReference !== undefined && { payout_reference: changes.payoutReference }),
      ...(changes.failReason !== undefined && { fail_reason: changes.failReason }),
      ...(changes.finishedAt !== undefined && { finished_at: changes.finishedAt }),
    })
    .where("id", "=", id)
    .execute();
}

export async function hasInProgress(db: Executor, merchantId: number): Promise<boolean> {
  const row = await db
    .selectFrom("withdrawals")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("state", "in", ["under_review", "first_review_passed", "bank_paying"])
    .executeTakeFirst();
  return row !== undefined;
}

/** Withdrawals a merchant requested itself on a platform day (automatic payouts do not count). */
export async function countOnDay(db: Executor, merchantId: number, day: string): Promise<number> {
  const row = await db
    .selectFrom("withdrawals")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("automatic", "=", false)
    .where("request_day", "=", sql<string>`${day}::date`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function withdrawalPage(
  db: Executor,
  f: { merchantId?: number | undefined; state?: WithdrawalStateColumn | undefined; offset: number; limit: number },
) {
  let q = db.selectFrom("withdrawals");
  if (f.merchantId !== undefined) q = q.where("merchant_id", "=", f.merchantId);
  if (f.state) q = q.where("state", "=", f.state);
  return paginate(q.select(WITHDRAWAL_COLUMNS).orderBy("id", "desc"), q, f);
}

/** Automatic payouts of the merchant still waiting for their first review for the reason `key`. */
export function heldAutomatic(db: Executor, merchantId: number, key: string) {
  return db
    .selectFrom("withdrawals")
    .select(["id", "amount", "currency"])
    .where("merchant_id", "=", merchantId)
    .where("automatic", "=", true)
    .where("state", "=", "under_review")
    .where(sql<boolean>`review_reason->>'key' = ${key}`)
    .execute();
}

/**
 * Replaces a waiting payout's review reason `key` by `reason` (null: none left, it leaves the review),
 * only while it still waits for `key`: whether this call did it.
 */
export async function setReviewReason(
  tx: Executor,
  id: number,
  key: string,
  reason: {
    key: "withdraw.review.aboveThreshold" | "withdraw.review.newMerchant" | "withdraw.review.reconciliation";
    params: Record<string, string | number>;
  } | null,
): Promise<boolean> {
  const res = await tx
    .updateTable("withdrawals")
    .set({ review_reason: reason ? JSON.stringify(reason) : null })
    .where("id", "=", id)
    .where("state", "=", "under_review")
    .where(sql<boolean>`review_reason->>'key' = ${key}`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
