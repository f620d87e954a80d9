import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { AppContext } from "./context";
import { ensureImUser, imBrandInfo, imUserOfAccount, imUserOfBrand, registerIm } from "./im";
import { registerAccounts } from "./modules/accounts";
import { registerAnnouncements } from "./modules/announcements";
import { registerCallbacks } from "./modules/callbacks";
import { registerCatalog } from "./modules/catalog";
import { registerCollection } from "./modules/collection";
import { registerCommerce } from "./modules/commerce";
import { registerCommission } from "./modules/commission";
import { mayBuyCondition, registerDocking } from "./modules/docking";
import { registerDeveloper } from "./modules/developer";
import { registerSetup } from "./modules/setup";
import { registerFunds } from "./modules/funds";
import { registerInvoices } from "./modules/invoices";
import { refundExpiredCodes, registerMall } from "./modules/mall";
import { registerMedia } from "./modules/media";
import { registerMiniprogram } from "./modules/miniprogram";
import { registerOnecard } from "./modules/onecard";
import { registerOnboarding } from "./modules/onboarding";
import { registerOpenApi } from "./modules/openapi";
import { registerOps } from "./modules/ops";
import { registerProviderOps } from "./modules/providerops";
import { agreedPriceOf, registerPurchasing, spendByInvoiceType } from "./modules/purchasing";
import { registerStores } from "./modules/stores";
import { registerSupply } from "./modules/supply";
import { registerTakeout } from "./modules/takeout";
import { registerTransfers } from "./modules/transfers";
import { registerWithdrawals } from "./modules/withdrawals";
import { registerReconciliation } from "./modules/reconciliation";
import { createHttpApp } from "./platform/http/app";
import { apiNotFound } from "./platform/http/error-handler";
import { createModuleHost } from "./platform/module";
import { registerPaymentRoutes } from "./platform/adapters/payments/routes";

export interface BuildOptions {
  /** The process's logger; tests pass none and get no request logs. */
  logger?: FastifyBaseLogger;
}

/**
 * Builds the HTTP app: the platform, then every module in order (each mounts its own routes and jobs and
 * returns what it offers; what it needs from the others is passed in), then the built web app.
 * The recipe for a new module is in docs/architecture.md.
 */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await createHttpApp(ctx, options.logger);
  const host = createModuleHost(app, ctx);

  // Accounts creates chat users for new accounts; the IM functions are handed in, so it never imports the IM.
  const { accounts } = await registerAccounts(host, {
    im: { ensureImUser, imBrandInfo, imUserOfAccount, imUserOfBrand },
  });
  const im = await registerIm(host);
  const onboarding = await registerOnboarding(host, { accounts });
  // Who may buy what is docking's rule and at which price purchasing's: the goods lists apply both.
  const { catalog } = await registerCatalog(host, {
    serves: onboarding.serves,
    whoMayBuy: { condition: mayBuyCondition, agreedPrice: agreedPriceOf },
  });
  const supply = await registerSupply(host, { catalog });
  const withdrawals = await registerWithdrawals(host);
  await registerReconciliation(host, { withdrawals: withdrawals.withdrawals });
  await registerFunds(host);
  await registerTransfers(host, { accounts });
  const { callbacks } = await registerCallbacks(host, { api: onboarding.api });
  const { docking } = await registerDocking(host, { accounts });
  const { purchasing } = await registerPurchasing(host, {
    orderResults: callbacks,
    notifyLowStock: supply.notifyLowStock,
    chatMessageOf: im.chatMessageOf,
    handedOn: (tx, cardIds, now, refundedTo) => refundExpiredCodes(tx, ctx.payments, cardIds, now, refundedTo),
  });
  await registerOpenApi(host, { purchasing, catalog, api: onboarding.api });
  const { media } = await registerMedia(host);
  const { onecard, customers } = await registerOnecard(host, { accounts, catalog, purchasing });
  await registerTakeout(host, { customers });
  const { stores } = await registerStores(host, { onecard, customers, docking, serves: onboarding.serves });
  const collection = await registerCollection(host, { stores, serves: onboarding.serves });
  const miniprogram = await registerMiniprogram(host);
  await registerCommerce(host, { media, catalog, accounts, miniprogram: miniprogram.miniprogram });
  await registerMall(host, {
    appearance: (appId, version) => miniprogram.mallAppearance(appId, version),
    customers,
    onecard,
    catalog,
    purchasing,
  });
  await registerInvoices(host, { spendByInvoiceType });
  await registerCommission(host);
  await registerProviderOps(host, { purchasing });
  await registerAnnouncements(host);
  await registerDeveloper(host, { api: onboarding.api });
  await registerSetup(host);
  await registerOps(host, {
    queues: [...onboarding.queues, ...withdrawals.queues, ...collection.queues],
    readDocumentForReview: onboarding.readDocumentForReview,
  });

  // WeChat Pay's notifications and, in sandbox, the local WeChat Pay platform (issue 41).
  await registerPaymentRoutes(app, ctx);
  await registerWebApp(app, ctx.config.webDist);
  return app;
}

/**
 * Serves the built web app. Hashed assets are cached for a year; every other path that is not an API
 * route gets index.html (the storefront's /mall/* gets mall.html), since the routers run in history mode.
 */
async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: "index.html",
      // The build made .br and .gz copies (apps/web/vite.config.ts): sent by Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
  }
  // The customer storefront is an entry of its own (apps/web/mall.html): /mall/* gets it, not the back-office.
  const hasMall = existsSync(path.join(webDist, "mall.html"));
  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith("/api/") || req.url === "/api" || req.url.startsWith("/healthz");
    if (!isApi && hasWeb && (req.method === "GET" || req.method === "HEAD")) {
      const page = hasMall && /^\/mall(\/|\?|$)/.test(req.url) ? "mall.html" : "index.html";
      return reply.header("cache-control", "no-cache").sendFile(page);
    }
    return apiNotFound(req, reply);
  });
}
