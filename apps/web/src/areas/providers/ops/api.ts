import type { FiguresReply, Page, ServedBrand, ServedOrder, ServedSettlement } from "@tessera/contracts";
import type { Query } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { http } from "../../../api/http";

/** The provider's operations calls (`/api/card-servicer/ops`, issue 29). */
const base = "/api/card-servicer/ops";
export const providerOpsApi = {
  orders: async (query: Query) => unwrap(await http.get<Page<ServedOrder>>(`${base}/orders`, { query, overlay: false })),
  figures: async (query: { from: string; to: string }) => unwrap(await http.get<FiguresReply>(`${base}/figures`, { query, overlay: false })),
  settlements: async (query: { from: string; to: string }) => unwrap(await http.get<ServedSettlement[]>(`${base}/settlements`, { query, overlay: false })),
  brands: async () => unwrap(await http.get<ServedBrand[]>(`${base}/brands`, { overlay: false })),
};
export const ORDERS_EXPORT_PATH = `${base}/orders/export`;
