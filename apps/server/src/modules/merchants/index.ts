export {
  changeMerchant,
  createMerchant,
  findMerchants,
  getMerchant,
  lockMerchantForUpdate,
  merchantNames,
  merchantOfActor,
} from "./service";
export type { MerchantFilter } from "./repo";
export { merchantRoles, presentMerchant, type MerchantRow } from "./presenter";
