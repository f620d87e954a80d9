import type { ColumnType } from "kysely";
import type { Id } from "../../db/columns";

/** Tables owned by the reconciliation module (migration 0128). */
export type DifferenceKind = "missing" | "extra" | "amount";

export interface ReconciliationDifferencesTable {
  id: Id;
  provider: string;
  day: string;
  kind: DifferenceKind;
  entry: "payment" | "refund";
  reference: string;
  payment_no: string;
  provider_ref: string | null;
  merchant_id: number | null;
  our_amount: number | null;
  bill_amount: number | null;
  state: ColumnType<"open" | "resolved", "open" | undefined, "resolved">;
  resolution: string | null;
  resolved_by: number | null;
  resolved_at: Date | null;
  created_at: ColumnType<Date, Date, never>;
}

export interface ReconciliationRunsTable {
  provider: string;
  day: string;
  bill_lines: number;
  differences: number;
  ran_at: Date;
}

export interface ReconciliationTables {
  reconciliation_differences: ReconciliationDifferencesTable;
  reconciliation_runs: ReconciliationRunsTable;
}
