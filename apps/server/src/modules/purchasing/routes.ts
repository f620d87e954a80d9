import type { Guard } from "../../platform/auth/guard";
import { routeDocs } from "../../platform/http/route";
import type { PurchasingService } from "./service";

/**
 * What the purchasing module's route plugins share: each feature's calls are in its `<feature>.routes.ts`
 * (orders, applications, refunds, statistics), one plugin per host: the purchaser's under /api/card-user,
 * the supplier's under /api/card-brander.
 */

export const docs = routeDocs("purchasing");

export interface PurchasingRouteDeps {
  purchasing: PurchasingService;
  guard: Guard;
}

/** The purchaser's pages (card-user calls): its applications, orders and refunds. */
export function buyerGuard(guard: Guard) {
  return guard({
    roles: ["sale"],
    menu: [
      "sale/GoodsPurchaseForm",
      "sale/PurchaseOrder",
      "sale/OnlineRefundSheet",
      "sale/GoodsList",
      "sale/CarmiGoodsList",
      "sale/CouponSelection",
    ],
  });
}

/** The supplier's pages (card-brander calls): `supplyOrders` and what hangs off them. */
export function supplierGuard(guard: Guard) {
  return guard({
    roles: ["business"],
    menu: ["business/SalesOrder", "business/SUPOrder", "business/CheckSupOrder", "business/VendorPurchaseForm"],
  });
}
