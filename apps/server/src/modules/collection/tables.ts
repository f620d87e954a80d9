import type { ColumnType, Generated } from "kysely";
import type { ApplyState, PayOrderState, PayRefundState } from "@tessera/contracts";
import type { Id, Timestamp } from "../../db/columns";

type Currency = "CNY" | "USD" | "HKD";
type Text = ColumnType<string, string | undefined, string>;

/** Tables owned by the collection module (migration 0094). */
export interface PayApplicationsTable {
  id: Id;
  merchant_id: number;
  /** Migration 0120: the largest single payment the account takes, minor units. */
  per_payment_limit: ColumnType<number, number | undefined, number>;
  business_code: string;
  state: ColumnType<ApplyState, ApplyState | undefined, ApplyState>;
  company_name: Text;
  credit_code: Text;
  legal_person: Text;
  legal_id_no: Text;
  contact_name: Text;
  contact_phone: Text;
  industry_code: Text;
  bank_name: Text;
  bank_account: Text;
  bank_account_name: Text;
  licence_image: Text;
  /** The legal person's ID card, front (applyment4sub id_card_copy) and back (id_card_national); migration 0115. */
  id_card_front: Text;
  id_card_back: Text;
  fee_bps: ColumnType<number, number | undefined, number>;
  reject_reason: string | null;
  sign_token: string | null;
  sub_mchid: string | null;
  submitted_at: Date | null;
  reviewed_at: Date | null;
  reviewed_by: number | null;
  signed_at: Date | null;
  finished_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PayCodesTable {
  id: Id;
  merchant_id: number;
  passport_id: number;
  store_id: number | null;
  name: string;
  token: string;
  /** Migration 0120: the amount the code collects; null: the payer enters it (within the account's limit). */
  amount: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  deleted_at: Date | null;
}

export interface PayOrdersTable {
  id: Id;
  merchant_id: number;
  code_id: number;
  order_no: string;
  request_key: string;
  amount: number;
  fee: number;
  refunded: Generated<number>;
  /** How much of the fee refunds gave back so far (migration 0115). */
  fee_refunded: Generated<number>;
  currency: Currency;
  state: ColumnType<PayOrderState, PayOrderState | undefined, PayOrderState>;
  note: Text;
  paid_at: Date | null;
  /** Migration 0118: paid through the sandbox payment adapter (test money, in the sandbox accounts). */
  sandbox: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

export interface PayRefundsTable {
  id: Id;
  merchant_id: number;
  order_id: number;
  request_key: string;
  amount: number;
  /** The share of the payment's fee this refund gave back (migration 0115). */
  fee: Generated<number>;
  currency: Currency;
  state: ColumnType<PayRefundState, PayRefundState | undefined, PayRefundState>;
  reason: Text;
  fail_reason: string | null;
  created_by: number;
  created_at: Timestamp;
  finished_at: Date | null;
}

export interface CollectionTables {
  pay_applications: PayApplicationsTable;
  pay_codes: PayCodesTable;
  pay_orders: PayOrdersTable;
  pay_refunds: PayRefundsTable;
}
