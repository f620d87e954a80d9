import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the miniprogram module (migration 0103). jsonb columns are written as JSON text. */
type Platform = "wechat" | "douyin";
type Json<T> = ColumnType<T, string | undefined, string>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface MenuItem {
  title: string;
  target: string;
}
export interface TemplateParamDef {
  key: string;
  label: string;
  type: "text" | "color" | "boolean" | "number";
  default: string;
}
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

export interface MpTemplatesTable {
  id: Id;
  platform: Platform;
  name: string;
  template_type: Defaulted<number>;
  user_version: string;
  description: Defaulted<string>;
  params: Json<TemplateParamDef[]>;
  deleted_at: NullableTime;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MpConfigsTable {
  id: Id;
  merchant_id: number;
  platform: Platform;
  config_code: string;
  name: string;
  template_id: Nullable<number>;
  template_params: Json<Record<string, string>>;
  theme: Defaulted<number>;
  nav_menus: Json<MenuItem[]>;
  bottom_menus: Json<MenuItem[]>;
  customer_service: Nullable<string>;
  domain: Nullable<string>;
  sms_signature: Nullable<string>;
  pay_on_platform: Defaulted<boolean>;
  validity_days: Nullable<number>;
  allow_topup_account_change: Defaulted<boolean>;
  category: Defaulted<string>;
  description: Defaulted<string>;
  app_id: Nullable<string>;
  audit_state: Defaulted<"not_submitted" | "auditing" | "delayed" | "approved" | "rejected" | "withdrawn">;
  publish_state: Defaulted<"unpublished" | "published">;
  created_by: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MpAuthorizersTable {
  app_id: string;
  platform: Platform;
  merchant_id: number;
  config_id: number;
  access_token: string;
  access_expires_at: Timestamp;
  refresh_token: string;
  scopes: Json<string[]>;
  state: Defaulted<"authorized" | "unauthorized">;
  authorized_at: Timestamp;
  updated_at: Timestamp;
}

export type VersionState =
  | "trial"
  | "auditing"
  | "delayed"
  | "approved"
  | "rejected"
  | "withdrawn"
  | "released"
  | "superseded"
  | "rolled_back"
  | "replaced";

export interface MpVersionsTable {
  id: Id;
  config_id: number;
  merchant_id: number;
  app_id: string;
  template_id: number;
  user_version: string;
  user_desc: Defaulted<string>;
  ext_json: string;
  appearance: Json<unknown>;
  state: Defaulted<VersionState>;
  audit_id: Nullable<string>;
  categories: Json<AuditItem[]>;
  host_names: Json<string[]>;
  version_desc: Defaulted<string>;
  reason: Nullable<string>;
  screenshots: Json<string[]>;
  committed_at: Timestamp;
  submitted_at: NullableTime;
  decided_at: NullableTime;
  released_at: NullableTime;
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

/** An official account or local-life account a merchant bound (migration 0106). */
export interface MpAccountsTable {
  id: Id;
  kind: "official" | "life";
  platform: Platform;
  merchant_id: number;
  brand_id: Defaulted<number>;
  app_id: string;
  nick_name: string;
  scopes: Json<string[]>;
  access_token: string;
  access_expires_at: Timestamp;
  refresh_token: string;
  state: Defaulted<"authorized" | "unauthorized" | "unbound">;
  /** The official account's menu buttons (view links). */
  menu: ColumnType<{ name: string; url: string }[] | null, string | null | undefined, string | null>;
  authorized_at: Timestamp;
  updated_at: Timestamp;
}

export interface MiniprogramTables {
  mp_sim_calls: MpSimCallsTable;
  mp_accounts: MpAccountsTable;
  mp_templates: MpTemplatesTable;
  mp_configs: MpConfigsTable;
  mp_authorizers: MpAuthorizersTable;
  mp_versions: MpVersionsTable;
  mp_sim_preauth: MpSimPreauthTable;
  mp_sim_apps: MpSimAppsTable;
  mp_sim_audits: MpSimAuditsTable;
  mp_sim_quota: MpSimQuotaTable;
  mp_sim_events: MpSimEventsTable;
}
