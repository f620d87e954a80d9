import type { Timestamp } from "../../db/columns";

/** Tables owned by the openapi module (migration 0015). */
export interface OpenapiNoncesTable {
  app_key: string;
  nonce: string;
  created_at: Timestamp;
}

export interface OpenapiTables {
  openapi_nonces: OpenapiNoncesTable;
}
