import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

type Json = ColumnType<unknown, string | null, never>;

/** Tables owned by the ops module (migration 0009). The audit log is append-only (a trigger refuses changes). */
export interface OpsAuditLogTable {
  id: Id;
  operator_user_id: number;
  action: string;
  subject_type: string;
  subject_id: string;
  before: Json;
  after: Json;
  reason: string | null;
  ip: string | null;
  created_at: Timestamp;
}

export interface OpsTables {
  ops_audit_log: OpsAuditLogTable;
}
