import type { Insertable } from "kysely";
import type { Executor } from "../db/tx";
import type { DB } from "../db/schema";

/** SQL of the audit log: one insert, in the caller's transaction. */
export async function insertAuditRow(tx: Executor, row: Insertable<DB["audit_log"]>): Promise<void> {
  await tx.insertInto("audit_log").values(row).execute();
}
