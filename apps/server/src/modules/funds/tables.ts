import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the funds module (migration 0011). */
export interface TopupNoticesTable {
  id: Id;
  merchant_id: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  fee: ColumnType<number, number | undefined, number>;
  payer_type: "company" | "personal";
  payer_name: string;
  id_number: string;
  other_account: string;
  transfer_ref: string;
  proof_key: string | null;
  state: ColumnType<"pending" | "confirmed" | "rejected", "pending" | undefined, "confirmed" | "rejected">;
  reject_reason: string | null;
  request_key: string;
  submitted_by: number;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  created_at: Timestamp;
}

export interface TopupProofsTable {
  id: string;
  merchant_id: number;
  storage_key: string;
  content_type: string;
  created_at: Timestamp;
}

export interface FundsTables {
  topup_notices: TopupNoticesTable;
  topup_proofs: TopupProofsTable;
}
