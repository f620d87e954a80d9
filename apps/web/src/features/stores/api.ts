import type {
  SettlePreview,
  SettleRunReply,
  Clerk,
  District,
  MessageKey,
  Page,
  QrCode,
  QrKind,
  QrLanding,
  GoodsStoresReply,
  GoodsStoresReq,
  Redemption,
  RedemptionSource,
  SettlementDoc,
  Store,
  StoreBatchReply,
  StoreReq,
  StoreState,
  WriteAccountReply,
  WriteOffKind,
  WriteOffPreview,
} from "@tessera/contracts";
import type { Query } from "../../api/client";
import { interfaceError, interpret, type ApiResult } from "../../api/envelope";
import { unwrap } from "../../api/errors";
import { currentVersion, http, tokens } from "../../api/http";
import { currentLang, i18n } from "../../i18n";

/** Store and write-off calls (issue 27): `/api/card-brander/...`, `/api/card-user/...`, `/api/card-servicer/...`. */
const brander = "/api/card-brander";

export const storeKeys = {
  all: ["stores"] as const,
  list: (scope: string, q: Query) => ["stores", "list", scope, q] as const,
  districts: (q: Query) => ["stores", "districts", q] as const,
  clerks: (storeId: string) => ["stores", "clerks", storeId] as const,
  codes: (q: Query) => ["stores", "codes", q] as const,
  redemptions: (scope: string, q: Query) => ["stores", "redemptions", scope, q] as const,
  account: (q: Query) => ["stores", "account", q] as const,
  docs: (scope: string, q: Query) => ["stores", "docs", scope, q] as const,
};

export interface StoreListQuery {
  page: number;
  pageSize: number;
  keyword?: string | undefined;
  state?: StoreState | undefined;
  districtId?: string | undefined;
  provinceCode?: string | undefined;
  cityCode?: string | undefined;
  countyCode?: string | undefined;
  branderId?: string | undefined;
}
export type StoreBody = StoreReq;
export interface RedemptionListQuery {
  page: number;
  pageSize: number;
  storeId?: string | undefined;
  kind?: RedemptionSource | undefined;
  from?: string | undefined;
  to?: string | undefined;
  settled?: "true" | "false" | undefined;
}
export interface DocListQuery {
  page: number;
  pageSize: number;
  storeId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  branderId?: string | undefined;
}

/** The operator's store settlement (`/api/ops/stores`): what a run would settle, and the run. */
export const opsSettlementApi = {
  preview: async (day: string) =>
    unwrap(await http.get<SettlePreview>("/api/ops/stores/settle/preview", { query: { day }, overlay: false })),
  settle: (day: string) => http.post<SettleRunReply>("/api/ops/stores/settle", { day }),
};

export const storeApi = {
  list: async (query: StoreListQuery) =>
    unwrap(await http.get<Page<Store>>(`${brander}/branderStores`, { query: { ...query }, overlay: false })),
  associated: async (query: StoreListQuery) =>
    unwrap(await http.get<Page<Store>>("/api/card-user/associatedStores", { query: { ...query }, overlay: false })),
  visiting: async (query: StoreListQuery) =>
    unwrap(await http.get<Page<Store>>("/api/card-servicer/visitorStores", { query: { ...query }, overlay: false })),
  create: (body: StoreBody) => http.post<Store>(`${brander}/branderStores`, body, { toast: false }),
  update: (id: string, body: StoreBody) => http.put<Store>(`${brander}/branderStores/${id}`, body, { toast: false }),
  remove: (storeIds: string[]) => http.del<{ deleted: number }>(`${brander}/branderStores`, { body: { storeIds } }),
  template: () => http.download(`${brander}/branderStores/template`, { fileName: "store-template.xlsx" }),
  rejectReport: (importId: string) =>
    http.download(`${brander}/branderStores/imports/${importId}/rejects`, {
      fileName: `store-rejects-${importId}.xlsx`,
    }),
  districts: async (query: { page: number; pageSize: number; keyword?: string | undefined }) =>
    unwrap(await http.get<Page<District>>(`${brander}/storeDistricts`, { query, overlay: false })),
  saveDistrict: (id: string | null, body: { name: string; remark: string }) =>
    id
      ? http.put<District>(`${brander}/storeDistricts/${id}`, body, { toast: false })
      : http.post<District>(`${brander}/storeDistricts`, body, { toast: false }),
  deleteDistrict: (id: string) => http.del<{ deleted: true }>(`${brander}/storeDistricts/${id}`),
  clerks: async (storeId: string) =>
    unwrap(await http.get<Clerk[]>(`${brander}/branderStores/${storeId}/clerks`, { overlay: false })),
  bindClerk: (storeId: string, passportId: string) =>
    http.post<Clerk[]>(`${brander}/branderStores/${storeId}/clerks`, { passportId }),
  unbindClerk: (storeId: string, passportId: string) =>
    http.del<Clerk[]>(`${brander}/branderStores/${storeId}/clerks/${passportId}`),
  subAccounts: async () =>
    unwrap(
      await http.get<Page<{ passportId: string; email: string; name: string }>>(
        `${brander}/brander/passport/sub/search`,
        { query: { page: 1, pageSize: 1000 }, overlay: false },
      ),
    ),
  bindShopCode: (storeId: string) => http.post<QrCode>(`${brander}/qrCodes/bind`, { storeId }),
  codes: async (query: { page: number; pageSize: number; kind?: QrKind | undefined; storeId?: string | undefined }) =>
    unwrap(await http.get<Page<QrCode>>(`${brander}/qrCodes`, { query, overlay: false })),
  createMallCode: (body: { name: string; storeId: string | null }) =>
    http.post<QrCode>(`${brander}/mallCodes`, body, { toast: false }),
  deleteMallCode: (id: string) => http.del<{ deleted: true }>(`${brander}/mallCodes/${id}`),
  png: (code: QrCode) =>
    http.download(`${brander}/qrCodes/${code.id}/png`, { fileName: `qr-${code.kind}-${code.id}.png` }),
  landing: async (token: string) => unwrap(await http.get<QrLanding>(`/api/store-public/qr/${token}`, { auth: false })),
};

export const writeOffApi = {
  me: async () =>
    unwrap(
      await http.get<{ storeId: string; storeName: string; branderName: string } | null>(`${brander}/writeOff/me`, {
        overlay: false,
      }),
    ),
  check: (body: { kind: WriteOffKind; code: string; secret?: string | undefined; storeId?: string | undefined }) =>
    http.post<WriteOffPreview>(`${brander}/writeOff/check`, body, { toast: false }),
  redeem: (body: {
    kind: WriteOffKind;
    code: string;
    secret?: string | undefined;
    storeId?: string | undefined;
    amount?: number | undefined;
    requestKey: string;
  }) => http.post<Redemption>(`${brander}/writeOff/redeem`, body, { toast: false }),
  records: async (query: RedemptionListQuery) =>
    unwrap(await http.get<Page<Redemption>>(`${brander}/hyAccounts`, { query: { ...query }, overlay: false })),
  writeOrders: async (query: RedemptionListQuery) =>
    unwrap(await http.get<Page<Redemption>>("/api/card-user/writeOrders", { query: { ...query }, overlay: false })),
  account: async (query: { from?: string | undefined; to?: string | undefined }) =>
    unwrap(await http.get<WriteAccountReply>(`${brander}/accounts`, { query, overlay: false })),
  docs: async (query: DocListQuery) =>
    unwrap(await http.get<Page<SettlementDoc>>(`${brander}/writeOff/docs`, { query: { ...query }, overlay: false })),
  doc: async (id: string) =>
    unwrap(await http.get<{ doc: SettlementDoc; lines: Redemption[] }>(`${brander}/writeOff/docs/${id}`)),
  docXlsx: (doc: SettlementDoc) =>
    http.download(`${brander}/writeOff/docs/${doc.id}/xlsx`, {
      fileName: `settlement-${doc.storeName}-${doc.day}.xlsx`,
    }),
  docPdf: (doc: SettlementDoc) =>
    http.download(`${brander}/writeOff/docs/${doc.id}/pdf`, { fileName: `settlement-${doc.id}.pdf` }),
  goodsStores: async (goodsId: string) =>
    unwrap(await http.get<GoodsStoresReply>(`${brander}/product/${goodsId}/stores`, { overlay: false })),
  setGoodsStores: (goodsId: string, body: GoodsStoresReq) =>
    http.put<GoodsStoresReply>(`${brander}/product/${goodsId}/stores`, body, { toast: false }),
  writeFund: async (query: DocListQuery) =>
    unwrap(
      await http.get<Page<SettlementDoc>>("/api/card-servicer/writeFund", { query: { ...query }, overlay: false }),
    ),
  /** A document of a brand the provider serves (WriteFund): the same detail, xlsx and PDF as the brand's. */
  fundDoc: async (id: string, branderId: string) =>
    unwrap(
      await http.get<{ doc: SettlementDoc; lines: Redemption[] }>(`/api/card-servicer/writeFund/${id}`, {
        query: { branderId },
      }),
    ),
  fundDocXlsx: (doc: SettlementDoc) =>
    http.download(`/api/card-servicer/writeFund/${doc.id}/xlsx`, {
      query: { branderId: doc.branderId },
      fileName: `settlement-${doc.storeName}-${doc.day}.xlsx`,
    }),
  fundDocPdf: (doc: SettlementDoc) =>
    http.download(`/api/card-servicer/writeFund/${doc.id}/pdf`, {
      query: { branderId: doc.branderId },
      fileName: `settlement-${doc.id}.pdf`,
    }),
};

/**
 * Sends the store import file as the request body (xlsx), with the same token, language and error
 * envelope as every call (as the card import does).
 */
export async function importStores(file: File): Promise<ApiResult<StoreBatchReply>> {
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
    const res = await fetch(`${brander}/branderStores/import?fileName=${encodeURIComponent(file.name)}`, {
      method: "POST",
      headers,
      body: file,
    });
    const body: unknown = await res.json().catch(() => null);
    const outcome = interpret<StoreBatchReply>(res.status, body, interfaceMsg);
    if (outcome.kind === "ok") return outcome.result;
    if (outcome.kind === "unauthorized") return (await http.get<never>(`${brander}/branderStores`)) ?? outcome.result;
    return outcome.kind === "fail" ? outcome.result : interfaceError(interfaceMsg, res.status);
  } catch {
    return interfaceError(interfaceMsg, 0);
  }
}
