export { AccountsService, type AccountsDeps } from "./service";
export { accountRoutes, validateTokenRoutes } from "./routes";
export { ensureOperator } from "./bootstrap";
