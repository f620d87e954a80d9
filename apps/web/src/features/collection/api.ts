import type {
  ApplyRecord,
  ApplyReq,
  Page,
  PayCode,
  PayCodeInfo,
  PayOrder,
  PayOrderState,
  PayRefund,
} from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** Payment collection calls (issue 27): `/api/card-brander/...`, the payer's `/api/pay-public/...`. */
const brander = "/api/card-brander";
const pub = "/api/pay-public";

export const collectionKeys = {
  all: ["collection"] as const,
  records: ["collection", "records"] as const,
  codes: (passportId: string) => ["collection", "codes", passportId] as const,
  orders: (scope: string, q: object) => ["collection", "orders", scope, q] as const,
  refunds: (q: object) => ["collection", "refunds", q] as const,
};

export interface OrderListQuery {
  page: number;
  pageSize: number;
  state?: PayOrderState | undefined;
  orderNo?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  branderId?: string | undefined;
}
export type ApplyBody = ApplyReq;

export const collectionApi = {
  industries: async () =>
    unwrap(
      await http.get<{ code: string; name: string; feeBps: number }[]>(`${brander}/wechat/industries`, {
        overlay: false,
      }),
    ),
  records: async () => unwrap(await http.get<Page<ApplyRecord>>(`${brander}/paymentApplyRecords`, { overlay: false })),
  save: (body: ApplyBody) => http.post<ApplyRecord>(`${brander}/paymentApplyRecords`, body, { toast: false }),
  submit: () => http.post<ApplyRecord>(`${brander}/paymentApplyRecords/submit`, {}, { toast: false }),
  confirm: () => http.post<ApplyRecord>(`${brander}/paymentApplyRecords/confirm`, {}),
  uploadLicence: (file: File) => {
    const form = new FormData();
    form.append("file", file);
    return http.post<{ key: string; url: string }>(`${brander}/paymentApplyRecords/images`, form);
  },
  licence: (key: string) => http.download(`${brander}/paymentApplyRecords/images/${key}`, { fileName: key }),
  storeCodes: async (storeId: string) =>
    unwrap(
      await http.get<Page<PayCode>>(`${brander}/paymentCodes`, {
        query: { storeId, page: 1, pageSize: 100 },
        overlay: false,
      }),
    ),
  codes: async (passportId: string) =>
    unwrap(
      await http.get<Page<PayCode>>(`${brander}/subPassports/${passportId}/paymentCodes`, {
        query: { page: 1, pageSize: 100 },
        overlay: false,
      }),
    ),
  createCode: (passportId: string, body: { name: string; storeId: string | null; amount: number | null }) =>
    http.post<PayCode>(`${brander}/subPassports/${passportId}/paymentCodes`, body, { toast: false }),
  deleteCode: (passportId: string, id: string) =>
    http.del<{ deleted: true }>(`${brander}/subPassports/${passportId}/paymentCodes/${id}`),
  orders: async (query: OrderListQuery) =>
    unwrap(await http.get<Page<PayOrder>>(`${brander}/paymentOrders`, { query: { ...query }, overlay: false })),
  servedOrders: async (query: OrderListQuery) =>
    unwrap(await http.get<Page<PayOrder>>("/api/card-servicer/paymentOrders", { query: { ...query }, overlay: false })),
  refunds: async (query: { page: number; pageSize: number; orderId?: string | undefined }) =>
    unwrap(await http.get<Page<PayRefund>>(`${brander}/paymentRefunds`, { query, overlay: false })),
  refund: (body: { orderId: string; amount: number; reason: string; requestKey: string }) =>
    http.post<PayRefund>(`${brander}/paymentRefunds`, body, { toast: false }),
  codeInfo: async (token: string) => unwrap(await http.get<PayCodeInfo>(`${pub}/codes/${token}`, { auth: false })),
  pay: (token: string, body: { amount: number; note: string; requestKey: string }) =>
    http.post<PayOrder>(`${pub}/codes/${token}/pay`, body, { auth: false, toast: false }),
  signInfo: async (token: string) => unwrap(await http.get<ApplyRecord>(`${pub}/sign/${token}`, { auth: false })),
  sign: (token: string) => http.post<ApplyRecord>(`${pub}/sign/${token}`, {}, { auth: false }),
};

export const newRequestKey = () => `rk-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
