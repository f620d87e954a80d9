import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the ledger module (migration 0007). */
export interface LedgerAccountsTable {
  id: Id;
  merchant_id: number | null;
  kind: string;
  currency: "CNY" | "USD" | "HKD";
  balance: ColumnType<number, number | undefined, number>;
  allow_negative: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

export interface LedgerTransactionsTable {
  id: Id;
  idempotency_key: string;
  request_digest: string;
  kind: string;
  currency: "CNY" | "USD" | "HKD";
  reason: ColumnType<string, string | undefined, string>;
  subject_type: string | null;
  subject_id: string | null;
  created_by: number | null;
  created_at: Timestamp;
}

export interface LedgerEntriesTable {
  id: Id;
  transaction_id: number;
  account_id: number;
  amount: number;
  balance_after: number;
  created_at: Timestamp;
}

export interface LedgerTables {
  ledger_accounts: LedgerAccountsTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_entries: LedgerEntriesTable;
}
