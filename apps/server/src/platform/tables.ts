import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../db/columns";

/** Tables owned by platform/ (migration 0001). */
export interface DevOutboxTable {
  id: Id;
  channel: "email" | "sms";
  recipient: string;
  subject: string;
  body: string;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Id;
  actor_user_id: number | null;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
}

export interface PlatformTables {
  dev_outbox: DevOutboxTable;
  audit_log: AuditLogTable;
}
