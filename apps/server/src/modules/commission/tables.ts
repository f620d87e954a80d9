import type { ColumnType } from "kysely";
import type { StatementState } from "@tessera/contracts";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the commission module (migration 0096). */
export interface CommissionRulesTable {
  id: Id;
  provider_id: number;
  business_type: string | null;
  brand_id: number | null;
  rate_bp: number;
  valid_from: ColumnType<string, string, string>;
  valid_to: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: number;
  created_at: Timestamp;
  removed_at: Date | null;
}

export interface CommissionClosesTable {
  period: string;
  statements: ColumnType<number, number | undefined, number>;
  lines: ColumnType<number, number | undefined, number>;
  closed_at: Timestamp;
}

export interface CommissionStatementsTable {
  id: Id;
  provider_id: number;
  period: string;
  currency: "CNY" | "USD" | "HKD";
  opening: number;
  accrued: number;
  clawed_back: number;
  closing: number;
  lines: number;
  state: ColumnType<StatementState, StatementState | undefined, StatementState>;
  closed_at: Timestamp;
  paid_at: Date | null;
  paid_by: number | null;
}

export interface CommissionLinesTable {
  id: Id;
  statement_id: number;
  provider_id: number;
  merchant_id: number;
  side: "brand" | "vendor";
  kind: "accrual" | "clawback";
  order_id: number;
  refund_id: number;
  basis: number;
  rate_bp: number;
  rule_id: number;
  amount: number;
  occurred_at: Timestamp;
}

/** Migration 0097: purchaser rebates. */
export interface RebateRulesTable {
  id: Id;
  supplier_id: number;
  purchaser_id: number | null;
  goods_id: number | null;
  tiers: ColumnType<{ minVolume: number; rateBp: number }[], string, string>;
  valid_from: ColumnType<string, string, string>;
  valid_to: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: number;
  created_at: Timestamp;
  removed_at: Date | null;
}

export interface RebateStatementsTable {
  id: Id;
  supplier_id: number;
  purchaser_id: number;
  period: string;
  currency: "CNY" | "USD" | "HKD";
  rule_id: number;
  volume: number;
  rate_bp: number;
  amount: number;
  state: ColumnType<"due" | "paid", "due" | undefined, "due" | "paid">;
  closed_at: Timestamp;
  paid_at: Date | null;
}

export interface CommissionTables {
  rebate_rules: RebateRulesTable;
  rebate_statements: RebateStatementsTable;
  commission_rules: CommissionRulesTable;
  commission_closes: CommissionClosesTable;
  commission_statements: CommissionStatementsTable;
  commission_lines: CommissionLinesTable;
}
