import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { sql } from "kysely";
import type { AppContext } from "./context";
import { AccountsService, accountRoutes, consumeVerificationCode, operatorRoutes, validateTokenRoutes } from "./modules/accounts";
import { createGuard, TOKEN_HEADER } from "./platform/auth/guard";
import { apiNotFound, registerErrorHandler } from "./platform/http/error-handler";
import { registerLang } from "./platform/http/lang";
import { devOutboxRoutes } from "./platform/messaging/dev-routes";
import { findChatMessage, registerIm } from "./im";
import { notifyLowStock, registerCatalogSupply } from "./modules/supply";
import { BrandTokenService, registerOnboarding } from "./modules/onboarding";
import { registerOps } from "./modules/ops";
import { FundsService, opsFundsRoutes, purchaserFundsRoutes, supplierFundsRoutes } from "./modules/funds";
import { CallbackService, callbackLogRoutes, openApiRoutes, startCallbackDispatcher } from "./modules/openapi";
import { OrderChatService, orderChatBranderRoutes, orderChatUserRoutes, PurchasingService, purchasingBranderRoutes, purchasingUserRoutes } from "./modules/purchasing";
import { TransfersService, transferRoutes } from "./modules/transfers";
import { registerWithdrawals } from "./modules/withdrawals";
import { MediaService, ecommerceMediaRoutes, mediaRoutes } from "./modules/media";

export interface BuildOptions {
  /** The process's logger; tests pass none and get no request logs. */
  logger?: FastifyBaseLogger;
}

/** Builds the HTTP app from the modules: back-office API, docs, health, and the built web app. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    requestIdHeader: "x-request-id",
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerLang(app);
  registerErrorHandler(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Tessera API", version: "0.1.0", description: "Back-office API. Replies are {code, data, msg}; code 1 is success." },
      components: {
        securitySchemes: {
          authToken: { type: "apiKey", in: "header", name: TOKEN_HEADER },
          openApiSignature: { type: "apiKey", in: "header", name: "X-Signature", description: "HMAC-SHA256 request signature; see the open API calls" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });

  const db = ctx.database.db;
  const accounts = new AccountsService({ db, config: ctx.config, clock: ctx.clock, hasher: ctx.hasher, secret: ctx.secret, mailer: ctx.mailer, sms: ctx.sms });
  // A brand token (a service provider acting inside a brand it serves) is the guard's second way in.
  const brandTokens = new BrandTokenService({ db, clock: ctx.clock });
  const guard = createGuard(app, async (token) => (await accounts.authenticate(token)) ?? brandTokens.authenticate(token));
  const devOutbox = ctx.mailer.kind === "local";

  app.get("/healthz", { schema: { hide: true } }, async () => {
    await sql`select 1`.execute(db);
    return { status: "ok", database: ctx.database.kind };
  });
  await app.register(accountRoutes({ accounts, guard, publicConfig: { devOutbox, tokenTtlSeconds: ctx.config.tokenTtlSeconds } }), {
    prefix: "/api/card-user",
  });
  await app.register(validateTokenRoutes(accounts), { prefix: "/api/login" });
  if (devOutbox) await app.register(devOutboxRoutes(db), { prefix: "/api/dev" });
  await registerIm(app, ctx);
  const { catalog } = await registerCatalogSupply(app, ctx, guard);
  // Merchant onboarding and withdrawals, and the operator console over their review queues.
  const onboarding = await registerOnboarding(app, ctx, guard, brandTokens);
  const withdrawals = await registerWithdrawals(app, ctx, guard);
  await registerOps(app, ctx, guard, { ...onboarding, queues: [...onboarding.queues, withdrawals.cardQueue()] });

  const funds = new FundsService({ db, config: ctx.config, clock: ctx.clock, storage: ctx.storage });
  await app.register(purchaserFundsRoutes({ funds, guard }), { prefix: "/api/card-user/funds" });
  await app.register(supplierFundsRoutes({ funds, guard }), { prefix: "/api/card-brander" });
  await app.register(opsFundsRoutes({ funds, guard }), { prefix: "/api/ops/funds" });
  await app.register(operatorRoutes({ db, hasher: ctx.hasher, guard }), { prefix: "/api/ops" });

  const transfers = new TransfersService({
    db,
    clock: ctx.clock,
    codes: {
      phoneOf: async (actor) => (await accounts.userInfo(actor)).phone,
      send: (phone, lang, actor) => accounts.sendSmsCode(phone, "transitAuth", lang, actor),
      check: (phone, code) => accounts.checkSmsCode(phone, "transitAuth", code),
      consume: consumeVerificationCode,
    },
  });
  await app.register(transferRoutes({ transfers, guard }), { prefix: "/api/card-brander" });

  const callbacks = new CallbackService({
    db,
    clock: ctx.clock,
    targetOf: (executor, merchantId) => onboarding.api.callbackTarget(executor, merchantId),
    callbackUrlOf: (merchantId) => onboarding.api.callbackUrlSql(merchantId),
    allowPrivateNetworks: ctx.config.callbackAllowPrivateNetworks,
  });
  startCallbackDispatcher(app, callbacks);
  const purchasing = new PurchasingService({
    db,
    clock: ctx.clock,
    onOrderResult: (tx, purchaserId, order) => callbacks.enqueue(tx, purchaserId, order),
    orderResultStatement: (purchaserId, order, onlyIf) => callbacks.enqueueStatement(purchaserId, order, onlyIf),
    // Docking agreements are signed like every agreement: an SMS code to the phone the signer gives.
    codes: { check: (phone, code) => accounts.checkSmsCode(phone, "signAgreement", code), consume: consumeVerificationCode },
    onLowStock: (notice) => notifyLowStock(db, ctx.mailer, notice).catch((err: unknown) => app.log.warn({ err }, "low-stock notice not sent")),
  });
  await app.register(purchasingUserRoutes({ purchasing, guard }), { prefix: "/api/card-user" });
  await app.register(openApiRoutes({ db, clock: ctx.clock, purchasing, catalog, guard, clientOf: (appKey) => onboarding.api.signingClient(appKey) }), { prefix: "/api/card-api/openapi" });
  await app.register(callbackLogRoutes({ callbacks, guard }), { prefix: "/api/card-brander" });
  await app.register(purchasingBranderRoutes({ purchasing, guard }), { prefix: "/api/card-brander" });
  // The brand chat's order conversations; chat messages are read from the IM service's store.
  const orderChats = new OrderChatService({ db, clock: ctx.clock, messageOf: (id) => findChatMessage(db, id) });
  await app.register(orderChatBranderRoutes({ chat: orderChats, guard }), { prefix: "/api/card-brander" });
  await app.register(orderChatUserRoutes({ chat: orderChats, guard }), { prefix: "/api/card-user" });

  // Resumable media uploads (tus) and the video library's e-commerce calls.
  const media = new MediaService({ db, clock: ctx.clock, storage: ctx.storage, secret: ctx.secret, uploadDir: path.join(ctx.config.dataDir, "uploads") });
  await app.register(mediaRoutes({ media, guard }), { prefix: "/api/media" });
  await app.register(ecommerceMediaRoutes({ media, guard }), { prefix: "/api/ecommerce" });

  await registerWebApp(app, ctx.config.webDist);
  return app;
}

/**
 * Serves the built web app. Hashed assets are cached for a year; every other path that is not an API
 * route gets index.html, since the router runs in history mode.
 */
async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: "index.html",
      setHeaders: (res, filePath) => {
        res.header("cache-control", filePath.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith("/api/") || req.url === "/api" || req.url.startsWith("/healthz");
    if (!isApi && hasWeb && (req.method === "GET" || req.method === "HEAD")) {
      return reply.header("cache-control", "no-cache").sendFile("index.html");
    }
    return apiNotFound(req, reply);
  });
}
