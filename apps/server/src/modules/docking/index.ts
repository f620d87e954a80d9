import type { ModuleHost } from "../../platform/module";
import { consumeVerificationCode, type AccountsService } from "../accounts";
import { dockingBranderRoutes, dockingUserRoutes } from "./routes";
import { DockingService } from "./service";

export { DockingService, type DockingDeps, type SigningCodes } from "./service";
export { mayBuyCondition } from "./eligibility.sql";
export { approvedPurchasers, dockedPair, newDockings } from "./repo";

export interface DockingNeeds {
  accounts: AccountsService;
}

/**
 * Who may buy from whom: dockings (apply, review, both sides sign), brand authorisations and supplier
 * whitelists, and the one rule that combines them (`mayBuyCondition`), which purchasing's orders and
 * catalog's goods lists apply. Mounts under /api/card-user (abutment/*, apply/{id}, brandAuth) and
 * /api/card-brander (whitelists).
 */
export async function registerDocking(
  host: ModuleHost,
  { accounts }: DockingNeeds,
): Promise<{ docking: DockingService }> {
  const { ctx, db, guard } = host;
  const docking = new DockingService({
    db,
    clock: ctx.clock,
    // Docking agreements are signed like every agreement: an SMS code to the phone the signer gives.
    codes: {
      check: (phone, code) => accounts.checkSmsCode(phone, "signAgreement", code),
      consume: consumeVerificationCode,
    },
  });
  await host.mount("/api/card-user", dockingUserRoutes({ docking, guard }));
  await host.mount("/api/card-brander", dockingBranderRoutes({ docking, guard }));
  return { docking };
}
