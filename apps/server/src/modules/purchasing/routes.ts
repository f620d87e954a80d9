import {
  applicationDecisionReq,
  applicationPage,
  applicationQuery,
  envelope,
  fulfilReq,
  orderPage,
  orderQuery,
  orderReportQuery,
  orderReportReply,
  orderReq,
  purchaseApplication,
  purchaseApplyReq,
  purchaseOrder,
  refundDecisionReq,
  refundOrder,
  refundPage,
  refundQuery,
  refundReq,
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
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { sendXlsx } from "../../platform/http/export";
import { orderColumns, refundColumns, reportColumns } from "./exports";
import type { PurchasingService } from "./service";

const tags = ["purchasing"];
const security = [{ authToken: [] }];
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export interface PurchasingRouteDeps {
  purchasing: PurchasingService;
  guard: Guard;
}

/** Card-user calls: the purchaser's applications and orders, under /api/card-user. */
export function purchasingUserRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const buyer = guard({
      roles: ["sale"],
      menu: [
        "sale/GoodsPurchaseForm",
        "sale/PurchaseOrder",
        "sale/OnlineRefundSheet",
        "sale/GoodsList",
        "sale/CarmiGoodsList",
        "sale/CouponSelection",
      ],
    });
    app.post(
      "/purchaseApplications",
      {
        schema: {
          tags,
          security,
          summary: "Apply to purchase a supplier's goods",
          body: purchaseApplyReq,
          response: { 200: envelope(purchaseApplication) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.applications.applyToPurchase(actorOf(req), req.body)),
    );
    app.get(
      "/purchaseApplications",
      {
        schema: {
          tags,
          security,
          summary: "The purchaser's applications and their prices",
          querystring: applicationQuery,
          response: { 200: envelope(applicationPage) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.applications.applications(actorOf(req), req.query, "purchaser")),
    );
    app.post(
      "/orders",
      {
        schema: {
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
          tags,
          security,
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
      "/refunds/export",
      {
        schema: { tags, security, summary: "The purchaser's refund orders as an xlsx file", querystring: refundQuery },
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
    app.get(
      "/orders/reports/export",
      {
        schema: {
          tags,
          security,
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
    const stats = guard({ roles: ["sale"], menu: ["sale/SalesStatistics", "sale/PurchaseSettlement"] });
    app.get(
      "/salesStatistics",
      {
        schema: {
          tags,
          security,
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
          tags,
          security,
          summary: "Purchases and refunds per day or month beside the SUP account's ledger",
          querystring: settlementQuery,
          response: { 200: envelope(settlementReply) },
        },
        preHandler: stats,
      },
      async (req) => ok(await purchasing.statistics.purchaseSettlement(actorOf(req), req.query)),
    );
    app.post(
      "/refunds",
      {
        schema: {
          tags,
          security,
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
          tags,
          security,
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

/** Brand-owner calls: `supplyOrders` (also `order/search`), `supplyOrders/{orderId}` and fulfilment, under /api/card-brander. */
export function purchasingBranderRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({
      roles: ["business"],
      menu: ["business/SalesOrder", "business/SUPOrder", "business/CheckSupOrder", "business/VendorPurchaseForm"],
    });
    app.get(
      "/supplyOrders",
      {
        schema: {
          tags,
          security,
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
          tags,
          security,
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
        schema: { tags, security, summary: "Sales orders as an xlsx file (same filters)", querystring: orderQuery },
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
      "/supplyRefunds/export",
      {
        schema: {
          tags,
          security,
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
      "/sup/reports/export",
      {
        schema: {
          tags,
          security,
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
      "/supplyOrders/check",
      {
        schema: {
          tags,
          security,
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
          tags,
          security,
          summary: "Orders paid from SUP accounts and where their money is now",
          querystring: supOrderQuery,
          response: { 200: envelope(supOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.statistics.supOrders(actorOf(req), req.query)),
    );
    app.get(
      "/supplyOrders/:id",
      {
        schema: { tags, security, summary: "One order", params: idParam, response: { 200: envelope(purchaseOrder) } },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.orderOf(actorOf(req), req.params.id)),
    );
    app.get(
      "/purchaseApplications",
      {
        schema: {
          tags,
          security,
          summary: "Purchasers' applications for the supplier's goods",
          querystring: applicationQuery,
          response: { 200: envelope(applicationPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.applications.applications(actorOf(req), req.query, "supplier")),
    );
    app.put(
      "/purchaseApplications/:id",
      {
        schema: {
          tags,
          security,
          summary: "Approve with a selling price (and secret price) or reject",
          params: idParam,
          body: applicationDecisionReq,
          response: { 200: envelope(purchaseApplication) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.applications.decideApplication(actorOf(req), req.params.id, req.body)),
    );
    app.get(
      "/sup/reports",
      {
        schema: {
          tags,
          security,
          summary: "Sales or refund report by day, week or month",
          querystring: orderReportQuery,
          response: { 200: envelope(orderReportReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.orders.report(actorOf(req), req.query, "supplier")),
    );
    app.get(
      "/supplyRefunds",
      {
        schema: {
          tags,
          security,
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
          tags,
          security,
          summary: "Accept (codes voided, money returned) or refuse a refund",
          params: idParam,
          body: refundDecisionReq,
          response: { 200: envelope(refundOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.refunds.decideRefund(actorOf(req), req.params.id, req.body)),
    );
    app.put(
      "/supplyOrders/:id/fulfil",
      {
        schema: {
          tags,
          security,
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
