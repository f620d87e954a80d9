import { envelope, refundDecisionReq, refundOrder, refundPage, refundQuery, refundReq } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import { idParam } from "../../platform/http/route";
import { refundColumns } from "./exports";
import { buyerGuard, docs, supplierGuard, type PurchasingRouteDeps } from "./routes";

/** Card-user calls: the purchaser's refund requests and their export, under /api/card-user. */
export function refundsUserRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const buyer = buyerGuard(guard);
    app.get(
      "/refunds/export",
      {
        schema: { ...docs, summary: "The purchaser's refund orders as an xlsx file", querystring: refundQuery },
        preHandler: buyer,
      },
      async (req, reply) =>
        sendXlsx(
          reply,
          "refund-orders",
          refundColumns(req.lang),
          purchasing.refunds.refundBatches(actorOf(req), req.query, "purchaser"),
        ),
    );
    app.post(
      "/refunds",
      {
        schema: {
          ...docs,
          summary: "Ask to refund unused codes of an order",
          body: refundReq,
          response: { 200: envelope(refundOrder) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.refunds.requestRefund(actorOf(req), req.body)),
    );
    app.get(
      "/refunds",
      {
        schema: {
          ...docs,
          summary: "The purchaser's refund orders",
          querystring: refundQuery,
          response: { 200: envelope(refundPage) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.refunds.refunds(actorOf(req), req.query, "purchaser")),
    );
  };
}

/** Brand-owner calls: refund requests on the supplier's orders, their decision and export, under /api/card-brander. */
export function refundsBranderRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = supplierGuard(guard);
    app.get(
      "/supplyRefunds/export",
      {
        schema: {
          ...docs,
          summary: "Refund requests on the supplier's orders as an xlsx file",
          querystring: refundQuery,
        },
        preHandler: pre,
      },
      async (req, reply) =>
        sendXlsx(
          reply,
          "supply-refunds",
          refundColumns(req.lang),
          purchasing.refunds.refundBatches(actorOf(req), req.query, "supplier"),
        ),
    );
    app.get(
      "/supplyRefunds",
      {
        schema: {
          ...docs,
          summary: "Refund requests on the supplier's orders",
          querystring: refundQuery,
          response: { 200: envelope(refundPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.refunds.refunds(actorOf(req), req.query, "supplier")),
    );
    app.put(
      "/supplyRefunds/:id",
      {
        schema: {
          ...docs,
          summary: "Accept (codes voided, money returned) or refuse a refund",
          params: idParam,
          body: refundDecisionReq,
          response: { 200: envelope(refundOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.refunds.decideRefund(actorOf(req), req.params.id, req.body)),
    );
  };
}
