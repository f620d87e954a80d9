import {
  envelope,
  salesStatsPage,
  salesStatsQuery,
  settlementQuery,
  settlementReply,
  supOrderPage,
  supOrderQuery,
  supplyCheckQuery,
  supplyCheckReply,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { docs, supplierGuard, type PurchasingRouteDeps } from "./routes";

/** Card-user calls: the purchaser's sales statistics and purchase settlement, under /api/card-user. */
export function statisticsUserRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const stats = guard({ roles: ["sale"], menu: ["sale/SalesStatistics", "sale/PurchaseSettlement"] });
    app.get(
      "/salesStatistics",
      {
        schema: {
          ...docs,
          summary: "Purchases per goods or supplier, less refunds",
          querystring: salesStatsQuery,
          response: { 200: envelope(salesStatsPage) },
        },
        preHandler: stats,
      },
      async (req) => ok(await purchasing.statistics.salesStatistics(actorOf(req), req.query)),
    );
    app.get(
      "/purchaseSettlement",
      {
        schema: {
          ...docs,
          summary: "Purchases and refunds per day or month beside the SUP account's ledger",
          querystring: settlementQuery,
          response: { 200: envelope(settlementReply) },
        },
        preHandler: stats,
      },
      async (req) => ok(await purchasing.statistics.purchaseSettlement(actorOf(req), req.query)),
    );
  };
}

/** Brand-owner calls: the SUP order check and list, under /api/card-brander. */
export function statisticsBranderRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = supplierGuard(guard);
    app.get(
      "/supplyOrders/check",
      {
        schema: {
          ...docs,
          summary: "Daily check of supply orders against the income ledger",
          querystring: supplyCheckQuery,
          response: { 200: envelope(supplyCheckReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.statistics.supplyCheck(actorOf(req), req.query)),
    );
    app.get(
      "/supOrders",
      {
        schema: {
          ...docs,
          summary: "Orders paid from SUP accounts and where their money is now",
          querystring: supOrderQuery,
          response: { 200: envelope(supOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.statistics.supOrders(actorOf(req), req.query)),
    );
  };
}
