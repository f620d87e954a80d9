import type { ModuleHost } from "../../platform/module";
import { merchantOwner } from "../accounts";
import { brandsOfMerchants, goodsNames } from "../catalog";
import { activeBindings } from "../onboarding";
import { newDockings } from "../docking";
import { fundChangesOfMerchants, tradesByDay, tradesByMerchant } from "../ledger";
import { servedOrders, type PurchasingService } from "../purchasing";
import { providerOpsRoutes } from "./routes";
import { ProviderOpsService } from "./service";

export { ProviderOpsService } from "./service";

/**
 * A service provider's operations pages (issue 29): the orders, daily figures, monthly settlements and
 * brands of the merchants it serves, read through the purchasing, catalog, ledger (trade facts), docking and onboarding modules'
 * exported reads; BatchPurchase orders for served purchasers through the purchasing module's order path
 * (its only table keeps each file's line results). Mounts /api/card-servicer.
 */
export async function registerProviderOps(
  host: ModuleHost,
  needs: { purchasing: PurchasingService },
): Promise<{ providerOps: ProviderOpsService }> {
  const ops = new ProviderOpsService({
    db: host.db,
    activeBindings,
    servedOrders,
    tradesByDay,
    tradesByMerchant,
    newDockings,
    brandsOfMerchants,
    fundChangesOfMerchants,
    purchasing: needs.purchasing,
    goodsNames,
    merchantOwner,
  });
  await host.mount("/api/card-servicer", providerOpsRoutes({ ops, guard: host.guard }));
  return { providerOps: ops };
}
