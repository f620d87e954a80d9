import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the merchants module (migration 0002). */
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

export interface MerchantsTables {
  merchants: MerchantsTable;
}
