import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../context";
import type { Db } from "../db/tx";
import type { Authenticator } from "./auth/actor";
import { createGuard, type Guard } from "./auth/guard";
import type { ReadinessCheck } from "./http/health";
import { scheduleJob, type Job } from "./jobs";
import { devBackdateRoutes, devOutboxRoutes } from "./messaging/dev-routes";
import { addMetricSources, type MetricSources } from "./metrics";

/**
 * What every module is registered with. A module's `index.ts` exports one `register<Name>(host, needs)`
 * that builds its services, mounts its routes with `host.mount`, schedules its jobs with `host.schedule`
 * and returns what it offers other modules (services, review queues). What it needs from other modules
 * comes in `needs`, as an argument: a module never reaches for another's services on its own.
 */
export interface ModuleHost {
  readonly app: FastifyInstance;
  readonly ctx: AppContext;
  readonly db: Db;
  /** The role and tenancy guard of every back-office route (spec 01 §6). */
  readonly guard: Guard;
  /** Adds a way to turn a token into an actor; the guard tries them in the order they were added. */
  authenticateWith(authenticator: Authenticator): void;
  /** Mounts route plugins under one of the spec's hosts ("/api/card-user", "/api/card-brander", ...). */
  mount(
    prefix: string,
    ...plugins: (FastifyPluginAsync | FastifyPluginAsyncZod | FastifyPluginCallback)[]
  ): Promise<void>;
  /** Runs a recurring job while the app is up (see platform/jobs.ts). */
  schedule(job: Job): void;
  /** Live readings for /metrics, while the app is up. */
  measure(sources: MetricSources): void;
  /** A dependency /readyz must reach. */
  readiness(name: string, check: ReadinessCheck): void;
}

export function createModuleHost(app: FastifyInstance, ctx: AppContext): ModuleHost {
  const authenticators: Authenticator[] = [];
  const guard = createGuard(app, async (token) => {
    for (const authenticate of authenticators) {
      const actor = await authenticate(token);
      if (actor) return actor;
    }
    return null;
  });
  const host: ModuleHost = {
    app,
    ctx,
    db: ctx.database.db,
    guard,
    authenticateWith: (authenticator) => void authenticators.push(authenticator),
    async mount(prefix, ...plugins) {
      for (const plugin of plugins) await app.register(plugin, { prefix });
    },
    schedule: (job) => scheduleJob(app, job),
    measure(sources) {
      const remove = addMetricSources(sources);
      app.addHook("onClose", (_instance, done) => {
        remove();
        done();
      });
    },
    readiness: (name, check) => app.health.addCheck(name, check),
  };
  host.measure({ pool: () => ctx.database.poolStats() });
  // Only with an explicit DEV_ROUTES=true (npm start's sandbox default, tests, journeys; config.ts refuses
  // it beside real mail): the local adapters' outbox, for direct loopback clients or a signed-in operator,
  // and test scaffolding for an operator to backdate a journey's purchase order (dev-routes.ts).
  if (ctx.config.devRoutes) {
    void app.register(devOutboxRoutes(ctx.database.db, guard), { prefix: "/api/dev" });
    void app.register(devBackdateRoutes(ctx.database.db, guard), { prefix: "/api/dev" });
  }
  return host;
}
