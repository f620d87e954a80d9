import type { Insertable } from "kysely";
import type { Executor } from "../../db/tx";
import type { PayCodesTable } from "./tables";
import { paginate } from "../../db/paginate";

/** SQL of collection codes. A merchant's codes are read with its id; a payer's scanned code by its token. */

/** A page of the merchant's live codes of one account (`passport_id`) or bound to one store (`store_id`). */
export async function codePage(
  db: Executor,
  merchantId: number,
  by: { column: "passport_id" | "store_id"; id: number },
  page: { limit: number; offset: number },
) {
  const base = db
    .selectFrom("pay_codes")
    .where("merchant_id", "=", merchantId)
    .where(by.column, "=", by.id)
    .where("deleted_at", "is", null);
  return paginate(base.selectAll().orderBy("id", "desc"), base, page);
}

export function insertCode(db: Executor, row: Insertable<PayCodesTable>) {
  return db.insertInto("pay_codes").values(row).returningAll().executeTakeFirstOrThrow();
}

export function codeOf(db: Executor, merchantId: number, passportId: number, id: number) {
  return db
    .selectFrom("pay_codes")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .where("passport_id", "=", passportId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Retires one of the merchant's live codes; whether it did. */
export async function retireCode(
  db: Executor,
  merchantId: number,
  passportId: number,
  id: number,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable("pay_codes")
    .set({ deleted_at: now })
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .where("passport_id", "=", passportId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The live code a payer scanned (any merchant's: the token is the secret). */
export function liveCodeByToken(db: Executor, token: string) {
  return db
    .selectFrom("pay_codes")
    .selectAll()
    .where("token", "=", token)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** How far a merchant has set up payment collection (the home's setup checklist): onboarding and codes. */
export async function collectionSetup(
  db: Executor,
  merchantId: number,
): Promise<{ applied: boolean; signed: boolean; codes: number }> {
  const [app, codes] = await Promise.all([
    db
      .selectFrom("pay_applications")
      .select("state")
      .where("merchant_id", "=", merchantId)
      .orderBy("id", "desc")
      .executeTakeFirst(),
    db
      .selectFrom("pay_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow(),
  ]);
  return { applied: app !== undefined, signed: app?.state === "FINISHED", codes: Number(codes.n) };
}
