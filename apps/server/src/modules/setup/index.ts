import type { ModuleHost } from "../../platform/module";
import { setupRoutes } from "./routes";
import { SetupService } from "./service";

export { SetupService } from "./service";

/**
 * The home's setup checklist (issue 40, item 13): reads each capability's progress through the modules'
 * own exports. Mounts /api/card-user/setup.
 */
export async function registerSetup(host: ModuleHost): Promise<{ setup: SetupService }> {
  const setup = new SetupService({ db: host.db, clock: host.ctx.clock });
  await host.mount("/api/card-user", setupRoutes({ setup, guard: host.guard }));
  return { setup };
}
