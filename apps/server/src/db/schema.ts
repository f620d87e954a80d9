import type { ColumnType, Generated } from "kysely";

/**
 * Row types of every table, for Kysely. Each table belongs to one module (see the migration that
 * creates it); only that module's repo.ts queries it.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Id = ColumnType<number, number | undefined, never>;

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

export interface MerchantsTable {
  id: Id;
  name: string;
  version: "domestic" | "international";
  country: string | null;
  currency: "CNY" | "USD" | "HKD";
  roles: ColumnType<string[], string[], string[]>;
  real_name_state: ColumnType<"not_verified" | "verified" | "expired", string | undefined, string>;
  api_permission: ColumnType<"opened" | "not_opened", string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Id;
  kind: "merchant" | "customer" | "operator";
  merchant_id: number | null;
  email: string;
  phone: string | null;
  password_hash: string;
  must_change_password: Generated<boolean>;
  disabled_at: Date | null;
  password_changed_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Id;
  user_id: number;
  token_hash: string;
  version: "domestic" | "international";
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
}

export interface VerificationCodesTable {
  id: Id;
  channel: "email" | "sms";
  target: string;
  scene: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface LoginThrottleTable {
  email: string;
  failures: number;
  last_failure_at: Timestamp;
  locked_until: Timestamp | null;
}

export interface DB {
  dev_outbox: DevOutboxTable;
  audit_log: AuditLogTable;
  merchants: MerchantsTable;
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  login_throttle: LoginThrottleTable;
}
