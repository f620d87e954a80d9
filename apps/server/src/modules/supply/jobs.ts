import type { FastifyInstance } from "fastify";
import { platformDay, type Clock } from "../../platform/clock";
import type { SupplyService } from "./service";

/** How often the job looks whether a new platform day has begun. */
const CHECK_INTERVAL_MS = 60_000;

/**
 * The card-secret expiry job: once per platform day (and once when the server starts) it moves codes
 * whose expiry day has passed out of stock. It looks every minute whether the day changed, so stock
 * figures follow expiry within a minute of midnight (UTC+8); orders never take an expired code in that
 * minute either, because their allocation checks the date. Idempotent: several processes running it
 * take different rows (SKIP LOCKED) and count each code once. A failed run is retried at the next look.
 */
export function scheduleCardExpiry(app: FastifyInstance, supply: SupplyService, clock: Clock): void {
  let timer: NodeJS.Timeout | undefined;
  let doneFor: string | null = null;
  let running: Promise<void> | null = null;
  const look = (): void => {
    const day = platformDay(clock.now());
    if (running || doneFor === day) return;
    running = supply
      .expireDue()
      .then(
        (n) => {
          doneFor = day;
          if (n > 0) app.log.info(`card expiry: ${n} code(s) expired`);
        },
        (err: unknown) => app.log.error({ err }, "card expiry job failed"),
      )
      .finally(() => {
        running = null;
      });
  };
  app.addHook("onReady", () => {
    look();
    timer = setInterval(look, CHECK_INTERVAL_MS);
    timer.unref();
    return Promise.resolve();
  });
  // Closing waits for a run in progress, so it never meets a closed database.
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await running;
  });
}
