import type { ColumnType, Generated } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the supply module (migration 0008). */
export interface SupplyCardBatchesTable {
  id: Id;
  merchant_id: number;
  goods_id: number;
  file_name: string;
  status: Generated<"importing" | "done" | "failed">;
  total_rows: Generated<number>;
  imported: Generated<number>;
  rejected: Generated<number>;
  created_by: number | null;
  created_at: Generated<Date>;
  finished_at: Timestamp | null;
  /** Migration 0125: the importer's last sign of life (a chunk landed, or its 30-s beat while reading). */
  heartbeat_at: Generated<Date>;
  /** Migration 0125: why a batch failed, when the server says (an interrupted import): a message key and its parameters. */
  fail_reason: ColumnType<
    { key: "supply.importInterrupted"; params: Record<string, string | number> } | null,
    string | null | undefined,
    string | null
  >;
}

export interface SupplyCardRejectsTable {
  batch_id: number;
  row_no: number;
  reason: string;
  number_mask: Generated<string>;
}

export interface SupplyCardsTable {
  id: Id;
  merchant_id: number;
  goods_id: number;
  batch_id: number;
  row_no: number;
  number_hash: string;
  number_mask: string;
  /** iv | tag | ciphertext of {number, secret}, base64. */
  sealed: string;
  /** A date column; written as YYYY-MM-DD, read back through to_char (engines differ on date parsing). */
  expires_on: ColumnType<Date | string | null, string | null | undefined, string | null>;
  state: Generated<"available" | "sold" | "void" | "expired">;
  order_id: string | null;
  buyer_merchant_id: number | null;
  sold_at: Timestamp | null;
  voided_at: Timestamp | null;
  expired_at: Timestamp | null;
  /** Redeemed at a brand's store (migration 0093, module stores): the state stays `sold`. */
  redeemed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  redeemed_ref: ColumnType<string | null, string | null | undefined, string | null>;
  /** Handed on by its buyer to an end customer (migration 0111, the mall's delivery): out of the buyer's stock. */
  resold_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Date>;
}

export interface SupplyTables {
  supply_card_batches: SupplyCardBatchesTable;
  supply_card_rejects: SupplyCardRejectsTable;
  supply_cards: SupplyCardsTable;
}
