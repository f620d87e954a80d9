import type {
  Page,
  TakeoutAction,
  TakeoutItem,
  TakeoutItemReq,
  TakeoutOrder,
  TakeoutOrderState,
  TakeoutPackage,
  TakeoutPackageReq,
  TakeoutShop,
  TakeoutShopReq,
  TakeoutType,
} from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The brand's takeout calls (`/api/card-brander/takeout/...`, issue 28). Mutations return the result (never throw). */
const base = "/api/card-brander/takeout";

export const takeoutKeys = {
  all: ["takeout"] as const,
  shop: ["takeout", "shop"] as const,
  types: ["takeout", "types"] as const,
  items: ["takeout", "items"] as const,
  packages: ["takeout", "packages"] as const,
  orders: (q: object) => ["takeout", "orders", q] as const,
  order: (id: string) => ["takeout", "order", id] as const,
};

export const takeoutApi = {
  shop: async () => unwrap(await http.get<TakeoutShop | null>(`${base}/shop`, { overlay: false })),
  saveShop: (body: TakeoutShopReq) => http.put<TakeoutShop>(`${base}/shop`, body, { toast: false }),
  types: async () => unwrap(await http.get<TakeoutType[]>(`${base}/types`, { overlay: false })),
  addType: (body: { name: string; sort: number }) => http.post<TakeoutType[]>(`${base}/types`, body, { toast: false }),
  updateType: (id: string, body: { name: string; sort: number }) =>
    http.put<TakeoutType[]>(`${base}/types/${id}`, body, { toast: false }),
  deleteType: (id: string) => http.del<TakeoutType[]>(`${base}/types/${id}`),
  items: async () => unwrap(await http.get<TakeoutItem[]>(`${base}/items`, { overlay: false })),
  addItem: (body: TakeoutItemReq) => http.post<TakeoutItem[]>(`${base}/items`, body, { toast: false }),
  updateItem: (id: string, body: TakeoutItemReq) =>
    http.put<TakeoutItem[]>(`${base}/items/${id}`, body, { toast: false }),
  packages: async () => unwrap(await http.get<TakeoutPackage[]>(`${base}/packages`, { overlay: false })),
  addPackage: (body: TakeoutPackageReq) => http.post<TakeoutPackage[]>(`${base}/packages`, body, { toast: false }),
  updatePackage: (id: string, body: TakeoutPackageReq) =>
    http.put<TakeoutPackage[]>(`${base}/packages/${id}`, body, { toast: false }),
  orders: async (q: { page: number; pageSize: number; state?: TakeoutOrderState | undefined }) =>
    unwrap(await http.get<Page<TakeoutOrder>>(`${base}/orders`, { query: q, overlay: false })),
  order: async (id: string) => unwrap(await http.get<TakeoutOrder>(`${base}/orders/${id}`, { overlay: false })),
  act: (id: string, action: TakeoutAction, reason?: string) =>
    http.post<TakeoutOrder>(`${base}/orders/${id}/action`, { action, ...(reason && { reason }) }),
};
