import { MERCHANT_ROLES, type MerchantInfo, type MerchantRole } from "@tessera/contracts";
import type { Selectable } from "kysely";
import type { MerchantsTable } from "./tables";

export type MerchantRow = Selectable<MerchantsTable>;

export function merchantRoles(roles: readonly string[]): MerchantRole[] {
  return MERCHANT_ROLES.filter((r) => roles.includes(r));
}

export function presentMerchant(row: MerchantRow): MerchantInfo {
  return {
    merchantId: String(row.id),
    name: row.name,
    roles: merchantRoles(row.roles),
    version: row.version,
    country: row.country,
    currency: row.currency,
    realNameState: row.real_name_state,
    apiPermission: row.api_permission,
  };
}
