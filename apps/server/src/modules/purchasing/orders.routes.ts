import {
  envelope,
  fulfilReq,
  orderPage,
  orderQuery,
  orderReportQuery,
  orderReportReply,
  orderReq,
  purchaseOrder,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import { idParam } from "../../platform/http/route";
import { orderColumns, reportColumns } from "./exports";
import { buyerGuard, docs, supplierGuard, type PurchasingRouteDeps } from "./routes";

/** Card-user calls: the purchaser's orders, their report and exports, under /api/card-user. */
export function ordersUserRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const buyer = buyerGuard(guard);
    app.post(
      "/orders",
      {
        schema: {
          ...docs,
          summary: "Place a purchase order",
          body: orderReq,
          response: { 200: envelope(purchaseOrder) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.orders.order(actorOf(req), req.body)),
    );
    app.get(
      "/orders",
      {
        schema: {
          ...docs,
          summary: "The purchaser's orders",
          querystring: orderQuery,
          response: { 200: envelope(orderPage) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.orders.orders(actorOf(req), req.query, "purchaser")),
    );
    app.get(
      "/orders/reports",
      {
        schema: {
          ...docs,
          summary: "Purchase or refund report by day, week or month",
          querystring: orderReportQuery,
          response: { 200: envelope(orderReportReply) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.orders.report(actorOf(req), req.query, "purchaser")),
    );
    app.get(
      "/orders/export",
      {
        schema: {
          ...docs,
          summary: "The purchaser's orders as an xlsx file (same filters)",
          querystring: orderQuery,
        },
        preHandler: buyer,
      },
      async (req, reply) =>
        sendXlsx(
          reply,
          "purchase-orders",
          orderColumns(req.lang),
          purchasing.orders.orderBatches(actorOf(req), req.query, "purchaser"),
        ),
    );
    app.get(
      "/orders/reports/export",
      {
        schema: {
          ...docs,
          summary: "The purchase or refund report as an xlsx file",
          querystring: orderReportQuery,
        },
        preHandler: buyer,
      },
      async (req, reply) =>
        sendXlsx(reply, `${req.query.kind}-report-${req.query.unit}`, reportColumns(req.lang, req.query.kind), [
          await purchasing.orders.report(actorOf(req), req.query, "purchaser"),
        ]),
    );
  };
}

/**
 * Brand-owner calls: `supplyOrders` (also `order/search`), `supplyOrders/{orderId}` and fulfilment, the sales
 * report and exports, under /api/card-brander.
 */
export function ordersBranderRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = supplierGuard(guard);
    app.get(
      "/supplyOrders",
      {
        schema: {
          ...docs,
          summary: "Orders of the supplier's goods",
          querystring: orderQuery,
          response: { 200: envelope(orderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.orders(actorOf(req), req.query, "supplier")),
    );
    // Spec 01 §7 Brand owner `GET order/search`: the same query and reply as supplyOrders.
    app.get(
      "/order/search",
      {
        schema: {
          ...docs,
          summary: "Orders of the supplier's goods (spec name of supplyOrders)",
          querystring: orderQuery,
          response: { 200: envelope(orderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.orders(actorOf(req), req.query, "supplier")),
    );
    app.get(
      "/supplyOrders/export",
      {
        schema: { ...docs, summary: "Sales orders as an xlsx file (same filters)", querystring: orderQuery },
        preHandler: pre,
      },
      async (req, reply) =>
        sendXlsx(
          reply,
          "sales-orders",
          orderColumns(req.lang),
          purchasing.orders.orderBatches(actorOf(req), req.query, "supplier"),
        ),
    );
    app.get(
      "/sup/reports/export",
      {
        schema: {
          ...docs,
          summary: "The sales or refund report as an xlsx file",
          querystring: orderReportQuery,
        },
        preHandler: pre,
      },
      async (req, reply) =>
        sendXlsx(reply, `sales-${req.query.kind}-report-${req.query.unit}`, reportColumns(req.lang, req.query.kind), [
          await purchasing.orders.report(actorOf(req), req.query, "supplier"),
        ]),
    );
    app.get(
      "/supplyOrders/:id",
      {
        schema: { ...docs, summary: "One order", params: idParam, response: { 200: envelope(purchaseOrder) } },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.orderOf(actorOf(req), req.params.id)),
    );
    app.get(
      "/sup/reports",
      {
        schema: {
          ...docs,
          summary: "Sales or refund report by day, week or month",
          querystring: orderReportQuery,
          response: { 200: envelope(orderReportReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.report(actorOf(req), req.query, "supplier")),
    );
    app.put(
      "/supplyOrders/:id/fulfil",
      {
        schema: {
          ...docs,
          summary: "Report a direct top-up: success with the upstream channel ID, or failure (refunds)",
          params: idParam,
          body: fulfilReq,
          response: { 200: envelope(purchaseOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.fulfil(actorOf(req), req.params.id, req.body)),
    );
  };
}
