import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { Guard } from "../../platform/auth/guard";
import { createLocalBankPayouts } from "../../platform/bank";
import { merchantWithdrawalRoutes, opsWithdrawalRoutes } from "./routes";
import { WithdrawalsService } from "./service";
import { platformDay, platformHour } from "../../platform/clock";

export { WithdrawalsService } from "./service";

/** How often the scheduler looks whether a new platform day has begun (the T+1 payout runs once per day). */
const SCHEDULER_TICK_MS = 10 * 60_000;

/**
 * Mounts withdrawals and starts the daily T+1 payout: after 01:00 platform time each day, once per
 * process; running it on several processes is harmless (one payout per merchant and day).
 */
export async function registerWithdrawals(app: FastifyInstance, ctx: AppContext, guard: Guard): Promise<WithdrawalsService> {
  const withdrawals = new WithdrawalsService({
    db: ctx.database.db,
    clock: ctx.clock,
    bank: createLocalBankPayouts(path.join(ctx.config.dataDir, "bank-payouts")),
    dailyLimit: ctx.config.withdrawalsPerDay,
  });
  await app.register(merchantWithdrawalRoutes({ withdrawals, guard }), { prefix: "/api/card-brander" });
  await app.register(opsWithdrawalRoutes({ withdrawals, guard }), { prefix: "/api/ops/withdrawals" });

  if (ctx.config.autoPayout) {
    let lastRun = "";
    const tick = () => {
      const now = ctx.clock.now();
      const today = platformDay(now);
      const hour = platformHour(now);
      if (today === lastRun || hour < 1) return;
      lastRun = today;
      withdrawals.autoPayout().then(
        (r) => app.log.info({ autoPayout: r }, "T+1 payout run"),
        (err: unknown) => {
          lastRun = "";
          app.log.error({ err }, "T+1 payout failed; retrying on the next tick");
        },
      );
    };
    const timer = setInterval(tick, SCHEDULER_TICK_MS);
    timer.unref();
    app.addHook("onClose", () => clearInterval(timer));
  }
  return withdrawals;
}
