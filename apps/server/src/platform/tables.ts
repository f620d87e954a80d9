import type { ColumnType } from "kysely";
import type { Id, Timestamp } from "../db/columns";

/** Tables owned by platform/ (migration 0001). */
export interface DevOutboxTable {
  id: Id;
  channel: "email" | "sms";
  recipient: string;
  subject: string;
  body: string;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Id;
  actor_user_id: number | null;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
}

export interface PlatformTables {
  dev_outbox: DevOutboxTable;
  audit_log: AuditLogTable;
}

/** The payments seam's records (migration 0118, platform/payments). */
export interface PaymentsTable {
  id: Id;
  payment_no: string;
  provider: string;
  sandbox: boolean;
  merchant_id: number;
  subject_type: "mall_order" | "takeout_order" | "pay_order";
  subject_id: number;
  amount: number;
  currency: "CNY" | "USD" | "HKD";
  state: "pending" | "paid" | "closed";
  refunded: ColumnType<number, number | undefined, number>;
  provider_txn_id: string | null;
  request: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  paid_at: Date | null;
  /** What the payer does next for a pending payment (migration 0127). */
  action: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

export interface PaymentRefundsTable {
  id: Id;
  payment_id: number;
  refund_no: string;
  amount: number;
  state: "processing" | "success" | "failed";
  created_at: Timestamp;
  provider_refund_id: ColumnType<string | null, string | null | undefined, string | null>;
  settled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Every payment notification received and what became of it (migration 0127). */
export interface PaymentNoticesTable {
  id: Id;
  provider: string;
  notice_id: string | null;
  event_type: string | null;
  payment_no: string | null;
  outcome: "credited" | "settled" | "duplicate" | "refused" | "late_refunded";
  detail: ColumnType<string, string | undefined, string>;
  received_at: Date;
}

export interface PaymentsTables {
  payments: PaymentsTable;
  payment_refunds: PaymentRefundsTable;
  payment_notices: PaymentNoticesTable;
}
