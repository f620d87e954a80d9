import type { Executor } from "../../db/tx";

/** SQL of end customers and their sessions (a customer is a phone number; a session a token's hash). */

/** The customer of a phone, created on its first login. */
export async function ensureCustomer(tx: Executor, phone: string, now: Date): Promise<number> {
  await tx
    .insertInto("onecard_customers")
    .values({ phone, created_at: now })
    .onConflict((oc) => oc.column("phone").doNothing())
    .execute();
  const c = await tx.selectFrom("onecard_customers").select("id").where("phone", "=", phone).executeTakeFirstOrThrow();
  return c.id;
}

export async function insertSession(
  tx: Executor,
  row: { customer_id: number; token_hash: string; expires_at: Date; created_at: Date },
): Promise<void> {
  await tx.insertInto("onecard_customer_sessions").values(row).execute();
}

export function sessionByTokenHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom("onecard_customer_sessions as s")
    .innerJoin("onecard_customers as c", "c.id", "s.customer_id")
    .select(["c.id", "c.phone", "s.expires_at"])
    .where("s.token_hash", "=", tokenHash)
    .executeTakeFirst();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom("onecard_customer_sessions").where("token_hash", "=", tokenHash).execute();
}
