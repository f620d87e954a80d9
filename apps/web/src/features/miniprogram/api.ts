import type { MpConfig, MpConfigReq, MpPlatform, MpTemplate, MpVersion, Page } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The merchant's mini-program calls (`/api/card-user/miniProgram/…`, `/tiktok/…`; issue 30). Mutations return the result. */
const base = "/api/card-user/miniProgram";

export interface MpCategory {
  firstClass: string;
  secondClass: string;
}
export interface MpTemplateParams {
  configId: string;
  templateId: string | null;
  params: { key: string; label: string; type: string; default: string }[];
  values: Record<string, string>;
}

export const mpKeys = {
  all: ["miniprogram"] as const,
  list: (q: Query) => ["miniprogram", "list", q] as const,
  one: (id: string) => ["miniprogram", "one", id] as const,
  templates: (p: MpPlatform) => ["miniprogram", "templates", p] as const,
  params: (id: string) => ["miniprogram", "params", id] as const,
  versions: (id: string) => ["miniprogram", "versions", id] as const,
  categories: (id: string) => ["miniprogram", "categories", id] as const,
  quota: (id: string) => ["miniprogram", "quota", id] as const,
};

export const mpApi = {
  list: async (query: { page: number; pageSize: number; platform: MpPlatform; name?: string | undefined }) =>
    unwrap(await http.get<Page<MpConfig>>(`${base}/mpConfigs`, { query, overlay: false })),
  one: async (id: string) => unwrap(await http.get<MpConfig>(`${base}/mpConfigs/${id}`, { overlay: false })),
  save: (body: Partial<MpConfigReq> & { id?: number }) =>
    http.put<MpConfig>(`${base}/mpConfigs`, body, { toast: false }),
  authUrl: (configId: string, redirect: string) =>
    http.get<{ url: string }>(`${base}/authUrl`, { query: { configId, redirect } }),
  authCallback: (configId: string, authCode: string) =>
    http.put<MpConfig>(`${base}/authCallback`, { configId: Number(configId), authCode }),
  templates: async (platform: MpPlatform) =>
    unwrap(await http.get<{ list: MpTemplate[] }>(`${base}/templates`, { query: { platform }, overlay: false })).list,
  params: async (configId: string) =>
    unwrap(await http.get<MpTemplateParams>(`${base}/templateParams`, { query: { configId }, overlay: false })),
  saveParams: (configId: string, templateId: string, values: Record<string, string>) =>
    http.post<MpTemplateParams>(`${base}/templateParams`, {
      configId: Number(configId),
      templateId: Number(templateId),
      values,
    }),
  commit: (id: string, body: { userVersion: string; userDesc: string; force: boolean }) =>
    http.put<MpConfig>(`${base}/mpConfigs/${id}/commit`, body),
  betaQr: (id: string) => http.get<{ url: string; dataUrl: string }>(`${base}/mpConfig/${id}/betaQrcode`),
  categories: async (id: string) =>
    unwrap(await http.get<{ list: MpCategory[] }>(`${base}/mpConfig/${id}/categories`, { overlay: false })).list,
  submit: (
    id: string,
    body: { categories?: MpCategory[]; hostNames?: string[]; versionDesc: string; feedbackInfo: string },
  ) => http.put<MpConfig>(`${base}/mpConfig/${id}/submit`, body),
  release: (id: string) => http.put<MpConfig>(`${base}/mpConfig/${id}/release`),
  withdraw: (id: string) => http.put<MpConfig>(`${base}/mpConfig/${id}/withdraw`),
  rollback: (id: string) => http.put<MpConfig>(`${base}/mpConfig/${id}/rollback`),
  versions: async (id: string) =>
    unwrap(await http.get<{ list: MpVersion[] }>(`${base}/mpConfig/${id}/versions`, { overlay: false })).list,
  quota: async (id: string) =>
    unwrap(
      await http.get<{ rest: number; limit: number; withdrawTodayRest: number; withdrawMonthRest: number }>(
        `${base}/mpConfig/${id}/quota`,
        { overlay: false },
      ),
    ),
  screenshot: (key: string) => http.download(`${base}/screenshots/${key}`, { fileName: key }),
};
