import type { ModuleHost } from "../../platform/module";
import { operatorRoutes } from "./operators";
import { accountRoutes, validateTokenRoutes } from "./routes";
import { AccountsService, type AccountsIm } from "./service";

export {
  AccountsService,
  ADDRESS_FAILURES,
  ADDRESS_WINDOW_MINUTES,
  type AccountsDeps,
  type SealedTokenOpener,
} from "./service";
export { ensureOperator } from "./bootstrap";
export { SubAccountsService, type SubAccountsDeps } from "./subaccounts";
/** A sub-account (sub-passport) of a merchant, or undefined. */
export { findSubAccount } from "./subaccounts.repo";
/** Marks a checked code used, in the caller's transaction; false when another request used it first. */
export { consumeCode as consumeVerificationCode, merchantOwner } from "./repo";
export { addOperator } from "./operators";

export interface AccountsModule {
  accounts: AccountsService;
}

/**
 * Accounts: registration, login, tokens, verification codes, operators. Its tokens are the guard's first
 * way in. Mounts /api/card-user (account calls), /api/login (validatetoken) and /api/ops (operators).
 */
export async function registerAccounts(host: ModuleHost, needs: { im: AccountsIm }): Promise<AccountsModule> {
  const { ctx, db, guard } = host;
  const accounts = new AccountsService({
    db,
    config: ctx.config,
    clock: ctx.clock,
    hasher: ctx.hasher,
    secret: ctx.secret,
    mailer: ctx.mailer,
    sms: ctx.sms,
    im: needs.im,
  });
  host.authenticateWith((token) => accounts.authenticate(token));
  // The header links the dev mailbox only when /api/dev/* exists (DEV_ROUTES=true).
  const publicConfig = {
    devOutbox: ctx.config.devRoutes,
    tokenTtlSeconds: ctx.config.tokenTtlSeconds,
    timeZone: ctx.config.displayZone,
  };
  await host.mount("/api/card-user", accountRoutes({ accounts, guard, publicConfig }));
  await host.mount("/api/login", validateTokenRoutes(accounts));
  await host.mount("/api/ops", operatorRoutes({ db, hasher: ctx.hasher, guard }));
  return { accounts };
}
export { insertUser } from "./repo";
export type { AccountsIm } from "./service";
