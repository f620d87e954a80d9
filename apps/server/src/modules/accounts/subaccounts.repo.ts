import type { Executor } from "../../db/tx";
import { authChanged } from "../../platform/auth/revision";
import { paginate } from "../../db/paginate";

/**
 * SQL of sub-accounts: users of a merchant whose `menus` is set. The merchant id is a required
 * argument of every query, so an owner only ever reaches its own merchant's sub-accounts.
 */
export async function searchSubAccounts(
  db: Executor,
  merchantId: number,
  q: { keyword?: string; limit: number; offset: number },
) {
  let query = db.selectFrom("users").where("merchant_id", "=", merchantId).where("menus", "is not", null);
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb("email", "ilike", like), eb("display_name", "ilike", like)]));
  }
  return paginate(
    query.select(["id", "email", "display_name", "menus", "disabled_at", "created_at"]).orderBy("id", "desc"),
    query,
    q,
  );
}

export function findSubAccount(db: Executor, merchantId: number, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "email", "display_name", "menus", "disabled_at", "created_at"])
    .where("id", "=", userId)
    .where("merchant_id", "=", merchantId)
    .where("menus", "is not", null)
    .executeTakeFirst();
}
export type SubAccountRow = NonNullable<Awaited<ReturnType<typeof findSubAccount>>>;

export async function insertSubAccount(
  tx: Executor,
  s: { merchantId: number; email: string; name: string; passwordHash: string; menus: string[] },
): Promise<number> {
  const row = await tx
    .insertInto("users")
    .values({
      kind: "merchant",
      merchant_id: s.merchantId,
      email: s.email,
      password_hash: s.passwordHash,
      display_name: s.name,
      menus: s.menus,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSubAccount(
  tx: Executor,
  merchantId: number,
  userId: number,
  changes: { name?: string; menus?: string[]; passwordHash?: string; disabled?: boolean; now: Date },
): Promise<void> {
  authChanged();
  await tx
    .updateTable("users")
    .set({
      ...(changes.name !== undefined && { display_name: changes.name }),
      ...(changes.menus !== undefined && { menus: changes.menus }),
      ...(changes.passwordHash !== undefined && {
        password_hash: changes.passwordHash,
        password_changed_at: changes.now,
      }),
      ...(changes.disabled !== undefined && { disabled_at: changes.disabled ? changes.now : null }),
      updated_at: changes.now,
    })
    .where("id", "=", userId)
    .where("merchant_id", "=", merchantId)
    .where("menus", "is not", null)
    .execute();
}

export function passwordHashOf(db: Executor, userId: number) {
  return db
    .selectFrom("users")
    .select("password_hash")
    .where("id", "=", userId)
    .where("disabled_at", "is", null)
    .executeTakeFirst();
}
