import type {
  Invoice,
  InvoiceableRow,
  InvoiceSettings,
  InvoiceSettingsReq,
  InvoiceState,
  InvoiceTitle,
  InvoiceType,
  Page,
} from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http, saveFile } from "../../api/http";

/** The invoice calls (`/api/card-user/invoice...` for the merchant, `/api/ops/invoices` for the operator; issue 29). */
export interface InvoiceListQuery {
  page: number;
  pageSize: number;
  state?: InvoiceState | undefined;
  invoiceType?: InvoiceType | undefined;
  from?: string | undefined;
  to?: string | undefined;
  merchantId?: string | undefined;
}
export interface TitleBody {
  name: string;
  taxId: string;
  address: string;
  phone: string;
  bank: string;
  bankAccount: string;
  isDefault?: boolean;
}
export interface InvoiceBody {
  invoiceType: InvoiceType;
  amount: number;
  title: Omit<TitleBody, "isDefault">;
  email: string;
  remark: string;
  requestKey: string;
}

export const invoiceKeys = {
  all: ["invoices"] as const,
  invoiceable: ["invoices", "invoiceable"] as const,
  list: (q: InvoiceListQuery) => ["invoices", "list", q] as const,
  ops: (q: InvoiceListQuery) => ["invoices", "ops", q] as const,
  titles: ["invoices", "titles"] as const,
  settings: ["invoices", "settings"] as const,
};

const user = "/api/card-user";
export const invoiceApi = {
  invoiceable: async () => unwrap(await http.get<InvoiceableRow[]>(`${user}/invoice/invoiceable`, { overlay: false })),
  list: async (query: InvoiceListQuery) =>
    unwrap(await http.get<Page<Invoice>>(`${user}/invoices`, { query: { ...query }, overlay: false })),
  request: (body: InvoiceBody) => http.post<Invoice>(`${user}/invoices`, body, { toast: false }),
  titles: async () => unwrap(await http.get<InvoiceTitle[]>(`${user}/invoice/titles`, { overlay: false })),
  saveTitle: (id: string | null, body: TitleBody) =>
    id
      ? http.put<InvoiceTitle>(`${user}/invoice/titles/${id}`, body, { toast: false })
      : http.post<InvoiceTitle>(`${user}/invoice/titles`, body, { toast: false }),
  deleteTitle: (id: string) => http.del<null>(`${user}/invoice/titles/${id}`),
  settings: async () => unwrap(await http.get<InvoiceSettings>(`${user}/invoice/settings`, { overlay: false })),
  saveSettings: (body: InvoiceSettingsReq) =>
    http.put<InvoiceSettings>(`${user}/invoice/settings`, body, { toast: false }),
  opsList: async (query: InvoiceListQuery) =>
    unwrap(await http.get<Page<Invoice>>("/api/ops/invoices", { query: { ...query }, overlay: false })),
  issue: (id: string) => http.put<Invoice>(`/api/ops/invoices/${id}/issue`, {}),
  refuse: (id: string, reason: string) =>
    http.put<Invoice>(`/api/ops/invoices/${id}/refuse`, { reason }, { toast: false }),
  reverse: (id: string, reason: string) =>
    http.put<Invoice>(`/api/ops/invoices/${id}/reverse`, { reason }, { toast: false }),
};

/** Downloads an invoice's PDF (the red-letter one with `red`), as the merchant or as the operator. */
export async function downloadInvoicePdf(inv: Invoice, red: boolean, scope: "user" | "ops"): Promise<boolean> {
  const base = scope === "ops" ? "/api/ops" : user;
  const number = red ? inv.redInvoiceNo : inv.invoiceNo;
  const result = await http.download(`${base}/invoices/${inv.id}/pdf`, {
    query: red ? { red: "1" } : {},
    fileName: `invoice-${number ?? inv.id}.pdf`,
  });
  if (!result?.ok) return false;
  saveFile(result.data.blob, result.data.fileName);
  return true;
}

/** A fresh idempotency key for one request dialog. */
export function newInvoiceKey(): string {
  return `inv-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
