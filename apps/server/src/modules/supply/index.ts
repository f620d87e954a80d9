export { SupplyService, type SupplyDeps } from "./service";
export { supplyBranderRoutes, supplyUserRoutes } from "./routes";
export { allocateCards, allocationPart, takeCards, type AllocateRequest, type Allocation } from "./allocate";
export { cardKeys, type CardKeys } from "./crypto";
export { registerCatalogSupply } from "./register";
export { notifyLowStock } from "./notify";
export { voidRefundedCards } from "./refund";
