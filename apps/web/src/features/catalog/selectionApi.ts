import type { Merchandise, Page, SelectionType } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** Goods selection calls of the card user (`/api/card-user/merchandises`). */
const base = "/api/card-user";

export const selectionKeys = {
  list: (q: Query) => ["selection", "list", q] as const,
  filters: (type: SelectionType) => ["selection", "filters", type] as const,
  detail: (id: number) => ["selection", "detail", id] as const,
};

export const selectionApi = {
  list: async (query: Query) =>
    unwrap(await http.get<Page<Merchandise>>(`${base}/merchandises`, { query, overlay: false })),
  filters: async (type: SelectionType) =>
    unwrap(
      await http.get<{ brands: { id: number; name: string }[]; faceValues: number[] }>(`${base}/merchandises/filters`, {
        query: { type },
        overlay: false,
      }),
    ),
  detail: async (id: number) => unwrap(await http.get<Merchandise>(`${base}/merchandises/${id}`)),
};
