import { platformDay, platformHour } from "../../platform/clock";
import { providersOf } from "../../platform/adapters/payments";
import { oncePer } from "../../platform/jobs";
import type { ModuleHost } from "../../platform/module";
import type { WithdrawalsService } from "../withdrawals";
import { opsReconciliationRoutes } from "./routes";
import { ReconciliationService } from "./service";

export { ReconciliationService } from "./service";

/** How often the scheduler looks whether the day's bills are due. */
const TICK_MS = 10 * 60_000;

/**
 * Daily reconciliation against the payment providers' bills (issue 41, item 5): mounts
 * /api/ops/reconciliation and, when the adapter in use gives bills, reconciles yesterday once a day
 * after 10:00 platform time (WeChat Pay makes the day's bill from 09:00). A failed run (the bill not
 * ready, the provider unreachable) is tried again on the next tick; running a day twice adds nothing.
 * Open differences hold their merchants' automatic payout (withdrawals).
 */
export async function registerReconciliation(
  host: ModuleHost,
  needs: { withdrawals: WithdrawalsService },
): Promise<{ reconciliation: ReconciliationService }> {
  const { ctx, db, guard } = host;
  const reconciliation = new ReconciliationService({
    db,
    clock: ctx.clock,
    adapters: providersOf(ctx.payments),
    withdrawals: needs.withdrawals,
    log: ctx.log,
  });
  await host.mount("/api/ops/reconciliation", opsReconciliationRoutes({ reconciliation, guard }));
  if (reconciliation.enabled) {
    host.schedule({
      name: "reconciliation",
      everyMs: TICK_MS,
      run: oncePer(
        () => (platformHour(ctx.clock.now()) < 10 ? null : platformDay(ctx.clock.now())),
        async () => `run ${JSON.stringify(await reconciliation.runYesterday())}`,
      ),
    });
  }
  return { reconciliation };
}
