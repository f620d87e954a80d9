import type { Executor } from "../../db/tx";

/** SQL of clerks (sub-accounts bound to a store). Changes name the brand; reads a store found under it. */

/** A store's clerks, oldest first. */
export function clerksOf(db: Executor, storeId: number) {
  return db
    .selectFrom("store_clerks as c")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select(["c.user_id", "c.created_at", "u.email", "u.display_name"])
    .where("c.store_id", "=", storeId)
    .orderBy("c.created_at")
    .execute();
}

/** Binds a user to a store of the brand (moving it from another store). */
export async function bindClerk(tx: Executor, branderId: number, storeId: number, userId: number): Promise<void> {
  await tx
    .insertInto("store_clerks")
    .values({ user_id: userId, store_id: storeId, brander_id: branderId })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ store_id: storeId, brander_id: branderId }))
    .execute();
}

/** Unbinds a clerk from the brand's store; whether it was one. */
export async function unbindClerk(db: Executor, branderId: number, storeId: number, userId: number): Promise<boolean> {
  const r = await db
    .deleteFrom("store_clerks")
    .where("user_id", "=", userId)
    .where("store_id", "=", storeId)
    .where("brander_id", "=", branderId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The live store a user works at (a clerk), if any. */
export function storeOfClerk(db: Executor, userId: number) {
  return db
    .selectFrom("store_clerks as c")
    .innerJoin("stores as s", "s.id", "c.store_id")
    .selectAll("s")
    .where("c.user_id", "=", userId)
    .where("s.deleted_at", "is", null)
    .executeTakeFirst();
}
