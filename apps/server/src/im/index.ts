import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { AppContext } from "../context";
import type { Config } from "../config";
import { withTx, type Db, type Executor } from "../db/tx";
import type { Clock } from "../platform/clock";
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
import { purgeBefore } from "./store/messages";
import { createLibreTranslator, disabledTranslator } from "./translate";

/**
 * The IM service: users and tokens, the compatible REST API under /{org}/{app}, and the stores the
 * realtime gateway shares. This file is the module's only import surface.
 */
export { ensureImUser, type IssuedToken } from "./service/accounts";
/** A stored chat message by its server id (the back-office's order conversations read their opening message). */
export { findMessage as findChatMessage } from "./store/messages";
export type { ImServices } from "./service";
export type { ImBus, ImDelivery, ImNotice } from "./events";
export type { ImTables } from "./tables";

export interface ImModule {
  services: ImServices;
  bus: ImBus;
  /** The realtime gateway (websocket on /websocket). */
  gateway: Gateway;
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
  return { clientId: config.im.clientId ?? derived.clientId, clientSecret: config.im.clientSecret ?? derived.clientSecret };
}

/**
 * Issues a chat token for an existing IM user, valid for IM_TOKEN_TTL_SECONDS (the back-office gives
 * merchant users and brands their tokens this way).
 */
export async function issueImToken(db: Executor, ctx: { config: Config; secret: Buffer; clock: Clock }, username: string): Promise<IssuedToken> {
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

/** Builds the IM services and registers the REST API and the discovery document on `app`. */
export async function registerIm(app: FastifyInstance, ctx: AppContext): Promise<ImModule> {
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
    translator: config.im.translateUrl ? createLibreTranslator(config.im.translateUrl, config.im.translateApiKey) : disabledTranslator,
    bus: createLocalBus((err) => ctx.log(`im bus listener failed: ${err instanceof Error ? err.message : String(err)}`)),
  };
  const services = new ImServices(deps);
  const replies = new Replies(deps);
  await app.register(imRestPlugin({ svc: services, replies }), { prefix: `/${config.im.org}/${config.im.app}` });
  await app.register(discoveryRoute(deps));

  if (config.im.historyRetentionDays > 0) {
    const purge = async () => {
      const before = ctx.clock.now().getTime() - config.im.historyRetentionDays * 86_400_000;
      while ((await purgeBefore(ctx.database.db, before, 5000)) > 0) {
        // keep deleting in batches until nothing older is left
      }
    };
    const timer = setInterval(() => void purge().catch((err: unknown) => ctx.log(`im history purge failed: ${String(err)}`)), 3600_000);
    timer.unref();
    app.addHook("onClose", (_instance, done) => {
      clearInterval(timer);
      done();
    });
  }
  if (ctx.database.kind === "pglite") keepStatistics(app, ctx);
  scheduleReportPurge(app, () => services.reports.purgeExpired(), ctx.log);
  const gateway = await registerGateway(app, deps, services, ctx.log, {
    maxDevices: config.im.maxDevices,
    recallWindowMs: config.im.recallWindowSeconds * 1000,
    redisUrl: config.im.redisUrl,
  });
  const module: ImModule = { services, bus: deps.bus, gateway };
  app.decorate("im", module);
  return module;
}

/** The IM tables that grow with traffic, whose planner statistics decide the history and list plans. */
const GROWING_TABLES = ["im_messages", "im_conversations", "im_inbox", "im_message_deletions", "im_reactions"] as const;

/**
 * The embedded database has no autovacuum, so its planner would never have statistics: without them a
 * history page over a long conversation scans instead of walking the (conv_key, seq) index (measured
 * 4 against 300 requests/s with 100,000 messages). ANALYZE a minute after start, then hourly.
 */
function keepStatistics(app: FastifyInstance, ctx: AppContext): void {
  const analyze = async () => {
    for (const table of GROWING_TABLES) await sql`ANALYZE ${sql.table(table)}`.execute(ctx.database.db);
  };
  const run = () => void analyze().catch((err: unknown) => ctx.log(`im analyze failed: ${String(err)}`));
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, 3600_000);
  first.unref();
  timer.unref();
  app.addHook("onClose", (_instance, done) => {
    clearTimeout(first);
    clearInterval(timer);
    done();
  });
}
