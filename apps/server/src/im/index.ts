import { sql } from "kysely";
import type { AppContext } from "../context";
import type { Config } from "../config";
import { withTx, type Db, type Executor } from "../db/tx";
import type { Clock } from "../platform/clock";
import type { Job } from "../platform/jobs";
import type { ModuleHost } from "../platform/module";
import { createStorage } from "../platform/storage";
import { createTokenSigner, deriveClientCredentials, stableUuid } from "./auth";
import { createLocalBus, type ImBus } from "./events";
import { registerGateway, type Gateway } from "./gateway";
import { Replies } from "./rest/http";
import { imRestPlugin } from "./rest/plugin";
import { discoveryRoute } from "./rest/discovery";
import { ensureImUser, signImToken, type IssuedToken } from "./service/accounts";
import { imError } from "./errors";
import { scheduleReportPurge } from "./jobs";
import { existingUsers, findUser } from "./store/users";
import type { ImDeps } from "./service/core";
import { ImServices } from "./service";
import { findMessage, purgeBefore } from "./store/messages";
import { createLibreTranslator, disabledTranslator } from "./translate";

/**
 * The IM service: users and tokens, the compatible REST API under /{org}/{app}, and the stores the
 * realtime gateway shares. This file is the module's only import surface.
 */
export { ensureImUser, type IssuedToken } from "./service/accounts";
export type { ImServices } from "./service";
export type { ImBus, ImDelivery, ImNotice } from "./events";
export type { ImTables } from "./tables";

export interface ImModule {
  services: ImServices;
  bus: ImBus;
  /** The realtime gateway (websocket on /websocket). */
  gateway: Gateway;
  /** A stored chat message by its server id (the back-office's order conversations read their opening message). */
  chatMessageOf: (id: number) => ReturnType<typeof findMessage>;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The IM service, for the realtime gateway and for tests. */
    im: ImModule;
  }
}

export function imAppKey(config: Config): string {
  return `${config.im.org}#${config.im.app}`;
}

function clientCredentials(config: Config, secret: Buffer): { clientId: string; clientSecret: string } {
  const derived = deriveClientCredentials(secret, imAppKey(config));
  return {
    clientId: config.im.clientId ?? derived.clientId,
    clientSecret: config.im.clientSecret ?? derived.clientSecret,
  };
}

/**
 * Issues a chat token for an existing IM user, valid for IM_TOKEN_TTL_SECONDS (the back-office gives
 * merchant users and brands their tokens this way).
 */
export async function issueImToken(
  db: Executor,
  ctx: { config: Config; secret: Buffer; clock: Clock },
  username: string,
): Promise<IssuedToken> {
  const user = await findUser(db, username);
  if (!user || !user.activated) throw imError("userNotFound", { username });
  const signer = createTokenSigner(ctx.secret, clientCredentials(ctx.config, ctx.secret).clientSecret);
  return signImToken(signer, user.username, ctx.clock.now().getTime(), ctx.config.im.tokenTtlSeconds);
}

/** The IM users of a merchant user and of its merchant as a brand. */
export const imUserOfAccount = (userId: number | string) => `u${userId}`;
export const imUserOfBrand = (merchantId: number | string) => `b${merchantId}`;

/**
 * The chat identities the back-office hands a merchant user: the brand's (b<merchantId>) and the user's
 * own (u<userId>), each with a fresh token. Creates the IM users first if they are missing (accounts made
 * before the IM service existed).
 */
export async function imBrandInfo(
  db: Db,
  ctx: { config: Config; secret: Buffer; clock: Clock },
  ids: { userId: number; merchantId: number },
): Promise<{ branderId: string; branderImToken: string; imUser: string; imToken: string; appKey: string }> {
  const brand = imUserOfBrand(ids.merchantId);
  const own = imUserOfAccount(ids.userId);
  if ((await existingUsers(db, [brand, own])).size < 2) {
    await withTx(db, async (tx) => {
      const now = ctx.clock.now();
      await ensureImUser(tx, brand, { now });
      await ensureImUser(tx, own, { now });
    });
  }
  return {
    branderId: String(ids.merchantId),
    branderImToken: (await issueImToken(db, ctx, brand)).accessToken,
    imUser: own,
    imToken: (await issueImToken(db, ctx, own)).accessToken,
    appKey: imAppKey(ctx.config),
  };
}

/**
 * Builds the IM services and registers the REST API under /{org}/{app}, the discovery document and the
 * realtime gateway; runs the history purge (when a retention is set), the data-report purge and, on the
 * embedded database, the planner statistics.
 */
export async function registerIm(host: ModuleHost): Promise<ImModule> {
  const { app, ctx } = host;
  const { config } = ctx;
  const { clientId, clientSecret } = clientCredentials(config, ctx.secret);
  const appKey = imAppKey(config);
  const deps: ImDeps = {
    db: ctx.database.db,
    clock: ctx.clock,
    config: config.im,
    appKey,
    appUuid: stableUuid(ctx.secret, `tessera-im-app\u0000${appKey}`),
    clientId,
    clientSecret,
    signer: createTokenSigner(ctx.secret, clientSecret),
    hasher: ctx.hasher,
    storage: createStorage(config),
    translator: config.im.translateUrl
      ? createLibreTranslator(config.im.translateUrl, config.im.translateApiKey)
      : disabledTranslator,
    bus: createLocalBus((err) =>
      ctx.log(`im bus listener failed: ${err instanceof Error ? err.message : String(err)}`),
    ),
  };
  const services = new ImServices(deps);
  const replies = new Replies(deps);
  await host.mount(`/${config.im.org}/${config.im.app}`, imRestPlugin({ svc: services, replies }));
  await app.register(discoveryRoute(deps));

  if (config.im.historyRetentionDays > 0) host.schedule(historyPurgeJob(ctx, config.im.historyRetentionDays));
  if (ctx.database.kind === "pglite") host.schedule(statisticsJob(ctx.database.db));
  scheduleReportPurge(app, () => services.reports.purgeExpired(), ctx.log);
  const gateway = await registerGateway(app, deps, services, ctx.log, {
    maxDevices: config.im.maxDevices,
    recallWindowMs: config.im.recallWindowSeconds * 1000,
    redisUrl: config.im.redisUrl,
    redisPrefix: config.im.redisPrefix,
    // Sends being stored when the node drains are acknowledged within two thirds of DRAIN_TIMEOUT_MS
    // (10 s by default), leaving the rest for the other requests and a running job.
    drainMs: Math.floor((config.ops.drainTimeoutMs * 2) / 3),
  });
  host.measure({
    imConnections: () => gateway.connections(),
    syncQueueDepth: () => estimatedRows(deps.db, "im_inbox"),
  });
  const relay = gateway.hub.relay;
  if (relay) host.readiness("redis", () => relay.ping());
  const module: ImModule = { services, bus: deps.bus, gateway, chatMessageOf: (id) => findMessage(deps.db, id) };
  app.decorate("im", module);
  return module;
}

/** The planner's row estimate of a table (cheap at any size; kept fresh by ANALYZE or autovacuum). */
async function estimatedRows(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE relname = ${table}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Deletes, hourly and in batches, the messages older than IM_HISTORY_RETENTION_DAYS. */
function historyPurgeJob(ctx: AppContext, retentionDays: number): Job {
  return {
    name: "im history purge",
    everyMs: 3600_000,
    run: async () => {
      const before = ctx.clock.now().getTime() - retentionDays * 86_400_000;
      // Batches of 5,000 until nothing older is left.
      let deleted = 0;
      let batch: number;
      do {
        batch = await purgeBefore(ctx.database.db, before, 5000);
        deleted += batch;
      } while (batch > 0);
      return deleted > 0 ? `${deleted} message(s) past retention deleted` : undefined;
    },
  };
}

/** The IM tables that grow with traffic, whose planner statistics decide the history and list plans. */
const GROWING_TABLES = ["im_messages", "im_conversations", "im_inbox", "im_message_deletions", "im_reactions"] as const;

/**
 * The embedded database has no autovacuum, so its planner would never have statistics: without them a
 * history page over a long conversation scans instead of walking the (conv_key, seq) index (measured
 * 4 against 300 requests/s with 100,000 messages). ANALYZE a minute after start, then hourly.
 */
function statisticsJob(db: Db): Job {
  return {
    name: "im analyze",
    everyMs: 3600_000,
    firstAfterMs: 60_000,
    run: async () => {
      for (const table of GROWING_TABLES) await sql`ANALYZE ${sql.table(table)}`.execute(db);
    },
  };
}
