export { PurchasingService, type OrderResult, type PurchasingDeps } from "./service";
export { purchasingBranderRoutes, purchasingUserRoutes } from "./routes";
export { OrderChatService, orderChatBranderRoutes, orderChatUserRoutes, type StoredChatMessage } from "./orderChat";
export { mayBuyCondition } from "./eligibility";
