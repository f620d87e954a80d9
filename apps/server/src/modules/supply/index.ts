import path from "node:path";
import type { ModuleHost } from "../../platform/module";
import type { CatalogService, LowStock } from "../catalog";
import { notifyLowStock } from "./notify";
import { cardKeys } from "./crypto";
import { cardExpiryJob, interruptedImportsJob } from "./jobs";
import { supplyBranderRoutes, supplyUserRoutes } from "./routes";
import { SupplyService } from "./service";

export { SupplyService, type SupplyDeps } from "./service";
export { allocateCards, allocationPart, takeCards, type AllocateRequest, type Allocation } from "./allocate";
export { cardKeys, type CardKeys } from "./crypto";
export { expireUnredeemedCards, voidHandedOnCodes, voidRefundedCards, type VoidedCode } from "./refund.repo";
export { peekRedeemable, redeemSupplyCard, type RedeemableCard, type RedeemRefusal } from "./redeem";
export { buyerStock, buyerStockUpTo, sealedCodes, takeBuyerCodes } from "./stock.repo";

export interface SupplyModule {
  supply: SupplyService;
  /** Mails a supplier that a sale took a goods below its low-stock threshold. */
  notifyLowStock: (notice: LowStock) => Promise<void>;
}

/**
 * Card secrets: imports, stock, the buyer's reveal. Mounts under /api/card-brander and /api/card-user
 * and runs the daily card-expiry job and the sweep that closes imports whose importer died.
 */
export async function registerSupply(
  host: ModuleHost,
  { catalog }: { catalog: CatalogService },
): Promise<SupplyModule> {
  const { ctx, db, guard } = host;
  const supply = new SupplyService({
    db,
    keys: cardKeys(ctx.secret),
    clock: ctx.clock,
    mailer: ctx.mailer,
    copyImports: ctx.database.kind === "pglite",
    // xlsx imports wait here while they are read; each file is removed when its import ends.
    spoolDir: path.join(ctx.config.dataDir, "imports"),
  });
  await supply.sweepSpool();
  host.schedule(cardExpiryJob(supply, ctx.clock));
  host.schedule(interruptedImportsJob(supply, ctx.database.kind === "pglite"));
  await host.mount("/api/card-brander", supplyBranderRoutes({ supply, guard }));
  await host.mount("/api/card-user", supplyUserRoutes({ supply, catalog, guard }));
  return { supply, notifyLowStock: (notice) => notifyLowStock(db, ctx.mailer, notice) };
}
