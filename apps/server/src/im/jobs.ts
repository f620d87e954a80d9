import type { FastifyInstance } from "fastify";
import { scheduleJob, type Job } from "../platform/jobs";

/** How often the data-report purge runs: retention is counted in days, so an hour late is nothing. */
export const REPORT_PURGE_INTERVAL_MS = 3600_000;
/**
 * The first run waits this long after start: a backlog after an upgrade never slows the boot, and
 * short-lived processes (test servers sharing one database, each with its own moved clock) never purge
 * each other's rows.
 */
export const REPORT_PURGE_FIRST_DELAY_MS = 10 * 60_000;

/**
 * The data-report retention job: ten minutes after the server is ready, then hourly, it deletes the SDK
 * reports older than IM_SDK_REPORTS_RETENTION_DAYS. Runs never overlap (a run still going when the next
 * is due is left alone), several processes running it take different rows, and a failed run is logged and
 * retried at the next one. Closing waits for a run in progress, so it never meets a closed database.
 */
export function scheduleReportPurge(
  app: FastifyInstance,
  purge: () => Promise<number>,
  log: (line: string) => void,
): void {
  const job: Job = {
    name: "im data reports",
    everyMs: REPORT_PURGE_INTERVAL_MS,
    firstAfterMs: REPORT_PURGE_FIRST_DELAY_MS,
    run: async () => {
      const n = await purge();
      return n > 0 ? `${n} past retention deleted` : undefined;
    },
  };
  scheduleJob(app, job, {
    info: log,
    error: (err) => log(`im data-report purge failed: ${err instanceof Error ? err.message : String(err)}`),
  });
}
