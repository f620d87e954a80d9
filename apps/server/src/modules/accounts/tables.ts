import type { ColumnType, Generated } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the accounts module (migration 0003). */
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
  /** A sub-account's own name (migration 0009). */
  display_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The pages a sub-account may open; null for a main account (migration 0009). */
  menus: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
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

export interface AccountsTables {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  login_throttle: LoginThrottleTable;
}
