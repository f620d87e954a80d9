import type { ModuleHost } from "../../platform/module";
import { transactionCount } from "../ledger";
import { opsFundsRoutes, purchaserFundsRoutes, supplierFundsRoutes } from "./routes";
import { FundsService } from "./service";

export { FundsService } from "./service";
export { maskAccount } from "./service";

/**
 * Prepaid fund accounts: top-up notices, fund-change lists, operator confirmations and credits. Mounts
 * /api/card-user/funds (purchasers), /api/card-brander (suppliers) and /api/ops/funds (operators).
 */
export async function registerFunds(host: ModuleHost): Promise<{ funds: FundsService }> {
  const { ctx, db, guard } = host;
  const funds = new FundsService({ db, config: ctx.config, clock: ctx.clock, storage: ctx.storage });
  await host.mount("/api/card-user/funds", purchaserFundsRoutes({ funds, guard }));
  await host.mount("/api/card-brander", supplierFundsRoutes({ funds, guard }));
  await host.mount("/api/ops/funds", opsFundsRoutes({ funds, guard }));
  host.measure({ ledgerTransactions: () => transactionCount(db) });
  return { funds };
}
