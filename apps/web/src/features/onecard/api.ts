import type {
  Money,
  OcActivatePreview,
  OcCard,
  OcGift,
  OcPackage,
  OcPackageSendReply,
  OcProduct,
  OcReturnPreview,
  OcSale,
  OnecardKind,
  OnecardState,
  Page,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The purchaser's one-card calls (`/api/card-user/onecard/...`, issue 26). Mutations return the result (never throw). */
const base = "/api/card-user/onecard";

export interface OcReturnRow {
  id: string;
  count: number;
  amount: Money;
  reason: string;
  createdAt: string;
}
export interface OcExtractionRow {
  id: string;
  count: number;
  userEmail: string;
  createdAt: string;
}
export interface OcReportRow {
  period: string;
  soldCount: number;
  soldAmount: Money;
  activatedCount: number;
  activatedValue: Money;
  returnedCount: number;
  returnedAmount: Money;
  redeemed: Money;
}
export interface OcReportReply {
  rows: OcReportRow[];
  outstanding: Money;
  heldCards: number;
}
export type ActivateSelection = { cardIds: string[] } | { range: { from: string; to: string } } | { saleId: string };

export const ocKeys = {
  all: ["onecard-sale"] as const,
  mall: (q: Query) => ["onecard-sale", "mall", q] as const,
  sales: (q: Query) => ["onecard-sale", "sales", q] as const,
  cards: (q: Query) => ["onecard-sale", "cards", q] as const,
  returns: (q: Query) => ["onecard-sale", "returns", q] as const,
  extractions: (q: Query) => ["onecard-sale", "extractions", q] as const,
  gifts: (q: Query) => ["onecard-sale", "gifts", q] as const,
  packages: (q: Query) => ["onecard-sale", "packages", q] as const,
  report: (q: Query) => ["onecard-sale", "report", q] as const,
};

export const ocSaleApi = {
  mall: async (query: {
    page: number;
    pageSize: number;
    kind?: OnecardKind | undefined;
    keyword?: string | undefined;
  }) => unwrap(await http.get<Page<OcProduct>>(`${base}/mall`, { query, overlay: false })),
  purchase: (body: { productId: string; quantity: number; requestKey: string }) =>
    http.post<OcSale>(`${base}/purchase`, body, { toast: false }),
  sales: async (query: Query) => unwrap(await http.get<Page<OcSale>>(`${base}/sales`, { query, overlay: false })),
  cards: async (query: {
    page: number;
    pageSize: number;
    state?: OnecardState | undefined;
    saleId?: string | undefined;
    cardNo?: string | undefined;
  }) => unwrap(await http.get<Page<OcCard>>(`${base}/cards`, { query, overlay: false })),
  lookup: (cardNo: string) => http.get<OcCard>(`${base}/lookup`, { query: { cardNo } }),
  /** What activating `sel` would do (cards, price paid, face value), before it is confirmed; changes nothing. */
  activationPreview: (sel: ActivateSelection) => http.post<OcActivatePreview>(`${base}/activate/preview`, sel),
  activate: (sel: ActivateSelection, requestKey: string) =>
    http.post<{ id: string; count: number; amount: Money }>(`${base}/activate`, { ...sel, requestKey }),
  returns: async (query: Query) =>
    unwrap(await http.get<Page<OcReturnRow>>(`${base}/returns`, { query, overlay: false })),
  /** What returning these cards would do (cards, the price paid back to SUP), before it is confirmed; changes nothing. */
  returnPreview: (cardIds: string[]) => http.post<OcReturnPreview>(`${base}/returns/preview`, { cardIds }),
  returnCards: (body: { cardIds: string[]; reason: string; requestKey: string }) =>
    http.post<OcReturnRow>(`${base}/returns`, body),
  extract: (cardIds: string[]) =>
    http.download(`${base}/extract`, { method: "POST", body: { cardIds }, fileName: "cards.xlsx" }),
  extractions: async (query: Query) =>
    unwrap(await http.get<Page<OcExtractionRow>>(`${base}/extractions`, { query, overlay: false })),
  gifts: async (query: Query) => unwrap(await http.get<Page<OcGift>>(`${base}/gifts`, { query, overlay: false })),
  gift: (body: { cardIds: string[]; phone?: string | undefined; message: string; requestKey: string }) =>
    http.post<OcGift>(`${base}/gifts`, body, { toast: false }),
  packages: async (query: Query) =>
    unwrap(await http.get<Page<OcPackage>>(`${base}/giftPackages`, { query, overlay: false })),
  createPackage: (body: { name: string; message: string; items: { productId: string; count: number }[] }) =>
    http.post<OcPackage>(`${base}/giftPackages`, body, { toast: false }),
  archivePackage: (id: string) => http.del<null>(`${base}/giftPackages/${id}`),
  sendPackage: (id: string, body: { phones: string[]; links: number; requestKey: string }) =>
    http.post<OcPackageSendReply>(`${base}/giftPackages/${id}/send`, body, { toast: false }),
  report: async (query: { dimension: "day" | "week" | "month"; from?: string | undefined; to?: string | undefined }) =>
    unwrap(await http.get<OcReportReply>(`${base}/report`, { query, overlay: false })),
};

/** A fresh idempotency key for one user action (kept while its dialog is open, so a retry repeats it). */
export function newRequestKey(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
