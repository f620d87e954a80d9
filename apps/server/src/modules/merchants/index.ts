export { createMerchant, getMerchant } from "./service";
export { merchantRoles, presentMerchant, type MerchantRow } from "./presenter";
