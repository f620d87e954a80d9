import type { Executor } from "../db/tx";
import { insertAuditRow } from "./audit.repo";

export interface AuditEntry {
  actorUserId: number | null;
  action: string;
  subjectType: string;
  subjectId: string | number;
  detail?: Record<string, unknown>;
}

/** Writes an audit row in the caller's transaction, so the record exists exactly when the change does. */
export async function audit(tx: Executor, entry: AuditEntry): Promise<void> {
  await insertAuditRow(tx, {
    actor_user_id: entry.actorUserId,
    action: entry.action,
    subject_type: entry.subjectType,
    subject_id: String(entry.subjectId),
    detail: JSON.stringify(entry.detail ?? {}),
  });
}
