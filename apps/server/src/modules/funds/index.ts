export { FundsService } from "./service";
export { opsFundsRoutes, purchaserFundsRoutes, supplierFundsRoutes } from "./routes";
export { maskMiddle } from "./service";
