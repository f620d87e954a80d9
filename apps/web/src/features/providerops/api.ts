import type {
  BatchPurchasePreview,
  BatchPurchaseReply,
  BatchPurchaseSummary,
  FiguresReply,
  FundSheetRow,
  LinkDataReply,
  MessageKey,
  Page,
  ServedBrand,
  ServedOrder,
  ServedSettlement,
  ServiceBinding,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { interfaceError, interpret, type ApiResult } from "../../api/envelope";
import { unwrap } from "../../api/errors";
import { currentVersion, http, tokens } from "../../api/http";
import { currentLang, i18n } from "../../i18n";

/** The provider's operations calls (`/api/card-servicer/ops`, issue 29). */
const base = "/api/card-servicer/ops";
export const providerOpsApi = {
  orders: async (query: Query) =>
    unwrap(await http.get<Page<ServedOrder>>(`${base}/orders`, { query, overlay: false })),
  figures: async (query: { from: string; to: string }) =>
    unwrap(await http.get<FiguresReply>(`${base}/figures`, { query, overlay: false })),
  settlements: async (query: { from: string; to: string }) =>
    unwrap(await http.get<ServedSettlement[]>(`${base}/settlements`, { query, overlay: false })),
  brands: async () => unwrap(await http.get<ServedBrand[]>(`${base}/brands`, { overlay: false })),
  fundSheet: async (query: Query) =>
    unwrap(await http.get<Page<FundSheetRow>>(`${base}/fundSheet`, { query, overlay: false })),
  linkData: async (query: { from: string; to: string }) =>
    unwrap(await http.get<LinkDataReply>(`${base}/linkData`, { query, overlay: false })),
  batches: async (query: { page: number; pageSize: number }) =>
    unwrap(await http.get<Page<BatchPurchaseSummary>>(`${base}/batchPurchases`, { query, overlay: false })),
  batch: async (id: string) =>
    unwrap(await http.get<BatchPurchaseReply>(`${base}/batchPurchases/${id}`, { overlay: false })),
  batchTemplate: () => http.download(`${base}/batchPurchases/template`, { fileName: "batch-purchase-template.xlsx" }),
  batchResult: (id: string) =>
    http.download(`${base}/batchPurchases/${id}/result`, { fileName: `batch-purchase-result-${id}.xlsx` }),
  /** The purchasers bound to this provider (for the merchant filters). */
  servedVendors: async () =>
    unwrap(
      await http.post<Page<ServiceBinding>>(
        "/api/card-servicer/brander",
        { page: 1, pageSize: 1000, kind: "vendor" },
        { overlay: false },
      ),
    ),
};
export const ORDERS_EXPORT_PATH = `${base}/orders/export`;
export const FUND_SHEET_EXPORT_PATH = `${base}/fundSheet/export`;

/**
 * Sends a BatchPurchase file as the request body (xlsx), with the same token, language and error
 * envelope as every call (as the store and card imports do).
 */
export function uploadBatchPurchase(file: File): Promise<ApiResult<BatchPurchaseReply>> {
  return sendBatchFile<BatchPurchaseReply>(file, "");
}

/** What the file would buy (each line's price or refusal, the totals), before anything is spent (issue 37). */
export function previewBatchPurchase(file: File): Promise<ApiResult<BatchPurchasePreview>> {
  return sendBatchFile<BatchPurchasePreview>(file, "/preview");
}

async function sendBatchFile<T>(file: File, path: "" | "/preview"): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {
    lang: currentLang(),
    accept: "application/json",
    "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  };
  const token = tokens.getToken(currentVersion());
  if (token) headers["x-auth-token"] = token;
  const interfaceKey: MessageKey = "error.interface";
  const interfaceMsg = i18n.t(interfaceKey, { ns: "msg" });
  try {
    const res = await fetch(`${base}/batchPurchases${path}?fileName=${encodeURIComponent(file.name)}`, {
      method: "POST",
      headers,
      body: file,
    });
    const body: unknown = await res.json().catch(() => null);
    const outcome = interpret<T>(res.status, body, interfaceMsg);
    if (outcome.kind === "ok") return outcome.result;
    if (outcome.kind === "unauthorized") return (await http.get<never>(`${base}/batchPurchases`)) ?? outcome.result;
    return outcome.kind === "fail" ? outcome.result : interfaceError(interfaceMsg, res.status);
  } catch {
    return interfaceError(interfaceMsg, 0);
  }
}
