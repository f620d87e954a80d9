import type { Executor } from "../../db/tx";

/** SQL of dynamic codes: only a code's digest is stored; a card's codes name its customer and brand. */

/** One of the customer's activated cards, to show a code for. */
export function customerActiveCard(db: Executor, cardId: number, customerId: number) {
  return db
    .selectFrom("onecard_cards")
    .select(["id", "brander_id", "expires_at"])
    .where("id", "=", cardId)
    .where("customer_id", "=", customerId)
    .where("state", "=", "activated")
    .executeTakeFirst();
}

/** The card's live unused codes end now (a newer one was asked for). */
export async function endLiveCodes(db: Executor, cardId: number, now: Date): Promise<void> {
  await db
    .updateTable("onecard_dynamic_codes")
    .set({ expires_at: now })
    .where("card_id", "=", cardId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .execute();
}

export async function insertCode(
  db: Executor,
  row: {
    code_hash: string;
    card_id: number;
    customer_id: number;
    brander_id: number;
    expires_at: Date;
    created_at: Date;
  },
): Promise<void> {
  await db.insertInto("onecard_dynamic_codes").values(row).execute();
}

/** A code by its digest with its card and product; `lock` takes the code's row lock. */
export function codeByHash(db: Executor, codeHash: string, lock: boolean | undefined) {
  let q = db
    .selectFrom("onecard_dynamic_codes as d")
    .innerJoin("onecard_cards as c", "c.id", "d.card_id")
    .innerJoin("onecard_products as p", "p.id", "c.product_id")
    .select([
      "d.id",
      "d.card_id",
      "d.brander_id",
      "d.expires_at",
      "d.used_at",
      "c.no_masked",
      "c.balance",
      "c.held",
      "c.currency",
      "c.expires_at as card_expires_at",
      "c.customer_id",
      "d.customer_id as code_customer_id",
      "p.name",
    ])
    .where("d.code_hash", "=", codeHash);
  if (lock) q = q.forUpdate("d");
  return q.executeTakeFirst();
}

/** Marks a code used; false when it was used already. */
export async function markCodeUsed(tx: Executor, codeId: number, ref: string, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable("onecard_dynamic_codes")
    .set({ used_at: now, used_ref: ref })
    .where("id", "=", codeId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
