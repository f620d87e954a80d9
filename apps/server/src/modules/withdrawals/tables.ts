import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the withdrawals module (migrations 0012, 0124). */
export interface WithdrawalCardsTable {
  id: Id;
  merchant_id: number;
  company_name: string;
  bank: string;
  city: string;
  account: string;
  state: ColumnType<"pending" | "approved" | "rejected", "pending" | undefined, "approved" | "rejected">;
  reject_reason: string | null;
  current: ColumnType<boolean, boolean | undefined, boolean>;
  submitted_by: number;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  created_at: Timestamp;
}

export type WithdrawalStateColumn = "under_review" | "first_review_passed" | "bank_paying" | "success" | "failed";

export interface WithdrawalsTable {
  id: Id;
  merchant_id: number;
  account: "reserve" | "income";
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  card_id: number;
  state: ColumnType<WithdrawalStateColumn, WithdrawalStateColumn | undefined, WithdrawalStateColumn>;
  remark: ColumnType<string, string | undefined, string>;
  fail_reason: string | null;
  automatic: ColumnType<boolean, boolean | undefined, never>;
  request_key: string;
  requested_by: number | null;
  first_reviewed_by: number | null;
  second_reviewed_by: number | null;
  payout_reference: string | null;
  /** Migration 0118: why an automatic payout waits for an operator (null: it did not). */
  review_reason: ColumnType<
    {
      key: "withdraw.review.aboveThreshold" | "withdraw.review.newMerchant" | "withdraw.review.reconciliation";
      params: Record<string, string | number>;
    } | null,
    string | null | undefined,
    string | null
  >;
  request_day: ColumnType<unknown, string, never>;
  created_at: Timestamp;
  finished_at: Date | null;
}

export type PayoutStateColumn = "pending" | "submitted" | "acknowledged" | "cancelled";

/** Migration 0124: the payout instructions to the bank, an outbox written in the review's transaction. */
export interface WithdrawalPayoutsTable {
  id: Id;
  withdrawal_id: number;
  reference: string;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  company_name: string;
  bank: string;
  city: string;
  account: string;
  day: string;
  state: ColumnType<PayoutStateColumn, PayoutStateColumn | undefined, PayoutStateColumn>;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  submitted_at: Date | null;
  acknowledged_at: Date | null;
}

export interface WithdrawalsTables {
  withdrawal_cards: WithdrawalCardsTable;
  withdrawals: WithdrawalsTable;
  withdrawal_payouts: WithdrawalPayoutsTable;
}
