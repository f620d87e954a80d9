import path from "node:path";
import { platformDay, platformHour } from "../../platform/clock";
import { createLocalBankPayouts } from "../../platform/adapters/bank";
import { oncePer } from "../../platform/jobs";
import type { ModuleHost } from "../../platform/module";
import type { ReviewQueue } from "../ops";
import { merchantWithdrawalRoutes, opsWithdrawalRoutes } from "./routes";
import { WithdrawalsService } from "./service";

export { WithdrawalsService } from "./service";

/** How often the scheduler looks whether a new platform day has begun (the T+1 payout runs once per day). */
const SCHEDULER_TICK_MS = 10 * 60_000;

export interface WithdrawalsModule {
  withdrawals: WithdrawalsService;
  /** Bank-card changes waiting for an operator. */
  queues: ReviewQueue[];
}

/**
 * Mounts withdrawals (/api/card-brander, /api/ops/withdrawals) and, with AUTO_PAYOUT, runs the daily
 * T+1 payout: after 01:00 platform time each day, once per process; running it on several processes is
 * harmless (one payout per merchant and day). A failed run is retried on the next tick.
 */
export async function registerWithdrawals(host: ModuleHost): Promise<WithdrawalsModule> {
  const { ctx, db, guard } = host;
  const withdrawals = new WithdrawalsService({
    db,
    clock: ctx.clock,
    bank: createLocalBankPayouts(path.join(ctx.config.dataDir, "bank-payouts")),
    dailyLimit: ctx.config.withdrawalsPerDay,
    reviewAbove: ctx.config.payoutReviewAbove,
    reviewDays: ctx.config.payoutReviewDays,
  });
  await host.mount("/api/card-brander", merchantWithdrawalRoutes({ withdrawals, guard }));
  await host.mount("/api/ops/withdrawals", opsWithdrawalRoutes({ withdrawals, guard }));
  if (ctx.config.autoPayout) {
    host.schedule({
      name: "T+1 payout",
      everyMs: SCHEDULER_TICK_MS,
      run: oncePer(
        () => (platformHour(ctx.clock.now()) < 1 ? null : platformDay(ctx.clock.now())),
        async () => `run ${JSON.stringify(await withdrawals.autoPayout())}`,
      ),
    });
  }
  return { withdrawals, queues: [withdrawals.cardQueue()] };
}
