import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the transfers module (migration 0013). */
export interface TransitAuthsTable {
  merchant_id: number;
  authorised_by: number;
  phone: string;
  authorised_at: Timestamp;
}

export interface TransfersTable {
  id: Id;
  from_merchant_id: number;
  to_merchant_id: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  remark: ColumnType<string, string | undefined, string>;
  contract_no: string | null;
  state: ColumnType<"created" | "refused" | "completed", "created" | undefined, "refused" | "completed">;
  refuse_reason: string | null;
  request_key: string;
  created_by: number;
  decided_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Date | null;
}

export interface TransfersTables {
  transit_auths: TransitAuthsTable;
  transfers: TransfersTable;
}
