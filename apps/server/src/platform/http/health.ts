import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import ipaddr from "ipaddr.js";
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
  return Promise.race([
    check().catch(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref()),
  ]);
}

/**
 * Headers that only a proxy (or a client pretending to be behind one) sends. A same-host reverse proxy
 * connects from loopback; whichever of these it sets, the request came from elsewhere.
 */
const PROXY_HEADERS = [
  "forwarded",
  "via",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "fastly-client-ip",
  "x-cluster-client-ip",
  "x-original-forwarded-for",
];

/** Whether the request carries any sign of having passed a proxy (any X-Forwarded-* header, Forwarded, Via, X-Real-IP ...). */
export function looksProxied(req: FastifyRequest): boolean {
  return Object.keys(req.headers).some((name) => name.startsWith("x-forwarded-") || PROXY_HEADERS.includes(name));
}

/**
 * A direct request from the machine itself (a scraper or an operator's tool on the node): the socket's
 * peer is a loopback address (127.0.0.0/8, ::1, IPv4-mapped forms) and no proxy header came with it.
 * The socket, not req.ip: whatever TRUST_PROXY says, a forwarded request is not a local one.
 */
export function fromLoopback(req: FastifyRequest): boolean {
  const address = req.socket.remoteAddress ?? "";
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === "loopback" && !looksProxied(req);
}

/** Whether the request presents `Authorization: Bearer <token>` for a configured token (compared in constant time). */
export function hasBearer(req: FastifyRequest, token: string | undefined): boolean {
  const given = req.headers.authorization;
  if (token === undefined || token === "" || given === undefined || !given.startsWith("Bearer ")) return false;
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(given.slice(7)), digest(token));
}

/**
 * `/healthz` (liveness: the process answers and reaches its database), `/readyz` (readiness: migrations
 * applied, database and the configured dependencies reachable, not draining), `/metrics` (Prometheus
 * text) and `/backup/database`. The last two are for the operator's own tools: served to a direct loopback
 * request (no proxy header) or with their bearer token, METRICS_TOKEN and BACKUP_TOKEN (docs/deploy.md).
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
    const results = Object.fromEntries(
      await Promise.all(
        [...checks].map(async ([name, check]) => [name, (await withTimeout(check)) ? "ok" : "failing"] as const),
      ),
    );
    const ready = !draining && Object.values(results).every((r) => r === "ok");
    return reply
      .status(ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send({ status: draining ? "draining" : ready ? "ready" : "not ready", checks: results });
  });
  app.get("/metrics", { schema: { hide: true } }, async (req, reply) => {
    if (!fromLoopback(req) && !hasBearer(req, ctx.config.ops.metricsToken)) {
      return reply
        .status(403)
        .header("cache-control", "no-store")
        .send("metrics are served to a direct loopback request or with the METRICS_TOKEN bearer token\n");
    }
    return reply
      .header("content-type", registry.contentType)
      .header("cache-control", "no-store")
      .send(await registry.metrics());
  });
  // The backup tool (npm run backup) takes the running embedded database's copy from here: only the
  // machine itself, directly, or a holder of BACKUP_TOKEN may ask, since the copy holds everything (card
  // secrets stay encrypted in it).
  app.get("/backup/database", { schema: { hide: true } }, async (req, reply) => {
    if (!fromLoopback(req) && !hasBearer(req, ctx.config.ops.backupToken)) {
      return reply
        .status(403)
        .header("cache-control", "no-store")
        .send("backups are served to a direct loopback request or with the BACKUP_TOKEN bearer token\n");
    }
    const snapshot = await ctx.database.snapshot();
    if (!snapshot) {
      return reply
        .status(409)
        .send("this node runs on a PostgreSQL server: back it up with pg_dump (docs/deploy.md)\n");
    }
    return reply
      .header("content-type", "application/gzip")
      .header("cache-control", "no-store")
      .send(Buffer.from(await snapshot.arrayBuffer()));
  });
  return health;
}
