import type { ColumnType } from "kysely";
import type { InvoiceState, InvoiceType } from "@tessera/contracts";
import type { Id, Timestamp } from "../../db/columns";

/** Tables owned by the invoices module (migration 0095). */
export interface InvoiceRatesTable {
  id: Id;
  invoice_type: InvoiceType;
  rate_bp: number;
  valid_from: ColumnType<string, string, string>;
  valid_to: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface InvoiceAccountsTable {
  merchant_id: number;
  invoice_type: InvoiceType;
}

export interface InvoicesTable {
  id: Id;
  merchant_id: number;
  invoice_type: InvoiceType;
  rate_bp: number;
  amount: number;
  tax_amount: number;
  currency: "CNY" | "USD" | "HKD";
  title_name: string;
  tax_id: string;
  address: string;
  phone: string;
  bank: string;
  bank_account: string;
  email: string;
  remark: string;
  state: ColumnType<InvoiceState, InvoiceState | undefined, InvoiceState>;
  refuse_reason: string | null;
  invoice_no: string | null;
  red_invoice_no: string | null;
  reverse_reason: string | null;
  pdf_key: string | null;
  red_pdf_key: string | null;
  request_key: string;
  created_by: number;
  decided_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  issued_at: Date | null;
  delivered_at: Date | null;
  reversed_at: Date | null;
}

export interface InvoiceTitlesTable {
  id: Id;
  merchant_id: number;
  name: string;
  tax_id: string;
  address: string;
  phone: string;
  bank: string;
  bank_account: string;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

export interface InvoiceSettingsTable {
  merchant_id: number;
  e_sign: boolean;
  signer_name: string;
  signer_phone: string;
  delivery_email: string;
  updated_by: number | null;
  updated_at: Timestamp;
}

export interface InvoicesTables {
  invoice_rates: InvoiceRatesTable;
  invoice_accounts: InvoiceAccountsTable;
  invoices: InvoicesTable;
  invoice_titles: InvoiceTitlesTable;
  invoice_settings: InvoiceSettingsTable;
}
