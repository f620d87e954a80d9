import type { ColumnType, Generated } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the stores module (migrations 0092 and 0093). */
export interface StoreDistrictsTable {
  id: Id;
  brander_id: number;
  name: string;
  remark: ColumnType<string, string | undefined, string>;
  created_at: Generated<Date>;
}

export type StoreState = "open" | "closed";

export interface StoresTable {
  id: Id;
  brander_id: number;
  name: string;
  province_code: string;
  city_code: string;
  county_code: string;
  address: string;
  lng: number | null;
  lat: number | null;
  opening_hours: ColumnType<string, string | undefined, string>;
  contact_name: ColumnType<string, string | undefined, string>;
  contact_phone: ColumnType<string, string | undefined, string>;
  state: ColumnType<StoreState, StoreState | undefined, StoreState>;
  district_id: number | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

export interface StoreClerksTable {
  user_id: number;
  store_id: number;
  brander_id: number;
  created_at: Generated<Date>;
}

export interface StoreQrCodesTable {
  id: Id;
  brander_id: number;
  store_id: number | null;
  kind: "shop" | "mall";
  token: string;
  name: ColumnType<string, string | undefined, string>;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface StoreImportsTable {
  id: Id;
  brander_id: number;
  file_name: string;
  imported: ColumnType<number, number | undefined, number>;
  rejected: ColumnType<number, number | undefined, number>;
  created_by: number;
  created_at: Generated<Date>;
}

export interface StoreImportRejectsTable {
  import_id: number;
  row_no: number;
  reason: string;
  name: ColumnType<string, string | undefined, string>;
}

export type RedemptionSource = "coupon" | "onecard";

export interface StoreRedemptionsTable {
  id: Id;
  brander_id: number;
  store_id: number;
  clerk_id: number;
  source: RedemptionSource;
  /** The supply card's or the one-card card's id. */
  source_id: number;
  /** A coupon once per code; a card once per request key. */
  dedupe_key: string;
  request_key: string;
  item_name: string;
  code_mask: string;
  /** What the customer got (face value of the coupon, amount taken off the card). */
  value: number;
  /** What the brand is settled for it (what the purchaser paid for the code; for a card, the amount taken off). */
  settle_amount: number;
  /** What the order escrow holds for the brand until this redemption is settled (store vouchers; migration 0114). */
  held_amount: ColumnType<number, number | undefined, never>;
  currency: "CNY" | "USD" | "HKD";
  purchaser_id: number | null;
  order_ref: string | null;
  day: string;
  doc_id: number | null;
  created_at: Timestamp;
}

export interface StoreSettlementDocsTable {
  id: Id;
  brander_id: number;
  store_id: number;
  day: string;
  currency: "CNY" | "USD" | "HKD";
  part: ColumnType<number, number | undefined, never>;
  count: number;
  value: number;
  amount: number;
  /** Paid into the brand's income by this document (migration 0114). */
  paid: ColumnType<number, number | undefined, number>;
  state: ColumnType<"settled", "settled" | undefined, "settled">;
  ledger_tx_id: number | null;
  created_at: Timestamp;
}

/** Migration 0107: where a goods' codes are redeemable (no rows: all the brand's stores). */
export interface StoreGoodsRestrictionsTable {
  goods_id: number;
  store_id: number;
  brander_id: number;
  created_at: Timestamp;
}

/** Migration 0107: customers' dynamic codes for their one-card cards (read and written by onecard/dyncode.ts). */
export interface OnecardDynamicCodesTable {
  id: Id;
  code_hash: string;
  card_id: number;
  customer_id: number;
  brander_id: number;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  used_ref: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface StoresTables {
  store_districts: StoreDistrictsTable;
  stores: StoresTable;
  store_clerks: StoreClerksTable;
  store_qr_codes: StoreQrCodesTable;
  store_imports: StoreImportsTable;
  store_import_rejects: StoreImportRejectsTable;
  store_redemptions: StoreRedemptionsTable;
  store_settlement_docs: StoreSettlementDocsTable;
  store_goods_restrictions: StoreGoodsRestrictionsTable;
  onecard_dynamic_codes: OnecardDynamicCodesTable;
}
