import type { MpPlatform } from "@tessera/contracts";
import { sql, type Insertable, type Updateable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { MpConfigsTable, MpVersionsTable, VersionState } from "./tables";

/** The code pipeline's SQL: versions (mp_versions) as they are committed, reviewed, released, rolled back. */

/** The config's experience version is replaced by a new commit. */
export async function replaceTrial(tx: Tx, configId: number): Promise<void> {
  await tx
    .updateTable("mp_versions")
    .set({ state: "replaced" })
    .where("config_id", "=", configId)
    .where("state", "=", "trial")
    .execute();
}

export async function insertVersion(tx: Tx, values: Insertable<MpVersionsTable>): Promise<void> {
  await tx.insertInto("mp_versions").values(values).execute();
}

/** A new row for a version submitted again (its id). */
export async function copyVersion(tx: Tx, values: Insertable<MpVersionsTable>) {
  return tx.insertInto("mp_versions").values(values).returning("id").executeTakeFirstOrThrow();
}

/** The config's review and publish states. */
export async function setConfigStates(tx: Tx, configId: number, set: Updateable<MpConfigsTable>): Promise<void> {
  await tx.updateTable("mp_configs").set(set).where("id", "=", configId).execute();
}

/** The config's versions in review are withdrawn. */
export async function withdrawInReview(tx: Tx, configId: number, now: Date): Promise<void> {
  await tx
    .updateTable("mp_versions")
    .set({ state: "withdrawn", decided_at: now })
    .where("config_id", "=", configId)
    .where("state", "in", ["auditing", "delayed"])
    .execute();
}

export async function latestApproved(tx: Tx, configId: number) {
  return tx
    .selectFrom("mp_versions")
    .select("id")
    .where("config_id", "=", configId)
    .where("state", "=", "approved")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The config's released version leaves (superseded by a release, or rolled back). */
export async function setReleasedState(tx: Tx, configId: number, state: VersionState): Promise<void> {
  await tx
    .updateTable("mp_versions")
    .set({ state })
    .where("config_id", "=", configId)
    .where("state", "=", "released")
    .execute();
}

/** The release before the current one. */
export async function previousRelease(tx: Tx, configId: number) {
  return tx
    .selectFrom("mp_versions")
    .select("id")
    .where("config_id", "=", configId)
    .where("state", "=", "superseded")
    .orderBy("released_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** A version of the merchant's whose rejection carries this screenshot. */
export async function versionWithScreenshot(db: Executor, merchantId: number, key: string) {
  return db
    .selectFrom("mp_versions")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where(sql<boolean>`screenshots @> ${JSON.stringify([key])}::jsonb`)
    .executeTakeFirst();
}

/** The version of an app under this audit, locked for the push's update. */
export async function lockVersionByAudit(tx: Tx, appId: string, auditId: string) {
  return tx
    .selectFrom("mp_versions")
    .selectAll()
    .where("audit_id", "=", auditId)
    .where("app_id", "=", appId)
    .forUpdate()
    .executeTakeFirst();
}

/** The review state of a config on this platform. */
export async function setAuditStateOn(
  tx: Tx,
  configId: number,
  platform: MpPlatform,
  state: "approved" | "rejected" | "delayed",
  now: Date,
): Promise<void> {
  await tx
    .updateTable("mp_configs")
    .set({ audit_state: state, updated_at: now })
    .where("id", "=", configId)
    .where("platform", "=", platform)
    .execute();
}
