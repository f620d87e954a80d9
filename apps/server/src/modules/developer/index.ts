import type { ModuleHost } from "../../platform/module";
import type { ApiCredentialsService } from "../onboarding";
import { canonicalString, sign } from "../openapi";
import { developerPublicRoutes, developerUserRoutes } from "./routes";
import { DeveloperService } from "./service";

export { DeveloperService, EXAMPLES, WORKED } from "./service";

/**
 * The developer portal's calls (issue 29): the signing examples (public) and the callback tester (a
 * purchaser with API credentials). Mounts /api/card-public and /api/card-user.
 */
export async function registerDeveloper(
  host: ModuleHost,
  { api }: { api: ApiCredentialsService },
): Promise<{ developer: DeveloperService }> {
  const developer = new DeveloperService({
    db: host.db,
    clock: host.ctx.clock,
    canonicalString,
    sign,
    callbackTarget: (db, merchantId) => api.callbackTarget(db, merchantId),
    allowPrivateNetworks: host.ctx.config.callbackAllowPrivateNetworks,
  });
  await host.mount("/api/card-public", developerPublicRoutes({ developer }));
  await host.mount("/api/card-user", developerUserRoutes({ developer, guard: host.guard }));
  return { developer };
}
