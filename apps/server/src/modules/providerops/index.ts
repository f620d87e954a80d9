import type { ModuleHost } from "../../platform/module";
import { brandsOfMerchants } from "../catalog";
import { activeBindings } from "../onboarding";
import { servedDailyFigures, servedOrders, servedSettlements } from "../purchasing";
import { providerOpsRoutes } from "./routes";
import { ProviderOpsService } from "./service";

export { ProviderOpsService } from "./service";

/**
 * A service provider's operations pages (issue 29): the orders, daily figures, monthly settlements and
 * brands of the merchants it serves, read through the purchasing, catalog and onboarding modules'
 * exported reads. No tables of its own. Mounts /api/card-servicer.
 */
export async function registerProviderOps(host: ModuleHost): Promise<{ providerOps: ProviderOpsService }> {
  const ops = new ProviderOpsService({ db: host.db, activeBindings, servedOrders, servedDailyFigures, servedSettlements, brandsOfMerchants });
  await host.mount("/api/card-servicer", providerOpsRoutes({ ops, guard: host.guard }));
  return { providerOps: ops };
}
