import type { FastifyInstance } from "fastify";
import type { RealNameService } from "./realname";

/** How often the expiry job looks; validity dates are whole days, so a lapse is caught within the hour. */
const EXPIRY_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The daily real-name expiry job, run hourly by the server process (idempotent: approvals already
 * expired are skipped, so several processes running it do no harm). It starts when the app is ready
 * and stops when it closes; errors are logged and the next run tries again.
 */
export function scheduleExpiry(app: FastifyInstance, realName: RealNameService): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook("onReady", () => {
    timer = setInterval(() => {
      realName.expireDue().then(
        (n) => n > 0 && app.log.info(`real-name expiry: ${n} verification(s) expired`),
        (err: unknown) => app.log.error({ err }, "real-name expiry job failed"),
      );
    }, EXPIRY_INTERVAL_MS);
    timer.unref();
    return Promise.resolve();
  });
  app.addHook("onClose", () => {
    clearInterval(timer);
    return Promise.resolve();
  });
}
