import type { Executor } from "../../db/tx";
import { authChanged } from "../../platform/auth/revision";
import { paginate } from "../../db/paginate";

export interface NewMerchant {
  name: string;
  version: "domestic" | "international";
  country: string | null;
  currency: "CNY" | "USD" | "HKD";
  roles: string[];
}

export async function insertMerchant(tx: Executor, m: NewMerchant): Promise<number> {
  const row = await tx.insertInto("merchants").values(m).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export function findMerchant(db: Executor, merchantId: number) {
  return db.selectFrom("merchants").selectAll().where("id", "=", merchantId).executeTakeFirst();
}

export async function updateMerchant(
  tx: Executor,
  merchantId: number,
  changes: {
    name?: string;
    realNameState?: "not_verified" | "verified" | "expired";
    apiPermission?: "opened" | "not_opened";
    roles?: string[];
    now: Date;
  },
): Promise<void> {
  // Sessions carry their merchant's roles.
  if (changes.roles !== undefined) authChanged();
  await tx
    .updateTable("merchants")
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.roles !== undefined && { roles: changes.roles }),
      ...(changes.realNameState !== undefined && { real_name_state: changes.realNameState }),
      ...(changes.apiPermission !== undefined && { api_permission: changes.apiPermission }),
      updated_at: changes.now,
    })
    .where("id", "=", merchantId)
    .execute();
}

/** Locks the merchant row for a state change made in this transaction. */
export function lockMerchant(tx: Executor, merchantId: number) {
  return tx.selectFrom("merchants").selectAll().where("id", "=", merchantId).forUpdate().executeTakeFirst();
}

export interface MerchantFilter {
  keyword?: string;
  realNameState?: "not_verified" | "verified" | "expired";
  apiPermission?: "opened" | "not_opened";
  limit: number;
  offset: number;
}

/**
 * Operator search: by id, part of the name or the main account's e-mail. The owner is the merchant's
 * first user without menus (sub-accounts have menus).
 */
export async function searchMerchants(db: Executor, f: MerchantFilter) {
  let q = db.selectFrom("merchants as m");
  if (f.keyword) {
    const kw = f.keyword;
    const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        ...(/^\d{1,18}$/.test(kw) ? [eb("m.id", "=", Number(kw))] : []),
        eb("m.name", "ilike", like),
        eb.exists(
          eb
            .selectFrom("users as u")
            .select("u.id")
            .whereRef("u.merchant_id", "=", "m.id")
            .where("u.email", "ilike", like),
        ),
      ]),
    );
  }
  if (f.realNameState) q = q.where("m.real_name_state", "=", f.realNameState);
  if (f.apiPermission) q = q.where("m.api_permission", "=", f.apiPermission);
  return paginate(
    q
      .selectAll("m")
      .select((eb) =>
        eb
          .selectFrom("users as o")
          .select("o.email")
          .whereRef("o.merchant_id", "=", "m.id")
          .where("o.menus", "is", null)
          .orderBy("o.id")
          .limit(1)
          .as("owner_email"),
      )
      .orderBy("m.id", "desc"),
    q,
    f,
  );
}

export function namesOf(db: Executor, ids: number[]) {
  return db.selectFrom("merchants").select(["id", "name"]).where("id", "in", ids).execute();
}
