import {
  applicationDecisionReq,
  applicationPage,
  applicationQuery,
  envelope,
  purchaseApplication,
  purchaseApplyReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam } from "../../platform/http/route";
import { buyerGuard, docs, supplierGuard, type PurchasingRouteDeps } from "./routes";

/** Card-user calls: the purchaser's purchase applications, under /api/card-user. */
export function applicationsUserRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const buyer = buyerGuard(guard);
    app.post(
      "/purchaseApplications",
      {
        schema: {
          ...docs,
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
          ...docs,
          summary: "The purchaser's applications and their prices",
          querystring: applicationQuery,
          response: { 200: envelope(applicationPage) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await purchasing.applications.applications(actorOf(req), req.query, "purchaser")),
    );
  };
}

/** Brand-owner calls: the purchase applications to review, under /api/card-brander. */
export function applicationsBranderRoutes({ purchasing, guard }: PurchasingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = supplierGuard(guard);
    app.get(
      "/purchaseApplications",
      {
        schema: {
          ...docs,
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
          ...docs,
          summary: "Approve with a selling price (and secret price) or reject",
          params: idParam,
          body: applicationDecisionReq,
          response: { 200: envelope(purchaseApplication) },
        },
        preHandler: pre,
      },
      async (req) => ok(await purchasing.applications.decideApplication(actorOf(req), req.params.id, req.body)),
    );
  };
}
