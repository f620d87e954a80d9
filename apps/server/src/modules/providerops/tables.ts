import type { ColumnType } from "kysely";
import type { BatchPurchaseLine } from "@tessera/contracts";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the providerops module (migration 0105). */
export interface ProviderBatchPurchasesTable {
  id: Id;
  provider_id: number;
  file_name: string;
  /** The result of each line of the file (jsonb). */
  lines: ColumnType<BatchPurchaseLine[], string, string>;
  ordered: number;
  refused: number;
  created_by: number;
  created_at: Timestamp;
}

export interface ProviderOpsTables {
  provider_batch_purchases: ProviderBatchPurchasesTable;
}
