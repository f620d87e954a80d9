import type {
  Brand,
  BranderReply,
  Card,
  CardBatch,
  Goods,
  GoodsReq,
  GoodsState,
  ImageReply,
  MessageKey,
  Page,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { interfaceError, interpret, type ApiResult } from "../../api/envelope";
import { unwrap } from "../../api/errors";
import { currentVersion, http, tokens } from "../../api/http";
import { currentLang, i18n } from "../../i18n";

/** Brand owner calls of the catalog and supply (spec 01 §7 `/api/card-brander/...`). */
const base = "/api/card-brander";

export const catalogKeys = {
  all: ["catalog"] as const,
  brander: ["catalog", "brander"] as const,
  products: (q: Query) => ["catalog", "products", q] as const,
  product: (id: number) => ["catalog", "product", id] as const,
  cards: (id: number, q: Query) => ["catalog", "cards", id, q] as const,
  batches: (q: Query) => ["catalog", "batches", q] as const,
};

export const catalogApi = {
  brander: async () => unwrap(await http.get<BranderReply>(`${base}/brander`)),
  saveBrand: (body: { id?: number; name: string; description: string; logo: string | null }) =>
    http.post<Brand>(`${base}/brander/update`, body, { toast: false }),
  products: async (query: Query) =>
    unwrap(await http.get<Page<Goods>>(`${base}/product/search`, { query, overlay: false })),
  product: async (id: number) => unwrap(await http.get<Goods>(`${base}/product/${id}`)),
  add: (body: GoodsReq) => http.post<Goods>(`${base}/product/add`, body, { toast: false }),
  update: (body: GoodsReq & { id: number }) => http.post<Goods>(`${base}/product/update`, body, { toast: false }),
  setState: (id: number, state: GoodsState) => http.put<Goods>(`${base}/product/${id}/state`, { state }),
  remove: (id: number) => http.del<null>(`${base}/product/${id}`),
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append("file", file);
    return http.post<ImageReply>(`${base}/product/images`, form);
  },
  cards: async (id: number, query: Query) =>
    unwrap(await http.get<Page<Card>>(`${base}/sup/merchandises/${id}/cards`, { query, overlay: false })),
  voidCards: (id: number, ids: number[]) =>
    http.post<{ voided: number }>(`${base}/sup/merchandises/${id}/cards/void`, { ids }),
  batches: async (query: Query) =>
    unwrap(await http.get<Page<CardBatch>>(`${base}/sup/purchaseCardRecords`, { query, overlay: false })),
  template: () => http.download(`${base}/sup/cards/template`, { fileName: "card-template.xlsx" }),
  rejectReport: (batchId: number) =>
    http.download(`${base}/sup/purchaseCardRecords/${batchId}/rejects`, { fileName: `rejects-${batchId}.xlsx` }),
};

/**
 * Sends an import file as the request body itself (the server streams it into the database instead of
 * buffering a multipart form), with the same token, language and error envelope as every call.
 */
export async function importCards(goodsId: number, file: File): Promise<ApiResult<CardBatch>> {
  const headers: Record<string, string> = {
    lang: currentLang(),
    accept: "application/json",
    "content-type": file.name.toLowerCase().endsWith(".csv")
      ? "text/csv"
      : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  };
  const token = tokens.getToken(currentVersion());
  if (token) headers["x-auth-token"] = token;
  // A contracts message (namespace msg), as the shared client shows it.
  const interfaceKey: MessageKey = "error.interface";
  const interfaceMsg = i18n.t(interfaceKey, { ns: "msg" });
  try {
    const res = await fetch(`${base}/sup/merchandises/${goodsId}/cards?fileName=${encodeURIComponent(file.name)}`, {
      method: "POST",
      headers,
      body: file,
    });
    const body: unknown = await res.json().catch(() => null);
    const outcome = interpret<CardBatch>(res.status, body, interfaceMsg);
    if (outcome.kind === "ok") return outcome.result;
    // A dead session goes through the shared client's 401 handling (token cleared, back to login).
    if (outcome.kind === "unauthorized") return (await http.get<never>(`${base}/brander`)) ?? outcome.result;
    return outcome.kind === "fail" ? outcome.result : interfaceError(interfaceMsg, res.status);
  } catch {
    return interfaceError(interfaceMsg, 0);
  }
}
