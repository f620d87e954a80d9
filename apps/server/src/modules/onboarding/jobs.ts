import type { Job } from "../../platform/jobs";
import type { RealNameService } from "./realname";

/** How often the expiry job looks; validity dates are whole days, so a lapse is caught within the hour. */
const EXPIRY_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The daily real-name expiry job, run hourly by the server process (idempotent: approvals already
 * expired are skipped, so several processes running it do no harm).
 */
export function realNameExpiryJob(realName: RealNameService): Job {
  return {
    name: "real-name expiry",
    everyMs: EXPIRY_INTERVAL_MS,
    run: async () => {
      const n = await realName.expireDue();
      return n > 0 ? `${n} verification(s) expired` : undefined;
    },
  };
}
