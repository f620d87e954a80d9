import type { Job } from "../../platform/jobs";
import { oncePer } from "../../platform/jobs";
import { platformDay, type Clock } from "../../platform/clock";
import { IMPORT_STALE_SECONDS, type SupplyService } from "./service";

/** How often the job looks whether a new platform day has begun. */
const CHECK_INTERVAL_MS = 60_000;

/**
 * The card-secret expiry job: once per platform day (and once when the server starts) it moves codes
 * whose expiry day has passed out of stock. It looks every minute whether the day changed, so stock
 * figures follow expiry within a minute of midnight (UTC+8); orders never take an expired code in that
 * minute either, because their allocation checks the date. Idempotent: several processes running it
 * take different rows (SKIP LOCKED) and count each code once. A failed run is retried at the next look.
 */
export function cardExpiryJob(supply: SupplyService, clock: Clock): Job {
  return {
    name: "card expiry",
    everyMs: CHECK_INTERVAL_MS,
    firstAfterMs: 0,
    run: oncePer(
      () => platformDay(clock.now()),
      async () => {
        const n = await supply.expireDue();
        return n > 0 ? `${n} code(s) expired` : undefined;
      },
    ),
  };
}

/**
 * Closes card imports whose importer died (issue 44): at start and every minute. `embedded`: the database
 * is this process's alone, so every batch last touched before it started is orphaned; on a server shared
 * by several nodes, a batch untouched for two minutes (a live import beats every 30 s).
 */
export function interruptedImportsJob(supply: SupplyService, embedded: boolean): Job {
  const startedAt = new Date();
  return {
    name: "interrupted imports",
    everyMs: CHECK_INTERVAL_MS,
    firstAfterMs: 0,
    run: async () => {
      const n = await supply.closeInterrupted({
        staleSeconds: IMPORT_STALE_SECONDS,
        before: embedded ? startedAt : null,
      });
      return n > 0 ? `${n} interrupted import(s) closed as failed` : undefined;
    },
  };
}
