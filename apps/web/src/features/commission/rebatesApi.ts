import type { Page, RebateOption, RebateRule, RebateStatement } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/** The supplier's rebate calls (`/api/card-brander/rebate`): its rules and the rebates it granted. */
export interface RebateRuleBody {
  purchaserId: string | null;
  goodsId: string | null;
  tiers: { minVolume: number; rateBp: number }[];
  validFrom: string;
  validTo: string | null;
}
export interface GrantedQuery {
  page: number;
  pageSize: number;
  from?: string | undefined;
  to?: string | undefined;
}

export const rebateKeys = {
  all: ["supplierRebate"] as const,
  rules: ["supplierRebate", "rules"] as const,
  goodsOptions: (keyword: string) => ["supplierRebate", "options", "goods", keyword] as const,
  purchaserOptions: ["supplierRebate", "options", "purchasers"] as const,
  granted: (q: GrantedQuery) => ["supplierRebate", "granted", q] as const,
};

const base = "/api/card-brander/rebate";
export const supplierRebateApi = {
  rules: async () => unwrap(await http.get<RebateRule[]>(`${base}/rules`, { overlay: false })),
  // The rule dialog's pickers, served under the rules' own page permission (not the goods or docking pages).
  goodsOptions: async (keyword: string) =>
    unwrap(
      await http.get<RebateOption[]>(`${base}/rules/options/goods`, {
        query: keyword ? { keyword } : {},
        overlay: false,
      }),
    ),
  purchaserOptions: async () =>
    unwrap(await http.get<RebateOption[]>(`${base}/rules/options/purchasers`, { overlay: false })),
  addRule: (body: RebateRuleBody) => http.post<RebateRule>(`${base}/rules`, body, { toast: false }),
  removeRule: (id: string) => http.del<null>(`${base}/rules/${id}`),
  granted: async (query: GrantedQuery) =>
    unwrap(await http.get<Page<RebateStatement>>(`${base}/statements`, { query: { ...query }, overlay: false })),
};
