import type { MpPlatform } from "@tessera/contracts";
import type { Insertable, Updateable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { MpTemplatesTable } from "./tables";

/** The template library's SQL (mp_templates) and a config's template choice. */

/** Sets the config's template and its params. */
export async function setConfigTemplate(
  db: Executor,
  merchantId: number,
  configId: number,
  set: { template_id: number; template_params: string; updated_at: Date },
): Promise<void> {
  await db
    .updateTable("mp_configs")
    .set(set)
    .where("id", "=", configId)
    .where("merchant_id", "=", merchantId)
    .execute();
}

/** How many templates the platform's library holds (deleted ones aside). */
export async function countLive(tx: Tx, platform: MpPlatform) {
  return tx
    .selectFrom("mp_templates")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("platform", "=", platform)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
}

export async function insertTemplate(tx: Tx, values: Insertable<MpTemplatesTable>) {
  return tx.insertInto("mp_templates").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateTemplate(db: Executor, id: number, set: Updateable<MpTemplatesTable>) {
  return db.updateTable("mp_templates").set(set).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/** A config that uses the template, if any. */
export async function configUsing(db: Executor, templateId: number) {
  return db.selectFrom("mp_configs").select("id").where("template_id", "=", templateId).limit(1).executeTakeFirst();
}

/** The template leaves the library (kept for the versions committed from it). */
export async function deleteTemplate(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable("mp_templates").set({ deleted_at: now }).where("id", "=", id).execute();
}
