import { platformDay, platformHour } from "../../platform/clock";
import { oncePer } from "../../platform/jobs";
import type { ModuleHost } from "../../platform/module";
import type { ReviewQueue } from "../ops";
import { PayoutOutbox } from "./payouts.service";
import { merchantWithdrawalRoutes, opsWithdrawalRoutes } from "./routes";
import { WithdrawalsService } from "./service";

export { WithdrawalsService } from "./service";

/** How often the scheduler looks whether a new platform day has begun (the T+1 payout runs once per day). */
const SCHEDULER_TICK_MS = 10 * 60_000;
/** How often this process looks for payout instructions due to be submitted (and once at start). */
const PAYOUT_DISPATCH_EVERY_MS = 30_000;

export interface WithdrawalsModule {
  withdrawals: WithdrawalsService;
  /** Bank-card changes waiting for an operator. */
  queues: ReviewQueue[];
}

/**
 * Mounts withdrawals (/api/card-brander, /api/ops/withdrawals), submits the payout outbox's instructions
 * to the bank (at start and every 30 s; see payouts.service.ts) and, with AUTO_PAYOUT, runs the daily
 * T+1 payout: after 01:00 platform time each day (and after yesterday's reconciliation, when a payment
 * provider gives bills), once per process; running it on several processes is
 * harmless (one payout per merchant and day). A failed run is retried on the next tick.
 */
export async function registerWithdrawals(host: ModuleHost): Promise<WithdrawalsModule> {
  const { ctx, db, guard } = host;
  const payouts = new PayoutOutbox({ db, clock: ctx.clock, bank: ctx.bank, log: ctx.log });
  const withdrawals = new WithdrawalsService({
    db,
    clock: ctx.clock,
    payouts,
    dailyLimit: ctx.config.withdrawalsPerDay,
    reviewAbove: ctx.config.payoutReviewAbove,
    reviewDays: ctx.config.payoutReviewDays,
  });
  await host.mount("/api/card-brander", merchantWithdrawalRoutes({ withdrawals, guard }));
  await host.mount("/api/ops/withdrawals", opsWithdrawalRoutes({ withdrawals, payouts, guard }));
  // Every instruction not yet taken by the bank: at start (one a crash left behind) and on a timer.
  host.schedule({
    name: "bank payouts",
    everyMs: PAYOUT_DISPATCH_EVERY_MS,
    firstAfterMs: 0,
    run: async () => {
      const { submitted, failed } = await payouts.dispatchDue();
      if (submitted + failed > 0) return `submitted ${submitted}, failed ${failed}`;
    },
  });
  if (ctx.config.autoPayout) {
    const once = oncePer(
      () => (platformHour(ctx.clock.now()) < 1 ? null : platformDay(ctx.clock.now())),
      async () => `run ${JSON.stringify(await withdrawals.autoPayout())}`,
    );
    host.schedule({
      name: "T+1 payout",
      everyMs: SCHEDULER_TICK_MS,
      // Not before yesterday's payments are reconciled (when a provider gives bills): a difference found
      // then holds its merchant's payout of that very day.
      run: async () => {
        const yesterday = platformDay(new Date(ctx.clock.now().getTime() - 86_400_000));
        if (platformHour(ctx.clock.now()) >= 1 && !(await withdrawals.payoutReady(yesterday))) return;
        return once();
      },
    });
  }
  return { withdrawals, queues: [withdrawals.cardQueue()] };
}
