import type { ModuleHost } from "../../platform/module";
import { activeBindings } from "../onboarding";
import { orderMovementsSql } from "../purchasing";
import { RebatesService } from "./rebates";
import { commissionOpsRoutes, commissionProviderRoutes, rebatePurchaserRoutes, rebateSupplierRoutes } from "./routes";
import { CommissionService } from "./service";

export { CommissionService, payableFrom, shiftPeriod } from "./service";
export { RebatesService } from "./rebates";

/**
 * Service-provider commission and purchaser rebates (issue 29): the operator's commission rules and the
 * monthly close (also a job: once a month has ended it is closed, idempotently; rebates still due are
 * paid), the provider's statements and their confirmation, the supplier's rebate rules, the purchaser's
 * rebate records and account changes, all paid through the ledger. Mounts /api/card-servicer (provider),
 * /api/card-brander (supplier), /api/card-user (purchaser) and /api/ops (operator).
 */
export async function registerCommission(
  host: ModuleHost,
): Promise<{ commission: CommissionService; rebates: RebatesService }> {
  const { ctx, db, guard } = host;
  const rebates = new RebatesService({ db, clock: ctx.clock });
  const commission = new CommissionService({
    db,
    clock: ctx.clock,
    orderMovements: orderMovementsSql,
    activeBindings,
    payRebates: () => rebates.payDue(),
    holdDays: ctx.config.commissionHoldDays,
  });
  await host.mount("/api/card-servicer", commissionProviderRoutes({ commission, guard }));
  await host.mount("/api/ops", commissionOpsRoutes({ commission, guard }));
  await host.mount("/api/card-brander", rebateSupplierRoutes({ rebates, guard }));
  await host.mount("/api/card-user", rebatePurchaserRoutes({ rebates, guard }));
  host.schedule({
    name: "commission-monthly-close",
    everyMs: 60 * 60_000,
    run: async () => {
      const r = await commission.closeLastMonth();
      const paid = r.alreadyClosed ? await rebates.payDue() : 0;
      if (!r.alreadyClosed) {
        return `closed ${r.period}: ${r.statements} statements, ${r.lines} lines, ${r.rebates} rebates`;
      }
      return paid > 0 ? `${paid} rebates paid` : undefined;
    },
  });
  return { commission, rebates };
}
