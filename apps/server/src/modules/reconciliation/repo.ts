import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import type { DifferenceKind } from "./tables";

/** SQL of the reconciliation module: our side of a day, and the differences found. */

/** Our payments through `provider` paid during [from, to), whatever became of them since. */
export function paymentsPaidBetween(db: Executor, provider: string, from: Date, to: Date) {
  return db
    .selectFrom("payments")
    .select(["payment_no", "merchant_id", "amount", "provider_txn_id", "paid_at"])
    .where("provider", "=", provider)
    .where("paid_at", ">=", from)
    .where("paid_at", "<", to)
    .execute();
}

/**
 * Our refunds of `provider`'s payments started during [from, to) that the provider took: a refund it
 * refused at once is `failed` without ever having settled, and is on no bill.
 */
export function refundsStartedBetween(db: Executor, provider: string, from: Date, to: Date) {
  return db
    .selectFrom("payment_refunds as r")
    .innerJoin("payments as p", "p.id", "r.payment_id")
    .select(["r.refund_no", "r.amount", "r.provider_refund_id", "p.payment_no", "p.merchant_id"])
    .where("p.provider", "=", provider)
    .where("r.created_at", ">=", from)
    .where("r.created_at", "<", to)
    .where((eb) => eb.or([eb("r.state", "!=", "failed"), eb("r.settled_at", "is not", null)]))
    .execute();
}

export function paymentsByNo(db: Executor, provider: string, paymentNos: string[]) {
  if (paymentNos.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("payments")
    .select(["payment_no", "merchant_id", "amount", "state", "paid_at"])
    .where("provider", "=", provider)
    .where("payment_no", "in", paymentNos)
    .execute();
}

export function refundsByNo(db: Executor, refundNos: string[]) {
  if (refundNos.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("payment_refunds as r")
    .innerJoin("payments as p", "p.id", "r.payment_id")
    .select(["r.refund_no", "r.amount", "p.merchant_id"])
    .where("r.refund_no", "in", refundNos)
    .execute();
}

export interface NewDifference {
  provider: string;
  day: string;
  kind: DifferenceKind;
  entry: "payment" | "refund";
  reference: string;
  paymentNo: string;
  providerRef: string | null;
  merchantId: number | null;
  ourAmount: number | null;
  billAmount: number | null;
}

/** Inserts what is new; a difference already recorded for the day (open or resolved) stays as it is. */
export async function insertDifferences(db: Executor, rows: NewDifference[], now: Date): Promise<number> {
  let added = 0;
  for (const d of rows) {
    const res = await db
      .insertInto("reconciliation_differences")
      .values({
        provider: d.provider,
        day: d.day,
        kind: d.kind,
        entry: d.entry,
        reference: d.reference,
        payment_no: d.paymentNo,
        provider_ref: d.providerRef,
        // A merchant the bill names but we do not know stays unnamed.
        merchant_id:
          d.merchantId === null ? null : sql<number | null>`(SELECT id FROM merchants WHERE id = ${d.merchantId})`,
        our_amount: d.ourAmount,
        bill_amount: d.billAmount,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(["provider", "day", "entry", "reference"]).doNothing())
      .executeTakeFirst();
    added += Number(res.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

export async function recordRun(
  db: Executor,
  r: { provider: string; day: string; billLines: number; differences: number; now: Date },
): Promise<void> {
  await db
    .insertInto("reconciliation_runs")
    .values({ provider: r.provider, day: r.day, bill_lines: r.billLines, differences: r.differences, ran_at: r.now })
    .onConflict((oc) =>
      oc
        .columns(["provider", "day"])
        .doUpdateSet({ bill_lines: r.billLines, differences: r.differences, ran_at: r.now }),
    )
    .execute();
}

export function countDifferences(db: Executor, provider: string, day: string) {
  return db
    .selectFrom("reconciliation_differences")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("provider", "=", provider)
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
}

export function listDifferences(
  db: Executor,
  q: { state?: "open" | "resolved" | undefined; day?: string | undefined; merchantId?: number | undefined },
  limit: number,
  offset: number,
) {
  let s = db
    .selectFrom("reconciliation_differences as d")
    .leftJoin("merchants as m", "m.id", "d.merchant_id")
    .selectAll("d")
    .select("m.name as merchant_name");
  if (q.state) s = s.where("d.state", "=", q.state);
  if (q.day) s = s.where("d.day", "=", q.day);
  if (q.merchantId !== undefined) s = s.where("d.merchant_id", "=", q.merchantId);
  return s.orderBy("d.id", "desc").limit(limit).offset(offset).execute();
}

export function countListed(
  db: Executor,
  q: { state?: "open" | "resolved" | undefined; day?: string | undefined; merchantId?: number | undefined },
) {
  let s = db.selectFrom("reconciliation_differences").select((eb) => eb.fn.countAll<string>().as("n"));
  if (q.state) s = s.where("state", "=", q.state);
  if (q.day) s = s.where("day", "=", q.day);
  if (q.merchantId !== undefined) s = s.where("merchant_id", "=", q.merchantId);
  return s.executeTakeFirstOrThrow();
}

export function lockDifference(db: Executor, id: number) {
  return db.selectFrom("reconciliation_differences").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function resolveDifference(
  db: Executor,
  id: number,
  r: { reason: string; by: number; now: Date },
): Promise<void> {
  await db
    .updateTable("reconciliation_differences")
    .set({ state: "resolved", resolution: r.reason, resolved_by: r.by, resolved_at: r.now })
    .where("id", "=", id)
    .where("state", "=", "open")
    .execute();
}

export async function openCountOf(db: Executor, merchantId: number): Promise<number> {
  const r = await db
    .selectFrom("reconciliation_differences")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "open")
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** How many of `providers` have reconciled `day`. */
export async function runsOf(db: Executor, providers: string[], day: string): Promise<number> {
  const r = await db
    .selectFrom("reconciliation_runs")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("provider", "in", providers)
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function runsOfDay(db: Executor, day: string) {
  return db.selectFrom("reconciliation_runs").selectAll().where("day", "=", day).orderBy("provider").execute();
}
