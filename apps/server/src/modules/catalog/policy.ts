import type { GuardOptions } from "../../platform/auth/guard";

/**
 * Who may call what. Suppliers (role business) manage brands and goods; purchasers (role sale) browse
 * goods on sale. Sub-accounts need one of the pages a call serves among their menus.
 */
const SUPPLIER_PAGES = [
  "business/SuppliedProducts",
  "business/GoodsInSupply",
  "business/CommoditySupply",
  "international/business/SuppliedProducts",
] as const;
const PURCHASER_PAGES = [
  "sale/GoodsList",
  "sale/CarmiGoodsList",
  "sale/CouponSelection",
  "sale/VirtualGoods",
  "sale/SelfSupport",
  "international/sale/GoodsList",
] as const;

/** A service provider reading the supplied goods of a merchant it serves. */
export const provider: GuardOptions = { roles: ["providers"], menu: "providers/SuppliedProductsP" };

export const supplier: GuardOptions = { roles: ["business"], menu: SUPPLIER_PAGES };
export const purchaser: GuardOptions = { roles: ["sale"], menu: PURCHASER_PAGES };
