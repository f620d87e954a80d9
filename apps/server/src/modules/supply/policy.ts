import type { GuardOptions } from "../../platform/auth/guard";

/** Suppliers manage their codes and imports; purchasers see only codes they bought. */
export const supplier: GuardOptions = {
  roles: ["business"],
  menu: ["business/SuppliedProducts", "business/GoodsInSupply", "international/business/SuppliedProducts"],
};
export const purchaser: GuardOptions = {
  roles: ["sale"],
  menu: ["sale/PurchaseOrder", "sale/Tikatan", "international/sale/GoodsPurchaseForm"],
};
/**
 * Goods the merchant bought codes of, to resell (business/ResaleGoods): the merchant's own purchases,
 * seen from its brand-owner area as well as its purchaser area.
 */
export const reseller: GuardOptions = {
  roles: ["sale", "business"],
  menu: ["business/ResaleGoods", "sale/PurchaseOrder"],
};
