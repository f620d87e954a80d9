import type { ModuleHost } from "../../platform/module";
import type { CatalogService } from "../catalog";
import type { ApiCredentialsService } from "../onboarding";
import type { PurchasingService } from "../purchasing";
import { openApiRoutes } from "./routes";

export { canonicalString, sign } from "./signature";

export interface OpenApiNeeds {
  purchasing: PurchasingService;
  catalog: CatalogService;
  /** The signing clients (app keys and secrets) purchasers set up on their API pages. */
  api: ApiCredentialsService;
}

/** The signed purchase API for purchasers with API permission, under /api/card-api/openapi. */
export async function registerOpenApi(host: ModuleHost, needs: OpenApiNeeds): Promise<void> {
  const { purchasing, catalog, api } = needs;
  await host.mount(
    "/api/card-api/openapi",
    openApiRoutes({
      db: host.db,
      clock: host.ctx.clock,
      purchasing,
      catalog,
      guard: host.guard,
      clientOf: (appKey) => api.signingClient(appKey),
    }),
  );
}
