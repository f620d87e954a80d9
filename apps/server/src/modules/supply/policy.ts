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
