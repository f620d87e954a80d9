import type { FastifyInstance, FastifyRequest } from "fastify";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { migrationsPending } from "../../db/migrate";
import { registry } from "../metrics";

/** A readiness check of one dependency: resolves when it answers, throws (or resolves false) when not. */
export type ReadinessCheck = () => Promise<boolean>;

/** The node's health: liveness, readiness (dependencies, draining) and the metrics endpoint. */
export interface Health {
  /** Adds a dependency /readyz must reach (Redis, for example). */
  addCheck(name: string, check: ReadinessCheck): void;
  /** From now on /readyz answers 503 "draining", so load balancers move traffic elsewhere. */
  startDrain(): void;
  readonly draining: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    health: Health;
  }
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(check: ReadinessCheck): Promise<boolean> {
  return Promise.race([check().catch(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref())]);
}

/** Loopback without a proxy in between: a scraper or an operator's tool on the node itself. */
export function fromLoopback(req: FastifyRequest): boolean {
  const address = req.socket.remoteAddress ?? "";
  const loopback = address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
  return loopback && req.headers["x-forwarded-for"] === undefined;
}

/**
 * `/healthz` (liveness: the process answers and reaches its database), `/readyz` (readiness: migrations
 * applied, database and the configured dependencies reachable, not draining) and `/metrics` (Prometheus
 * text; loopback only, or with METRICS_TOKEN as a bearer token).
 */
export function registerHealth(app: FastifyInstance, ctx: AppContext): Health {
  const db = ctx.database.db;
  const checks = new Map<string, ReadinessCheck>();
  checks.set("database", async () => {
    await sql`select 1`.execute(db);
    return !(await migrationsPending(ctx.database));
  });
  let draining = false;
  const health: Health = {
    addCheck: (name, check) => void checks.set(name, check),
    startDrain: () => void (draining = true),
    get draining() {
      return draining;
    },
  };
  app.decorate("health", health);

  app.get("/healthz", { schema: { hide: true } }, async () => {
    await sql`select 1`.execute(db);
    return { status: "ok", database: ctx.database.kind };
  });
  app.get("/readyz", { schema: { hide: true } }, async (_req, reply) => {
    const results = Object.fromEntries(await Promise.all([...checks].map(async ([name, check]) => [name, (await withTimeout(check)) ? "ok" : "failing"] as const)));
    const ready = !draining && Object.values(results).every((r) => r === "ok");
    return reply
      .status(ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send({ status: draining ? "draining" : ready ? "ready" : "not ready", checks: results });
  });
  app.get("/metrics", { schema: { hide: true } }, async (req, reply) => {
    const token = ctx.config.ops.metricsToken;
    const allowed = fromLoopback(req) || (token !== undefined && req.headers.authorization === `Bearer ${token}`);
    if (!allowed) return reply.status(403).header("cache-control", "no-store").send("metrics are served to loopback or with the METRICS_TOKEN bearer token\n");
    return reply.header("content-type", registry.contentType).header("cache-control", "no-store").send(await registry.metrics());
  });
  // The backup tool (npm run backup) takes the running embedded database's copy from here: only the
  // machine itself may ask, since the copy holds everything (card secrets stay encrypted in it).
  app.get("/backup/database", { schema: { hide: true } }, async (req, reply) => {
    if (!fromLoopback(req)) return reply.status(403).send("backups are served to loopback only\n");
    const snapshot = await ctx.database.snapshot();
    if (!snapshot) return reply.status(409).send("this node runs on a PostgreSQL server: back it up with pg_dump (docs/deploy.md)\n");
    return reply.header("content-type", "application/gzip").header("cache-control", "no-store").send(Buffer.from(await snapshot.arrayBuffer()));
  });
  return health;
}
