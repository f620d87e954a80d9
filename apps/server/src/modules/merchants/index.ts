export { changeMerchant, createMerchant, findMerchants, getMerchant, lockMerchantForUpdate, merchantOfActor } from "./service";
export type { MerchantFilter } from "./repo";
export { merchantRoles, presentMerchant, type MerchantRow } from "./presenter";
