import type { CloseReply, CommissionRule, CommissionStatement, Page, StatementDetail } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http, saveFile } from "../../api/http";

/** Commission calls (issue 29): the provider's (`/api/card-servicer/commission`) and the operator's (`/api/ops/commission`). */
export interface StatementListQuery {
  page: number;
  pageSize: number;
  from?: string | undefined;
  to?: string | undefined;
}
export interface RuleBody {
  providerId: string;
  businessType: string | null;
  brandId: string | null;
  rateBp: number;
  validFrom: string;
  validTo: string | null;
}

export const commissionKeys = {
  all: ["commission"] as const,
  statements: (q: StatementListQuery) => ["commission", "statements", q] as const,
  statement: (id: string) => ["commission", "statement", id] as const,
  rules: (providerId?: string) => ["commission", "rules", providerId ?? ""] as const,
  myRules: ["commission", "myRules"] as const,
};

const base = "/api/card-servicer/commission";
export const commissionApi = {
  statements: async (query: StatementListQuery) =>
    unwrap(await http.get<Page<CommissionStatement>>(`${base}/statements`, { query: { ...query }, overlay: false })),
  statement: async (id: string) =>
    unwrap(await http.get<StatementDetail>(`${base}/statements/${id}`, { overlay: false })),
  confirm: (id: string) => http.put<CommissionStatement>(`${base}/statements/${id}/confirm`, {}),
  myRules: async () => unwrap(await http.get<CommissionRule[]>(`${base}/rules`, { overlay: false })),
  rules: async (providerId?: string) =>
    unwrap(await http.get<CommissionRule[]>("/api/ops/commission/rules", { query: { providerId }, overlay: false })),
  addRule: (body: RuleBody) => http.post<CommissionRule>("/api/ops/commission/rules", body, { toast: false }),
  removeRule: (id: string) => http.del<null>(`/api/ops/commission/rules/${id}`),
  close: (period: string) => http.post<CloseReply>("/api/ops/commission/close", { period }, { toast: false }),
};

/** The statement as .xlsx (one row per served merchant). */
export async function downloadStatement(s: CommissionStatement): Promise<boolean> {
  const result = await http.download(`${base}/statements/${s.id}/export`, { fileName: `commission-${s.period}.xlsx` });
  if (!result?.ok) return false;
  saveFile(result.data.blob, result.data.fileName);
  return true;
}

/** The statement as a printable PDF, in the interface's language. */
export async function downloadStatementPdf(s: CommissionStatement): Promise<boolean> {
  const result = await http.download(`${base}/statements/${s.id}/pdf`, { fileName: `commission-${s.period}.pdf` });
  if (!result?.ok) return false;
  saveFile(result.data.blob, result.data.fileName);
  return true;
}
