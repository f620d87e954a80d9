import type { ColumnType } from "kysely";
import type { Timestamp } from "../../db/columns";

/** Tables owned by the callbacks module (migration 0015, created with the open API's). */
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

export interface CallbacksTables {
  openapi_callbacks: OpenapiCallbacksTable;
}
