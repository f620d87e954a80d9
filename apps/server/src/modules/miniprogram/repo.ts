import type { MpPlatform } from "@tessera/contracts";
import type { Insertable, Selectable, Updateable } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor, Tx } from "../../db/tx";
import type { MpAuthorizersTable, MpConfigsTable, MpTemplatesTable, MpVersionsTable, VersionState } from "./tables";

/** SQL of the miniprogram module. Merchant rows take the tenant id as a required argument. */
export type ConfigRow = Selectable<MpConfigsTable>;
export type VersionRow = Selectable<MpVersionsTable>;
export type TemplateRow = Selectable<MpTemplatesTable>;
export type AuthorizerRow = Selectable<MpAuthorizersTable>;

export async function findConfig(
  db: Executor,
  merchantId: number,
  id: number,
  lock = false,
): Promise<ConfigRow | undefined> {
  let q = db.selectFrom("mp_configs").selectAll().where("merchant_id", "=", merchantId).where("id", "=", id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function listConfigs(
  db: Executor,
  merchantId: number,
  q: { platform?: MpPlatform; name?: string; page: number; pageSize: number },
) {
  let base = db.selectFrom("mp_configs").where("merchant_id", "=", merchantId);
  if (q.platform) base = base.where("platform", "=", q.platform);
  if (q.name) base = base.where("name", "like", `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return paginate(base.selectAll().orderBy("id", "desc"), base, pageWindow(q));
}

export async function allConfigs(db: Executor, merchantId: number): Promise<ConfigRow[]> {
  return db
    .selectFrom("mp_configs")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
}

export async function configByCode(db: Executor, merchantId: number, platform: MpPlatform, code: string) {
  return db
    .selectFrom("mp_configs")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("platform", "=", platform)
    .where("config_code", "=", code)
    .executeTakeFirst();
}

export async function configByApp(db: Executor, appId: string): Promise<ConfigRow | undefined> {
  return db.selectFrom("mp_configs").selectAll().where("app_id", "=", appId).executeTakeFirst();
}

export async function versionsOf(
  db: Executor,
  merchantId: number,
  configId: number,
  limit = 50,
): Promise<VersionRow[]> {
  return db
    .selectFrom("mp_versions")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("config_id", "=", configId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function versionsOfConfigs(db: Executor, merchantId: number, configIds: number[]): Promise<VersionRow[]> {
  if (configIds.length === 0) return [];
  return db
    .selectFrom("mp_versions")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("config_id", "in", configIds)
    .where("state", "!=", "replaced")
    .orderBy("id", "desc")
    .execute();
}

export async function setVersionState(
  db: Executor,
  id: number,
  state: VersionState,
  extra: Partial<{
    reason: string | null;
    screenshots: string;
    decided_at: Date;
    released_at: Date;
    submitted_at: Date;
    audit_id: string;
    categories: string;
    host_names: string;
    version_desc: string;
  }> = {},
) {
  await db
    .updateTable("mp_versions")
    .set({ state, ...extra })
    .where("id", "=", id)
    .execute();
}

export async function findAuthorizer(db: Executor, appId: string): Promise<AuthorizerRow | undefined> {
  return db.selectFrom("mp_authorizers").selectAll().where("app_id", "=", appId).executeTakeFirst();
}

export async function templates(db: Executor, platform: MpPlatform): Promise<TemplateRow[]> {
  return db
    .selectFrom("mp_templates")
    .selectAll()
    .where("platform", "=", platform)
    .where("deleted_at", "is", null)
    .orderBy("id", "desc")
    .limit(200)
    .execute();
}

export async function findTemplate(db: Executor, id: number): Promise<TemplateRow | undefined> {
  return db
    .selectFrom("mp_templates")
    .selectAll()
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** The app id of a merchant's released mall (its latest release, WeChat before Douyin), or null. */
export async function releasedMallApp(db: Executor, merchantId: number): Promise<string | null> {
  const row = await db
    .selectFrom("mp_versions as v")
    .innerJoin("mp_configs as c", "c.id", "v.config_id")
    .select("v.app_id")
    .where("v.merchant_id", "=", merchantId)
    .where("c.merchant_id", "=", merchantId)
    .where("v.state", "=", "released")
    .whereRef("v.app_id", "=", "c.app_id")
    .orderBy((eb) => eb.case().when("c.platform", "=", "wechat").then(0).else(1).end())
    .orderBy("v.released_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.app_id ?? null;
}

/* ---------- configs and their authorisation ---------- */

type ConfigValues = Updateable<MpConfigsTable>;

export async function updateConfig(tx: Tx, merchantId: number, id: number, values: ConfigValues): Promise<void> {
  await tx.updateTable("mp_configs").set(values).where("id", "=", id).where("merchant_id", "=", merchantId).execute();
}

export async function insertConfig(
  tx: Tx,
  merchantId: number,
  values: Omit<Insertable<MpConfigsTable>, "merchant_id" | "platform" | "created_by" | "created_at">,
  more: { platform: MpPlatform; createdBy: number; createdAt: Date },
): Promise<number> {
  const row = await tx
    .insertInto("mp_configs")
    .values({
      ...values,
      merchant_id: merchantId,
      platform: more.platform,
      created_by: more.createdBy,
      created_at: more.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The config an app is bound to, if any (whoever's). */
export async function configIdOfApp(db: Executor, appId: string) {
  return db.selectFrom("mp_configs").select(["id"]).where("app_id", "=", appId).executeTakeFirst();
}

/** One version of the config, if it has any. */
export async function anyVersion(db: Executor, configId: number) {
  return db.selectFrom("mp_versions").select("id").where("config_id", "=", configId).limit(1).executeTakeFirst();
}

export async function updateAuthorizer(
  db: Executor,
  appId: string,
  set: Updateable<MpAuthorizersTable>,
): Promise<void> {
  await db.updateTable("mp_authorizers").set(set).where("app_id", "=", appId).execute();
}

export async function insertAuthorizer(
  tx: Tx,
  appId: string,
  row: Omit<Insertable<MpAuthorizersTable>, "app_id">,
): Promise<void> {
  await tx
    .insertInto("mp_authorizers")
    .values({ app_id: appId, ...row })
    .execute();
}

/** Binds an app to a config (authorised just now). */
export async function bindConfigApp(tx: Tx, configId: number, appId: string, now: Date): Promise<void> {
  await tx.updateTable("mp_configs").set({ app_id: appId, updated_at: now }).where("id", "=", configId).execute();
}

/** The merchant of each of these apps' configs. */
export async function configMerchantsOfApps(db: Executor, appIds: string[]) {
  return db.selectFrom("mp_configs").select(["app_id", "merchant_id"]).where("app_id", "in", appIds).execute();
}

/** The appearance of the config's released version, or of its latest committed one ("beta"). */
export async function appearanceRow(db: Executor, configId: number, appId: string, version: "beta" | "release") {
  let q = db
    .selectFrom("mp_versions")
    .select("appearance")
    .where("config_id", "=", configId)
    .where("app_id", "=", appId);
  q = version === "release" ? q.where("state", "=", "released") : q.where("state", "!=", "replaced");
  return q.orderBy("id", "desc").limit(1).executeTakeFirst();
}

export async function templatesByIds(db: Executor, ids: number[]): Promise<TemplateRow[]> {
  return db.selectFrom("mp_templates").selectAll().where("id", "in", ids).execute();
}

export async function authorizerStates(db: Executor, appIds: string[]) {
  return db.selectFrom("mp_authorizers").select(["app_id", "state"]).where("app_id", "in", appIds).execute();
}

/** How far a merchant's mall mini-program is (the home's setup checklist): configured, authorised, released. */
export async function mallAppSetup(
  db: Executor,
  merchantId: number,
): Promise<{ configs: number; authorized: boolean; released: boolean }> {
  const rows = await db
    .selectFrom("mp_configs")
    .select(["app_id", "publish_state"])
    .where("merchant_id", "=", merchantId)
    .execute();
  return {
    configs: rows.length,
    authorized: rows.some((r) => r.app_id !== null),
    released: rows.some((r) => r.publish_state === "published"),
  };
}
