import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../../db/columns";

/**
 * Tables of the local mini-program platform (the sandbox adapter; migrations 0103, 0106, 0122): what a
 * real platform would keep on its side, kept here so the local one behaves like it. jsonb columns are
 * written as JSON text.
 */
type Platform = "wechat" | "douyin";
type Json<T> = ColumnType<T, string | undefined, string>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface SimVersion {
  templateId: number;
  extJson: string;
  userVersion: string;
  userDesc: string;
  at: string;
}

export interface AuditItem {
  firstClass: string;
  secondClass: string;
}

export interface MpSimPreauthTable {
  code: string;
  platform: Platform;
  redirect_uri: string;
  expires_at: Timestamp;
  auth_code: Nullable<string>;
  auth_code_expires_at: NullableTime;
  app_id: Nullable<string>;
  used_at: NullableTime;
  /** Migration 0106: what the consent is for. */
  account_type: Defaulted<AccountType>;
  /** Migration 0122: the merchant that asked for the consent (null: asked before that). */
  merchant_id: Nullable<number>;
}

export interface MpSimAppsTable {
  app_id: string;
  platform: Platform;
  nick_name: string;
  access_token: string;
  access_expires_at: Timestamp;
  previous_token: Nullable<string>;
  previous_until: NullableTime;
  refresh_token: string;
  authorized: Defaulted<boolean>;
  trial: ColumnType<SimVersion | null, string | null | undefined, string | null>;
  online: ColumnType<SimVersion | null, string | null | undefined, string | null>;
  history: Json<SimVersion[]>;
  can_rollback: Defaulted<boolean>;
  rolled_back_at: NullableTime;
  created_at: Timestamp;
  account_type: Defaulted<AccountType>;
  /** Migration 0122: the merchant whose consent made the app; only it may authorise the app again. */
  merchant_id: Nullable<number>;
}

export interface MpSimAuditsTable {
  audit_id: Id;
  app_id: string;
  platform: Platform;
  status: Defaulted<number>;
  version: Json<SimVersion>;
  item_list: Json<AuditItem[]>;
  host_names: Json<string[]>;
  reason: Nullable<string>;
  screenshots: Json<string[]>;
  submitted_at: Timestamp;
  decided_at: NullableTime;
  decided_by: Nullable<number>;
}

export interface MpSimQuotaTable {
  platform: Platform;
  month: string;
  used: Defaulted<number>;
}

export interface MpSimEventsTable {
  id: Id;
  platform: string;
  app_id: string;
  event: string;
  payload: Json<Record<string, unknown>>;
  at: Timestamp;
}

/** The kind of account a consent authorises: a mini-program, an official account (公众号), a local-life account. */
export type AccountType = "miniprogram" | "official" | "life";

/** Calls the local platform answered for an official account (what it would have sent). */
export interface MpSimCallsTable {
  id: Id;
  platform: Platform;
  app_id: string;
  operation: string;
  payload: Json<Record<string, unknown>>;
  at: Timestamp;
}

export interface MiniprogramSimTables {
  mp_sim_calls: MpSimCallsTable;
  mp_sim_preauth: MpSimPreauthTable;
  mp_sim_apps: MpSimAppsTable;
  mp_sim_audits: MpSimAuditsTable;
  mp_sim_quota: MpSimQuotaTable;
  mp_sim_events: MpSimEventsTable;
}
