import type { QueueItemsQuery } from "@tessera/contracts";
import type { Insertable, Updateable } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { PayApplicationsTable } from "./tables";

/** SQL of the aggregated onboarding: a merchant's application (its id names it), signing and the review. */

/** The merchant's application (not canceled), under its row lock when `lock`. */
export function currentApplication(db: Executor, merchantId: number, lock = false) {
  let q = db
    .selectFrom("pay_applications")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("state", "<>", "CANCELED");
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function insertApplication(tx: Executor, row: Insertable<PayApplicationsTable>) {
  return tx.insertInto("pay_applications").values(row).returningAll().executeTakeFirstOrThrow();
}

/** Changes an application (found by the caller under its tenant) and reads it back. */
export function updateApplication(tx: Executor, id: number, set: Updateable<PayApplicationsTable>) {
  return tx.updateTable("pay_applications").set(set).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/** The application a signing link names, under its row lock when `lock`. */
export function applicationByToken(db: Executor, token: string, lock = false) {
  let q = db.selectFrom("pay_applications").selectAll().where("sign_token", "=", token);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Finishes the applications signed at or before `before`; how many. */
export async function finishSigned(db: Executor, before: Date, finishedAt: Date, updatedAt: Date): Promise<number> {
  const r = await db
    .updateTable("pay_applications")
    .set({ state: "FINISHED", finished_at: finishedAt, updated_at: updatedAt })
    .where("state", "=", "SIGNING")
    .where("signed_at", "<=", before)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/* ---------- the operator's review (all merchants) ---------- */

export function lockApplication(tx: Executor, id: number) {
  return tx.selectFrom("pay_applications").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function setReview(tx: Executor, id: number, set: Updateable<PayApplicationsTable>): Promise<void> {
  await tx.updateTable("pay_applications").set(set).where("id", "=", id).execute();
}

export async function countAuditing(db: Executor): Promise<number> {
  return Number(
    (
      await db
        .selectFrom("pay_applications")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("state", "=", "AUDITING")
        .executeTakeFirst()
    )?.n ?? 0,
  );
}

/** The applications the review queue lists (never drafts or canceled ones), with their merchants' names. */
export async function reviewPage(db: Executor, q: QueueItemsQuery) {
  let base = db
    .selectFrom("pay_applications as a")
    .innerJoin("merchants as m", "m.id", "a.merchant_id")
    .where("a.state", "not in", ["EDITTING", "CANCELED"]);
  if (q.state === "pending") base = base.where("a.state", "=", "AUDITING");
  if (q.state === "rejected") base = base.where("a.state", "=", "REJECTED");
  if (q.state === "approved") {
    base = base.where("a.state", "in", ["TO_BE_CONFIRMED", "TO_BE_SIGNED", "SIGNING", "FINISHED"]);
  }
  if (q.merchantId) base = base.where("a.merchant_id", "=", Number(q.merchantId));
  return paginate(
    base.selectAll("a").select("m.name as merchant_name").orderBy("a.submitted_at", "desc"),
    base,
    pageWindow(q),
  );
}
