import type { FastifyInstance } from "fastify";

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
export function scheduleReportPurge(app: FastifyInstance, purge: () => Promise<number>, log: (line: string) => void): void {
  let first: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const run = (): void => {
    if (running) return;
    running = purge()
      .then(
        (n) => {
          if (n > 0) log(`im data reports: ${n} past retention deleted`);
        },
        (err: unknown) => log(`im data-report purge failed: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => {
        running = null;
      });
  };
  app.addHook("onReady", () => {
    first = setTimeout(run, REPORT_PURGE_FIRST_DELAY_MS);
    timer = setInterval(run, REPORT_PURGE_INTERVAL_MS);
    first.unref();
    timer.unref();
    return Promise.resolve();
  });
  app.addHook("onClose", async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  });
}
