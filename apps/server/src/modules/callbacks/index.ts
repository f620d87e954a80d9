import type { ModuleHost } from "../../platform/module";
import type { ApiCredentialsService } from "../onboarding";
import { callbackLogRoutes } from "./routes";
import { CallbackService } from "./service";

export { CallbackService, CALLBACK_BACKOFF_SECONDS, type CallbackDeps } from "./service";

/** How often this process looks for callbacks due to be sent. */
const DISPATCH_EVERY_MS = 5_000;

/**
 * Order-result callbacks: an outbox written in the order's own transaction (purchasing enqueues into it)
 * and delivered to the purchaser's callback URL, signed with its API secret, with retries. Mounts the
 * delivery log and replay under /api/card-brander.
 */
export async function registerCallbacks(
  host: ModuleHost,
  { api }: { api: ApiCredentialsService },
): Promise<{ callbacks: CallbackService }> {
  const callbacks = new CallbackService({
    db: host.db,
    clock: host.ctx.clock,
    targetOf: (executor, merchantId) => api.callbackTarget(executor, merchantId),
    callbackUrlOf: (merchantId) => api.callbackUrlSql(merchantId),
    allowPrivateNetworks: host.ctx.config.callbackAllowPrivateNetworks,
  });
  host.schedule({
    name: "order callbacks",
    everyMs: DISPATCH_EVERY_MS,
    run: async () => {
      await callbacks.dispatchDue();
    },
  });
  await host.mount("/api/card-brander", callbackLogRoutes({ callbacks, guard: host.guard }));
  return { callbacks };
}
