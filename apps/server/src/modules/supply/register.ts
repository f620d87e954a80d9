import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import type { Guard } from "../../platform/auth/guard";
import { CatalogService, catalogBranderRoutes, catalogServicerRoutes, catalogUserRoutes } from "../catalog";
import { servesMerchant } from "../onboarding";
import { cardKeys } from "./crypto";
import { scheduleCardExpiry } from "./jobs";
import { supplyBranderRoutes, supplyUserRoutes } from "./routes";
import { SupplyService } from "./service";

/**
 * Mounts the catalog and supply calls under the spec's hosts (spec 01 §7): brand owner calls under
 * /api/card-brander, card user calls under /api/card-user (the open API's product list is mounted with
 * the other open-API calls, which check signed requests).
 */
export async function registerCatalogSupply(app: FastifyInstance, ctx: AppContext, guard: Guard): Promise<{ catalog: CatalogService; supply: SupplyService }> {
  const db = ctx.database.db;
  const catalog = new CatalogService({ db, storage: ctx.storage, clock: ctx.clock, serves: (providerId, merchantId) => servesMerchant(db, providerId, merchantId) });
  const supply = new SupplyService({ db, keys: cardKeys(ctx.secret), clock: ctx.clock, mailer: ctx.mailer, copyImports: ctx.database.kind === "pglite" });
  scheduleCardExpiry(app, supply, ctx.clock);
  await app.register(catalogBranderRoutes({ catalog, guard }), { prefix: "/api/card-brander" });
  await app.register(supplyBranderRoutes({ supply, guard }), { prefix: "/api/card-brander" });
  await app.register(catalogUserRoutes({ catalog, guard }), { prefix: "/api/card-user" });
  await app.register(supplyUserRoutes({ supply, catalog, guard }), { prefix: "/api/card-user" });
  await app.register(catalogServicerRoutes({ catalog, guard }), { prefix: "/api/card-servicer" });
  return { catalog, supply };
}
