import type { ColumnType } from "kysely";
import type { Timestamp } from "../../db/columns";

/** Tables owned by the openapi module (migration 0015). */
export interface OpenapiNoncesTable {
  app_key: string;
  nonce: string;
  created_at: Timestamp;
}

export interface OpenapiCallbacksTable {
  id: ColumnType<number, number | undefined, never>;
  merchant_id: number;
  event_id: string;
  order_id: number;
  url: string;
  payload: string;
  state: ColumnType<"pending" | "delivered" | "failed", "pending" | undefined, "pending" | "delivered" | "failed">;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  delivered_at: Date | null;
}

export interface OpenapiTables {
  openapi_nonces: OpenapiNoncesTable;
  openapi_callbacks: OpenapiCallbacksTable;
}
