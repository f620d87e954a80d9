import type {
  GiftBag,
  MallOrder,
  MallSettings,
  MallTesters,
  Money,
  Page,
  SelfGoods,
  SmsSummary,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The merchant's mall back-office calls (`/api/card-user/mall/...`, issue 30 B). Mutations return the result (never throw). */
const base = "/api/card-user/mall";

export interface SelfCandidate {
  goodsId: string;
  name: string;
  brandName: string;
  businessType: string;
  faceValue: Money;
  cost: Money;
  inMall: boolean;
}
export interface MallMemberRow {
  customerId: string;
  phone: string;
  orders: number;
  spent: Money;
  firstSeenAt: string;
  lastSeenAt: string;
}
export interface SmsRecordRow {
  id: string;
  appId: string;
  phone: string;
  scene: string;
  state: "sent" | "failed";
  createdAt: string;
}

export const mallKeys = {
  all: ["mall-bo"] as const,
  list: (what: string, q: Query) => ["mall-bo", what, q] as const,
};

const list = async <T>(path: string, query: Query) =>
  unwrap(await http.get<Page<T>>(`${base}${path}`, { query, overlay: false }));
export const mallApi = {
  candidates: (q: Query) => list<SelfCandidate>("/selfGoods/candidates", q),
  selfGoods: (q: Query) => list<SelfGoods>("/selfGoods", q),
  addSelf: (body: { goodsId: string; price: number; confirmHighPrice?: boolean }) =>
    http.post<SelfGoods>(`${base}/selfGoods`, body, { toast: false }),
  updateSelf: (id: string, body: { price?: number; onSale?: boolean }) =>
    http.put<SelfGoods>(`${base}/selfGoods/${id}`, body),
  bags: (q: Query) => list<GiftBag>("/giftBags", q),
  saveBag: (id: string | null, body: unknown) =>
    id
      ? http.put<GiftBag>(`${base}/giftBags/${id}`, body, { toast: false })
      : http.post<GiftBag>(`${base}/giftBags`, body, { toast: false }),
  orders: (q: Query) => list<MallOrder>("/orders", q),
  /** A full refund (wallet back to the payment, card back onto the card); the same request key refunds once. */
  refund: (id: string, reason: string, requestKey: string) =>
    http.post<MallOrder>(`${base}/orders/${id}/refund`, { reason, requestKey }, { toast: false }),
  members: (q: Query) => list<MallMemberRow>("/members", q),
  sms: async () => unwrap(await http.get<SmsSummary>(`${base}/sms`, { overlay: false })),
  buySms: (code: string, requestKey: string) => http.post<SmsSummary>(`${base}/sms/packages`, { code, requestKey }),
  smsRecords: (q: Query) => list<SmsRecordRow>("/sms/records", q),
  settings: async () => unwrap(await http.get<MallSettings>(`${base}/settings`, { overlay: false })),
  saveSettings: (body: MallSettings) => http.put<MallSettings>(`${base}/settings`, body),
  testers: async () => unwrap(await http.get<MallTesters>(`${base}/testers`, { overlay: false })),
  saveTesters: (body: MallTesters) => http.put<MallTesters>(`${base}/testers`, body),
};

export const yuan = (minor: number | null | undefined) =>
  minor === null || minor === undefined ? undefined : minor / 100;
export const minor = (y: number | null | undefined) => Math.round((y ?? 0) * 100);

/** The search bar's values as the list call's filters (the chosen key → its value). */
export function filtersOf(
  values: { inpKey?: string; inpVal?: string; selKey?: string; selVal?: string | string[] },
  inputKeys: string[],
  selectKeys: string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  const ik = values.inpKey ?? inputKeys[0];
  if (values.inpVal && ik) out[ik] = values.inpVal;
  const sk = values.selKey ?? selectKeys[0];
  if (typeof values.selVal === "string" && values.selVal && sk) out[sk] = values.selVal;
  return out;
}
