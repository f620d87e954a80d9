import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the onecard module (migration 0091). */
type Currency = "CNY" | "USD" | "HKD";
type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface OnecardProductsTable {
  id: Id;
  brander_id: number;
  kind: "face_value" | "discount" | "guide";
  name: string;
  face_value: number;
  sale_price: number;
  currency: Currency;
  named: boolean;
  validity_kind: "fixed" | "days" | "none";
  valid_until: Nullable<string>;
  valid_days: Nullable<number>;
  recharge_allowed: boolean;
  scope: Defaulted<string>;
  terms: Defaulted<string>;
  on_sale: Defaulted<boolean>;
  created_at: Timestamp;
}

export interface OnecardBatchesTable {
  id: Id;
  product_id: number;
  brander_id: number;
  count: number;
  request_key: string;
  created_by: number;
  created_at: Timestamp;
}

export interface OnecardSalesTable {
  id: Id;
  purchaser_id: number;
  brander_id: number;
  product_id: number;
  quantity: number;
  unit_price: number;
  face_value: number;
  currency: Currency;
  request_key: string;
  created_by: number;
  created_at: Timestamp;
}

export interface OnecardActivationsTable {
  id: Id;
  purchaser_id: number;
  count: number;
  amount: number;
  request_key: string;
  created_by: number;
  created_at: Timestamp;
}

export interface OnecardReturnsTable {
  id: Id;
  purchaser_id: number;
  count: number;
  amount: number;
  currency: Currency;
  reason: Defaulted<string>;
  request_key: string;
  created_by: number;
  created_at: Timestamp;
}

export interface OnecardCustomersTable {
  id: Id;
  phone: string;
  created_at: Timestamp;
}

export interface OnecardCustomerSessionsTable {
  id: Id;
  customer_id: number;
  token_hash: string;
  expires_at: Date;
  created_at: Timestamp;
}

export type OnecardCardState = "issued" | "sold" | "activated" | "frozen" | "expired" | "returned" | "void";

export interface OnecardCardsTable {
  id: Id;
  batch_id: number;
  serial: number;
  product_id: number;
  brander_id: number;
  no_hash: string;
  no_masked: string;
  sealed: string;
  pwd_hash: string;
  state: Defaulted<OnecardCardState>;
  face_value: number;
  currency: Currency;
  balance: Defaulted<number>;
  held: Defaulted<number>;
  owner_id: Nullable<number>;
  sale_id: Nullable<number>;
  sale_price: Nullable<number>;
  activation_id: Nullable<number>;
  return_id: Nullable<number>;
  customer_id: Nullable<number>;
  gift_id: Nullable<number>;
  activated_at: Nullable<Date>;
  expires_at: Nullable<Date>;
  extracted_at: Nullable<Date>;
  wrong_attempts: Defaulted<number>;
  locked_until: Nullable<Date>;
}

/** Wrong passwords per (card, client): the calling merchant (`merchant:<id>`) or an address (`ip:<addr>`). */
export interface OnecardCardFailuresTable {
  card_id: number;
  client: string;
  wrong_attempts: Defaulted<number>;
  locked_until: Nullable<Date>;
  updated_at: Date;
}

export interface OnecardMovesTable {
  id: Id;
  card_id: number;
  kind: "activate" | "load" | "hold" | "capture" | "release" | "redeem" | "refund" | "adjust" | "expire" | "return";
  amount: number;
  balance_after: number;
  request_key: Nullable<string>;
  note: Defaulted<string>;
  created_at: Timestamp;
}

export interface OnecardHoldsTable {
  id: Id;
  card_id: number;
  amount: number;
  state: Defaulted<"held" | "captured" | "released">;
  request_key: string;
  created_at: Timestamp;
  settled_at: Nullable<Date>;
}

export interface OnecardOrdersTable {
  id: Id;
  customer_id: number;
  card_id: number;
  equity: string;
  account: string;
  amount: number;
  currency: Currency;
  state: Defaulted<"processing" | "success" | "failed" | "refunded">;
  request_key: string;
  created_at: Timestamp;
  brander_id: number | null;
  goods_id: number | null;
  order_no: string | null;
  fail_key: string | null;
  /** Written as JSON text; read back as the object. */
  fail_params: ColumnType<Record<string, string | number> | null, string | null, string | null>;
  fail_reason: string | null;
  finished_at: Timestamp | null;
}

export interface OnecardGiftPackagesTable {
  id: Id;
  purchaser_id: number;
  name: string;
  message: Defaulted<string>;
  /** Written as JSON text. */
  items: ColumnType<{ productId: number; count: number }[], string, string>;
  archived: Defaulted<boolean>;
  created_by: number;
  created_at: Timestamp;
}

export interface OnecardGiftsTable {
  id: Id;
  purchaser_id: number;
  /** Null for a gift sent by link. */
  phone: string | null;
  package_id: Nullable<number>;
  card_ids: number[];
  amount: number;
  currency: Currency;
  message: Defaulted<string>;
  state: Defaulted<"sent" | "claimed" | "expired">;
  request_key: string;
  expires_at: Date;
  claimed_by: Nullable<number>;
  claimed_at: Nullable<Date>;
  created_at: Timestamp;
}

export interface OnecardExtractionsTable {
  id: Id;
  purchaser_id: number;
  card_ids: number[];
  created_by: number;
  created_at: Timestamp;
}

export interface OnecardTables {
  onecard_products: OnecardProductsTable;
  onecard_batches: OnecardBatchesTable;
  onecard_sales: OnecardSalesTable;
  onecard_activations: OnecardActivationsTable;
  onecard_returns: OnecardReturnsTable;
  onecard_customers: OnecardCustomersTable;
  onecard_customer_sessions: OnecardCustomerSessionsTable;
  onecard_cards: OnecardCardsTable;
  onecard_card_failures: OnecardCardFailuresTable;
  onecard_moves: OnecardMovesTable;
  onecard_holds: OnecardHoldsTable;
  onecard_orders: OnecardOrdersTable;
  onecard_gifts: OnecardGiftsTable;
  onecard_gift_packages: OnecardGiftPackagesTable;
  onecard_extractions: OnecardExtractionsTable;
}
