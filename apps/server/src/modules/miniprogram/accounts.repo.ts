import type { MpAccountKind } from "@tessera/contracts";
import type { Updateable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { MpAccountsTable } from "./tables";

/** The SQL of bound official and local-life accounts (mp_accounts), and the malls an official menu links to. */

/** The merchant's live binding of this kind (and brand). */
export async function liveAccount(db: Executor, merchantId: number, kind: MpAccountKind, brandId: number) {
  return db
    .selectFrom("mp_accounts")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", kind)
    .where("brand_id", "=", brandId)
    .where("state", "=", "authorized")
    .executeTakeFirst();
}

/** The merchant's latest binding of this kind (and brand), live or not. */
export async function latestAccount(db: Executor, merchantId: number, kind: MpAccountKind, brandId: number) {
  return db
    .selectFrom("mp_accounts")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", kind)
    .where("brand_id", "=", brandId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The live binding of an app, locked (whoever holds it). */
export async function lockLiveByApp(tx: Tx, appId: string) {
  return tx
    .selectFrom("mp_accounts")
    .select(["id", "merchant_id", "brand_id", "kind"])
    .where("app_id", "=", appId)
    .where("state", "=", "authorized")
    .forUpdate()
    .executeTakeFirst();
}

export async function updateAccount(db: Executor, id: number, set: Updateable<MpAccountsTable>): Promise<void> {
  await db.updateTable("mp_accounts").set(set).where("id", "=", id).execute();
}

/** Ends the merchant's live binding of this kind (and brand): its id, or undefined when none was live. */
export async function unbindLive(tx: Tx, merchantId: number, kind: MpAccountKind, brandId: number, now: Date) {
  return tx
    .updateTable("mp_accounts")
    .set({ state: "unbound", updated_at: now })
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", kind)
    .where("brand_id", "=", brandId)
    .where("state", "=", "authorized")
    .returning("id")
    .executeTakeFirst();
}

/** Another account bound before this one: its live binding ends (no answer needed). */
export async function replaceLive(
  tx: Tx,
  merchantId: number,
  kind: MpAccountKind,
  brandId: number,
  now: Date,
): Promise<void> {
  await tx
    .updateTable("mp_accounts")
    .set({ state: "unbound", updated_at: now })
    .where("merchant_id", "=", merchantId)
    .where("kind", "=", kind)
    .where("brand_id", "=", brandId)
    .where("state", "=", "authorized")
    .execute();
}

export async function insertAccount(
  tx: Tx,
  merchantId: number,
  a: { kind: MpAccountKind; platform: "wechat" | "douyin"; brandId: number; appId: string },
  values: {
    nick_name: string;
    scopes: string;
    access_token: string;
    access_expires_at: Date;
    refresh_token: string;
    authorized_at: Date;
    updated_at: Date;
  },
): Promise<number> {
  return (
    await tx
      .insertInto("mp_accounts")
      .values({
        kind: a.kind,
        platform: a.platform,
        merchant_id: merchantId,
        brand_id: a.brandId,
        app_id: a.appId,
        ...values,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

export async function accountById(db: Executor, id: number) {
  return db.selectFrom("mp_accounts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** The platform says the app cancelled its authorisation: its live binding ends. */
export async function markAppUnauthorized(db: Executor, appId: string, now: Date): Promise<void> {
  await db
    .updateTable("mp_accounts")
    .set({ state: "unauthorized", updated_at: now })
    .where("app_id", "=", appId)
    .where("state", "=", "authorized")
    .execute();
}

/** The merchant's first three released malls (by id). */
export async function publishedMalls(db: Executor, merchantId: number) {
  return db
    .selectFrom("mp_configs")
    .select(["name", "app_id"])
    .where("merchant_id", "=", merchantId)
    .where("publish_state", "=", "published")
    .where("app_id", "is not", null)
    .orderBy("id")
    .limit(3)
    .execute();
}
