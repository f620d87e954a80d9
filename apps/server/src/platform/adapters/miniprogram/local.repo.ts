import type { MpPlatform } from "@tessera/contracts";
import { sql, type Insertable, type Updateable } from "kysely";
import type { Executor, Tx } from "../../../db/tx";
import type { AccountType, MpSimAppsTable, MpSimAuditsTable, MpSimEventsTable, MpSimPreauthTable } from "./tables";
import { pageWindow, paginate } from "../../../db/paginate";

/** The local simulated platform's SQL (mp_sim_*): consent, apps and tokens, audits, quota, events, calls. */

export async function insertEvent(db: Executor, values: Insertable<MpSimEventsTable>): Promise<void> {
  await db.insertInto("mp_sim_events").values(values).execute();
}

/* ---------- consent ---------- */

export async function insertPreauth(db: Executor, values: Insertable<MpSimPreauthTable>): Promise<void> {
  await db.insertInto("mp_sim_preauth").values(values).execute();
}

export async function preauth(db: Executor, platform: MpPlatform, code: string) {
  return db
    .selectFrom("mp_sim_preauth")
    .selectAll()
    .where("code", "=", code)
    .where("platform", "=", platform)
    .executeTakeFirst();
}

export async function lockPreauth(tx: Tx, platform: MpPlatform, code: string) {
  return tx
    .selectFrom("mp_sim_preauth")
    .selectAll()
    .where("code", "=", code)
    .where("platform", "=", platform)
    .forUpdate()
    .executeTakeFirst();
}

/** The app of this nickname and account type on the platform, locked. */
export async function lockAppByName(tx: Tx, platform: MpPlatform, nickName: string, accountType: AccountType) {
  return tx
    .selectFrom("mp_sim_apps")
    .select(["app_id", "merchant_id"])
    .where("platform", "=", platform)
    .where("nick_name", "=", nickName)
    .where("account_type", "=", accountType)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateApp(db: Executor, appId: string, set: Updateable<MpSimAppsTable>): Promise<void> {
  await db.updateTable("mp_sim_apps").set(set).where("app_id", "=", appId).execute();
}

export async function insertApp(tx: Tx, values: Insertable<MpSimAppsTable>): Promise<void> {
  await tx.insertInto("mp_sim_apps").values(values).execute();
}

export async function usePreauth(tx: Tx, code: string, set: Updateable<MpSimPreauthTable>): Promise<void> {
  await tx.updateTable("mp_sim_preauth").set(set).where("code", "=", code).execute();
}

/** The app's authorisation cancelled; false when it was not authorised. */
export async function revokeApp(db: Executor, platform: MpPlatform, appId: string): Promise<boolean> {
  const res = await db
    .updateTable("mp_sim_apps")
    .set({ authorized: false })
    .where("app_id", "=", appId)
    .where("platform", "=", platform)
    .where("authorized", "=", true)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) !== 0;
}

export async function preauthByAuthCode(db: Executor, platform: MpPlatform, authCode: string) {
  return db
    .selectFrom("mp_sim_preauth")
    .selectAll()
    .where("auth_code", "=", authCode)
    .where("platform", "=", platform)
    .executeTakeFirst();
}

export async function appOn(db: Executor, platform: MpPlatform, appId: string) {
  return db
    .selectFrom("mp_sim_apps")
    .selectAll()
    .where("app_id", "=", appId)
    .where("platform", "=", platform)
    .executeTakeFirst();
}

/** The app an access token (current or previous) belongs to. */
export async function appByToken(db: Executor, platform: MpPlatform, accessToken: string) {
  return db
    .selectFrom("mp_sim_apps")
    .selectAll()
    .where("platform", "=", platform)
    .where((eb) => eb.or([eb("access_token", "=", accessToken), eb("previous_token", "=", accessToken)]))
    .executeTakeFirst();
}

export async function appById(db: Executor, appId: string) {
  return db.selectFrom("mp_sim_apps").selectAll().where("app_id", "=", appId).executeTakeFirst();
}

export async function lockApp(tx: Tx, appId: string): Promise<void> {
  await tx.selectFrom("mp_sim_apps").select("app_id").where("app_id", "=", appId).forUpdate().execute();
}

/* ---------- code, review, release ---------- */

export async function liveTemplate(tx: Tx, platform: MpPlatform, id: number) {
  return tx
    .selectFrom("mp_templates")
    .select(["id", "template_type"])
    .where("id", "=", id)
    .where("platform", "=", platform)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export async function quotaUsed(db: Executor, platform: MpPlatform, month: string) {
  return db
    .selectFrom("mp_sim_quota")
    .select("used")
    .where("platform", "=", platform)
    .where("month", "=", month)
    .executeTakeFirst();
}

/** The month's quota row (made when missing), locked. */
export async function lockQuota(tx: Tx, platform: MpPlatform, month: string) {
  await tx
    .insertInto("mp_sim_quota")
    .values({ platform, month, used: 0 })
    .onConflict((oc) => oc.columns(["platform", "month"]).doNothing())
    .execute();
  return tx
    .selectFrom("mp_sim_quota")
    .select("used")
    .where("platform", "=", platform)
    .where("month", "=", month)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function useQuota(tx: Tx, platform: MpPlatform, month: string): Promise<void> {
  await tx
    .updateTable("mp_sim_quota")
    .set({ used: sql<number>`used + 1` })
    .where("platform", "=", platform)
    .where("month", "=", month)
    .execute();
}

/** The app's audit in progress (submitted or delayed); locked when asked. */
export async function pendingAudit(tx: Tx, appId: string, lock: boolean) {
  const q = tx.selectFrom("mp_sim_audits").select("audit_id").where("app_id", "=", appId).where("status", "in", [2, 4]);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

export async function insertAudit(tx: Tx, values: Insertable<MpSimAuditsTable>) {
  return tx.insertInto("mp_sim_audits").values(values).returning("audit_id").executeTakeFirstOrThrow();
}

export async function auditOf(db: Executor, appId: string, auditId: number) {
  return db
    .selectFrom("mp_sim_audits")
    .selectAll()
    .where("audit_id", "=", auditId)
    .where("app_id", "=", appId)
    .executeTakeFirst();
}

/** The app's withdrawals today and this month. */
export async function withdrawCounts(db: Executor, appId: string, dayStart: Date, monthStart: Date) {
  return db
    .selectFrom("mp_sim_events")
    .select([sql<number>`count(*) filter (where at >= ${dayStart})`.as("today"), sql<number>`count(*)`.as("month")])
    .where("app_id", "=", appId)
    .where("event", "=", "undocodeaudit")
    .where("at", ">=", monthStart)
    .executeTakeFirstOrThrow();
}

export async function updateAudit(tx: Tx, auditId: number, set: Updateable<MpSimAuditsTable>): Promise<void> {
  await tx.updateTable("mp_sim_audits").set(set).where("audit_id", "=", auditId).execute();
}

/** The app's latest audit, locked. */
export async function lockLastAudit(tx: Tx, appId: string) {
  return tx
    .selectFrom("mp_sim_audits")
    .selectAll()
    .where("app_id", "=", appId)
    .orderBy("audit_id", "desc")
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** The release event of this audit, if it was released. */
export async function releaseOf(tx: Tx, appId: string, auditId: string) {
  return tx
    .selectFrom("mp_sim_events")
    .select("id")
    .where("app_id", "=", appId)
    .where("event", "=", "release")
    .where(sql<boolean>`payload->>'auditId' = ${auditId}`)
    .executeTakeFirst();
}

/* ---------- an official account's calls ---------- */

export async function insertCall(
  db: Executor,
  values: { platform: MpPlatform; app_id: string; operation: string; payload: string; at: Date },
): Promise<void> {
  await db.insertInto("mp_sim_calls").values(values).execute();
}

export async function calls(db: Executor, platform: MpPlatform, appId: string, limit: number) {
  return db
    .selectFrom("mp_sim_calls")
    .select(["operation", "payload", "at"])
    .where("app_id", "=", appId)
    .where("platform", "=", platform)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/* ---------- the review in the operator console ---------- */

export async function auditsPage(
  db: Executor,
  platform: MpPlatform,
  q: { status?: number; page: number; pageSize: number },
) {
  let base = db
    .selectFrom("mp_sim_audits as a")
    .innerJoin("mp_sim_apps as p", "p.app_id", "a.app_id")
    .where("a.platform", "=", platform);
  if (q.status !== undefined) base = base.where("a.status", "=", q.status);
  return paginate(base.selectAll("a").select("p.nick_name").orderBy("a.audit_id", "desc"), base, pageWindow(q));
}

export async function lockAudit(tx: Tx, platform: MpPlatform, auditId: number) {
  return tx
    .selectFrom("mp_sim_audits")
    .select(["audit_id", "app_id", "status"])
    .where("audit_id", "=", auditId)
    .where("platform", "=", platform)
    .forUpdate()
    .executeTakeFirst();
}

export async function auditOn(db: Executor, platform: MpPlatform, auditId: number) {
  return db
    .selectFrom("mp_sim_audits")
    .select("audit_id")
    .where("audit_id", "=", auditId)
    .where("platform", "=", platform)
    .executeTakeFirst();
}
