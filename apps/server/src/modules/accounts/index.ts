export { AccountsService, type AccountsDeps } from "./service";
export { accountRoutes, validateTokenRoutes } from "./routes";
export { ensureOperator } from "./bootstrap";
export { SubAccountsService, type SubAccountsDeps } from "./subaccounts";
/** Marks a checked code used, in the caller's transaction; false when another request used it first. */
export { consumeCode as consumeVerificationCode } from "./repo";
export { addOperator, operatorRoutes } from "./operators";
