import type {
  ImageReply,
  Aftersale,
  AfterSaleAction,
  AfterSaleState,
  AfterSaleWay,
  CommerceOrder,
  CommerceOrderState,
  Commodity,
  CommodityAddReq,
  CommodityKind,
  Consignee,
  Page,
  Shipment,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/**
 * The mall's calls (issue 28): the brand's through the legacy e-commerce host (`/api/ecommerce/...`, all
 * POST), the purchaser's under `/api/card-user/commerce`. Mutations return the result (never throw).
 */
const legacy = "/api/ecommerce";
const mine = "/api/card-user/commerce";

export const commerceKeys = {
  all: ["commerce"] as const,
  commodities: (q: Query) => ["commerce", "commodities", q] as const,
  selection: (q: Query) => ["commerce", "selection", q] as const,
  orders: (side: string, q: Query) => ["commerce", "orders", side, q] as const,
  order: (id: string) => ["commerce", "order", id] as const,
  aftersales: (side: string, q: Query) => ["commerce", "aftersales", side, q] as const,
  shipments: (q: Query) => ["commerce", "shipments", q] as const,
  companies: ["commerce", "companies"] as const,
  regions: (level: string, code: string) => ["commerce", "regions", level, code] as const,
};

export type CommodityBody = CommodityAddReq;
export interface Region {
  code: string;
  name: string;
}

export const brandApi = {
  /** Uploads a goods image (the catalogue's image store, `product/images`): its address and thumbnail. */
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append("file", file);
    return http.post<ImageReply>("/api/card-brander/product/images", form);
  },
  commodities: async (q: {
    page: number;
    pagesize: number;
    name?: string | undefined;
    kind?: CommodityKind | undefined;
    onShelf?: boolean | undefined;
  }) => unwrap(await http.post<Page<Commodity>>(`${legacy}/commodity/pager`, q, { overlay: false })),
  add: (body: CommodityBody) => http.post<Commodity>(`${legacy}/commodity/add`, body, { toast: false }),
  update: (id: string, body: CommodityBody) =>
    http.post<Commodity>(`${legacy}/commodity/update`, { ...body, id }, { toast: false }),
  shelf: (id: string, onShelf: boolean) => http.post<Commodity>(`${legacy}/commodity/state/update`, { id, onShelf }),
  sort: (id: string, sort: number) => http.post<Commodity>(`${legacy}/commodity/sort`, { id, sort }),
  video: (id: string, videoid: string | null) =>
    http.post<Commodity>(`${legacy}/commodity/video/update`, { id, videoid }),
  orders: async (q: {
    page: number;
    pagesize: number;
    state?: CommerceOrderState | undefined;
    orderNo?: string | undefined;
    kind?: CommodityKind | undefined;
  }) => unwrap(await http.post<Page<CommerceOrder>>(`${legacy}/commodity/order/pager`, q, { overlay: false })),
  ship: (body: { orderId: string; companyCode: string; waybillNo?: string | undefined }) =>
    http.post<CommerceOrder>(`${legacy}/order/express/create`, body, { toast: false }),
  tracking: async (orderId: string) =>
    unwrap(await http.post<Shipment>(`${legacy}/order/express/query`, { orderId }, { overlay: false })),
  shipments: async (q: { page: number; pagesize: number; waybillNo?: string | undefined }) =>
    unwrap(await http.post<Page<Shipment>>(`${legacy}/expressorder/pager`, q, { overlay: false })),
  aftersales: async (q: {
    page: number;
    pagesize: number;
    state?: AfterSaleState | undefined;
    orderNo?: string | undefined;
  }) => unwrap(await http.post<Page<Aftersale>>(`${legacy}/afterservice/pager`, q, { overlay: false })),
  dispose: (id: string, action: AfterSaleAction, reason?: string, returnAddress?: string) =>
    http.post<Aftersale>(`${legacy}/afterservice/dispose`, {
      id,
      action,
      ...(reason && { reason }),
      ...(returnAddress && { returnAddress }),
    }),
};

export const sharedApi = {
  companies: async () =>
    unwrap(
      await http.post<Page<{ code: string; name: string }>>(
        `${legacy}/express_company/pager`,
        { page: 1, pagesize: 100 },
        { overlay: false },
      ),
    ).list,
  provinces: async () => unwrap(await http.post<Region[]>(`${legacy}/province/list`, {}, { overlay: false })),
  cities: async (provinceCode: string) =>
    unwrap(await http.post<Region[]>(`${legacy}/city/list`, { provinceCode }, { overlay: false })),
  counties: async (cityCode: string) =>
    unwrap(await http.post<Region[]>(`${legacy}/county/list`, { cityCode }, { overlay: false })),
};

export const buyerApi = {
  selection: async (q: {
    page: number;
    pageSize: number;
    kind: CommodityKind;
    name?: string | undefined;
    picked?: "yes" | "no" | undefined;
  }) => unwrap(await http.get<Page<Commodity>>(`${mine}/selection`, { query: q, overlay: false })),
  pick: (commodityId: string) => http.post<{ picked: true }>(`${mine}/resales`, { commodityId }),
  unpick: (commodityId: string) => http.del<{ picked: false }>(`${mine}/resales/${commodityId}`),
  order: (body: {
    items: { skuId: string; quantity: number }[];
    consignee?: Consignee;
    remark?: string;
    requestKey: string;
  }) => http.post<CommerceOrder>(`${mine}/orders`, body, { toast: false }),
  orders: async (q: {
    page: number;
    pageSize: number;
    state?: CommerceOrderState | undefined;
    kind?: CommodityKind | undefined;
    orderNo?: string | undefined;
  }) => unwrap(await http.get<Page<CommerceOrder>>(`${mine}/orders`, { query: q, overlay: false })),
  one: async (id: string) => unwrap(await http.get<CommerceOrder>(`${mine}/orders/${id}`, { overlay: false })),
  pay: (id: string) => http.post<CommerceOrder>(`${mine}/orders/${id}/pay`, {}),
  cancel: (id: string, reason: string) => http.post<CommerceOrder>(`${mine}/orders/${id}/cancel`, { reason }),
  confirm: (id: string) => http.post<CommerceOrder>(`${mine}/orders/${id}/confirm`, {}),
  applyAftersale: (body: {
    orderItemId: string;
    way: AfterSaleWay;
    quantity: number;
    amount: number;
    reason: string;
    requestKey: string;
  }) => http.post<Aftersale>(`${mine}/aftersales`, body, { toast: false }),
  aftersales: async (q: { page: number; pageSize: number; state?: AfterSaleState | undefined }) =>
    unwrap(await http.get<Page<Aftersale>>(`${mine}/aftersales`, { query: q, overlay: false })),
  shipBack: (id: string, body: { companyCode: string; waybillNo: string }) =>
    http.post<Aftersale>(`${mine}/aftersales/${id}/ship`, body, { toast: false }),
  cancelAftersale: (id: string) => http.post<Aftersale>(`${mine}/aftersales/${id}/cancel`, {}),
};

export function newRequestKey(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
