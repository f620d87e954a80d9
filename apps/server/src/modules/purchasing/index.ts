export { PurchasingService, type PurchasingDeps } from "./service";
export { purchasingBranderRoutes, purchasingUserRoutes } from "./routes";
