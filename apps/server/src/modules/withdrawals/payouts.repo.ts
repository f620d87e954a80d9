import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the payout outbox (withdrawal_payouts): instructions to the bank, written in the review's transaction. */

export interface NewPayout {
  withdrawalId: number;
  reference: string;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  companyName: string;
  bank: string;
  city: string;
  account: string;
  day: string;
  dueAt: Date;
}

/** Writes the instruction; a second write for the same withdrawal changes nothing. */
export async function insertPayout(tx: Executor, p: NewPayout): Promise<void> {
  await tx
    .insertInto("withdrawal_payouts")
    .values({
      withdrawal_id: p.withdrawalId,
      reference: p.reference,
      amount: p.amount,
      currency: p.currency,
      company_name: p.companyName,
      bank: p.bank,
      city: p.city,
      account: p.account,
      day: p.day,
      next_attempt_at: p.dueAt,
    })
    .onConflict((oc) => oc.column("withdrawal_id").doNothing())
    .execute();
}

const PAYOUT_COLUMNS = [
  "id",
  "withdrawal_id",
  "reference",
  "amount",
  "currency",
  "company_name",
  "bank",
  "city",
  "account",
  "day",
  "state",
  "attempts",
  "last_error",
  "next_attempt_at",
  "created_at",
  "submitted_at",
  "acknowledged_at",
] as const;

/**
 * Claims pending instructions that are due (all of them, or the one of `withdrawalId`): locked with SKIP
 * LOCKED so a second sender passes them by, counted as a try and moved one lease ahead, so a sender on
 * another process does not take them until the lease has run out (a sender that died mid-way).
 */
export async function claimDue(tx: Executor, f: { now: Date; leaseUntil: Date; limit: number; withdrawalId?: number }) {
  let q = tx
    .selectFrom("withdrawal_payouts")
    .select("id")
    .where("state", "=", "pending")
    .where("next_attempt_at", "<=", f.now);
  if (f.withdrawalId !== undefined) q = q.where("withdrawal_id", "=", f.withdrawalId);
  const ids = (await q.orderBy("next_attempt_at").orderBy("id").limit(f.limit).forUpdate().skipLocked().execute()).map(
    (r) => r.id,
  );
  if (ids.length === 0) return [];
  return tx
    .updateTable("withdrawal_payouts")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: f.leaseUntil }))
    .where("id", "in", ids)
    .returning(PAYOUT_COLUMNS)
    .execute();
}

export type PayoutRow = Awaited<ReturnType<typeof claimDue>>[number];

/** The bank took the instruction (only a pending one: an instruction cancelled meanwhile stays cancelled). */
export async function markSubmitted(db: Executor, id: number, at: Date): Promise<void> {
  await db
    .updateTable("withdrawal_payouts")
    .set({ state: "submitted", submitted_at: at, last_error: null })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .execute();
}

/** A try failed: the error, and when to try again. */
export async function markFailedTry(db: Executor, id: number, error: string, retryAt: Date): Promise<void> {
  await db
    .updateTable("withdrawal_payouts")
    .set({ last_error: error, next_attempt_at: retryAt })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .execute();
}

/**
 * The withdrawal ended (paid or failed), in its transaction: a submitted instruction is acknowledged, a
 * pending one is cancelled and never sent.
 */
export async function closePayout(tx: Executor, withdrawalId: number, at: Date): Promise<void> {
  await tx
    .updateTable("withdrawal_payouts")
    .set({
      state: sql<"acknowledged" | "cancelled">`CASE WHEN state = 'submitted' THEN 'acknowledged' ELSE 'cancelled' END`,
      acknowledged_at: at,
    })
    .where("withdrawal_id", "=", withdrawalId)
    .where("state", "in", ["pending", "submitted"])
    .execute();
}

/** Instructions the bank has not acknowledged yet (pending or submitted), oldest first. */
export function openPayoutPage(
  db: Executor,
  f: { state?: "pending" | "submitted" | undefined; offset: number; limit: number },
) {
  const q = db.selectFrom("withdrawal_payouts").where("state", "in", f.state ? [f.state] : ["pending", "submitted"]);
  return paginate(q.select(PAYOUT_COLUMNS).orderBy("id"), q, f);
}
