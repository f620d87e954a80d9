import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the miniprogram module (migration 0103). jsonb columns are written as JSON text. */
import type { AccountType, AuditItem } from "../../platform/adapters/miniprogram/tables";

export type { AccountType };
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
  mp_accounts: MpAccountsTable;
  mp_templates: MpTemplatesTable;
  mp_configs: MpConfigsTable;
  mp_authorizers: MpAuthorizersTable;
  mp_versions: MpVersionsTable;
}
