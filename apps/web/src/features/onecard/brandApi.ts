import type {
  OcBatch,
  OcCard,
  OcProduct,
  OcProductReq,
  OnecardKind,
  OnecardState,
  Page,
  Store,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The brand's one-card calls (`/api/card-brander/onecard/...`, issue 26). Mutations return the result (never throw). */
const base = "/api/card-brander/onecard";

export const ocBrandKeys = {
  all: ["onecard-brand"] as const,
  products: (q: Query) => ["onecard-brand", "products", q] as const,
  batches: (q: Query) => ["onecard-brand", "batches", q] as const,
  cards: (batchId: string, q: Query) => ["onecard-brand", "cards", batchId, q] as const,
};

/** The body of a product form: the contract's request with the defaults zod fills made explicit. */
export type ProductBody = Omit<OcProductReq, "scope" | "terms"> & { scope: string; terms: string };

export const ocBrandApi = {
  /** The brand's stores, to choose a card product's stores from (stores' `branderStores`). */
  stores: async () =>
    unwrap(
      await http.get<Page<Store>>("/api/card-brander/branderStores", {
        query: { page: 1, pageSize: 1000 },
        overlay: false,
      }),
    ),
  products: async (query: {
    page: number;
    pageSize: number;
    kind?: OnecardKind | undefined;
    keyword?: string | undefined;
    onSale?: "true" | "false" | undefined;
  }) => unwrap(await http.get<Page<OcProduct>>(`${base}/products`, { query, overlay: false })),
  create: (body: ProductBody) => http.post<OcProduct>(`${base}/products`, body, { toast: false }),
  update: (id: string, body: ProductBody) => http.put<OcProduct>(`${base}/products/${id}`, body, { toast: false }),
  setOnSale: (id: string, onSale: boolean) => http.put<OcProduct>(`${base}/products/${id}/onSale`, { onSale }),
  batches: async (query: { page: number; pageSize: number; productId?: string }) =>
    unwrap(await http.get<Page<OcBatch>>(`${base}/batches`, { query, overlay: false })),
  issue: (body: { productId: string; count: number; requestKey: string }) =>
    http.post<OcBatch>(`${base}/batches`, body, { toast: false }),
  cards: async (batchId: string, query: { page: number; pageSize: number; state?: OnecardState | undefined }) =>
    unwrap(await http.get<Page<OcCard>>(`${base}/batches/${batchId}/cards`, { query, overlay: false })),
};
