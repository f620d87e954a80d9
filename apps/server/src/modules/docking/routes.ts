import {
  brandAuth,
  brandAuthListReq,
  brandAuthPage,
  brandAuthReq,
  brandAuthUpdateReq,
  docking as dockingReply,
  dockingApplyReq,
  dockingConfirmReq,
  dockingPage,
  dockingQuery,
  dockingReviewReq,
  envelope,
  whitelistEntry,
  whitelistPage,
  whitelistQuery,
  whitelistReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import type { DockingService } from "./service";

const docs = routeDocs("docking");
const dockingPages = [
  "sale/SupplierDocking",
  "business/ProcurementLiaison",
  "international/sale/SupplierDocking",
  "international/sale/EquityApplet",
  "international/business/ProcurementLiaison",
];

export interface DockingRouteDeps {
  docking: DockingService;
  guard: Guard;
}

/** Card-user calls: docking (abutment/*, apply/{id}) and brand authorisations, under /api/card-user. */
export function dockingUserRoutes({ docking, guard }: DockingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const dock = guard({ roles: ["sale", "business"], menu: dockingPages });
    app.post(
      "/abutment/brander/apply",
      {
        schema: {
          ...docs,
          summary: "Apply to dock with a supplier",
          body: dockingApplyReq,
          response: { 200: envelope(dockingReply) },
        },
        preHandler: dock,
      },
      async (req) => ok(await docking.apply(actorOf(req), req.body.supplierId)),
    );
    app.get(
      "/abutment/brander/apply",
      {
        schema: {
          ...docs,
          summary: "Docking records (either side)",
          querystring: dockingQuery,
          response: { 200: envelope(dockingPage) },
        },
        preHandler: dock,
      },
      async (req) => ok(await docking.dockings(actorOf(req), req.query)),
    );
    app.post(
      "/abutment/brander/review/:id",
      {
        schema: {
          ...docs,
          summary: "The supplier approves or rejects a docking application",
          params: idParam,
          body: dockingReviewReq,
          response: { 200: envelope(dockingReply) },
        },
        preHandler: dock,
      },
      async (req) => ok(await docking.review(actorOf(req), req.params.id, req.body)),
    );
    app.post(
      "/abutment/brander/confirm/:id",
      {
        schema: {
          ...docs,
          summary: "Sign the docking agreement with an SMS code (scene signAgreement)",
          params: idParam,
          body: dockingConfirmReq,
          response: { 200: envelope(dockingReply) },
        },
        preHandler: dock,
      },
      async (req) => ok(await docking.sign(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/apply/:id",
      {
        schema: {
          ...docs,
          summary: "End a docking (either side)",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: dock,
      },
      async (req) => {
        await docking.remove(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    const brandPages = guard({
      roles: ["business", "sale", "providers"],
      menu: ["business/BrandAuthorization", "providers/BrandAuthorizationP"],
    });
    app.post(
      "/brandAuth/list",
      {
        schema: {
          ...docs,
          summary: "Brand authorisations given (side brand) or received (side grantee)",
          body: brandAuthListReq,
          response: { 200: envelope(brandAuthPage) },
        },
        preHandler: brandPages,
      },
      async (req) => ok(await docking.brandAuths(actorOf(req), req.body)),
    );
    app.post(
      "/brandAuth",
      {
        schema: {
          ...docs,
          summary: "Authorise a purchaser or provider to sell the brand",
          body: brandAuthReq,
          response: { 200: envelope(brandAuth) },
        },
        preHandler: brandPages,
      },
      async (req) => ok(await docking.authorise(actorOf(req), req.body)),
    );
    app.put(
      "/brandAuth/:id",
      {
        schema: {
          ...docs,
          summary: "Change an authorisation's remark or end date",
          params: idParam,
          body: brandAuthUpdateReq,
          response: { 200: envelope(brandAuth) },
        },
        preHandler: brandPages,
      },
      async (req) => ok(await docking.updateAuth(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/brandAuth/:id",
      {
        schema: {
          ...docs,
          summary: "Revoke an authorisation",
          params: idParam,
          response: { 200: envelope(brandAuth) },
        },
        preHandler: brandPages,
      },
      async (req) => ok(await docking.updateAuth(actorOf(req), req.params.id, "revoke")),
    );
  };
}

/** Card-brander calls: the supplier's whitelists, under /api/card-brander. */
export function dockingBranderRoutes({ docking, guard }: DockingRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const lists = guard({ roles: ["business"], menu: ["business/VendorWhiteList", "business/PurchaseWhiteList"] });
    app.get(
      "/whitelists",
      {
        schema: {
          ...docs,
          summary: "The supplier's whitelisted purchasers (scope vendor or goods)",
          querystring: whitelistQuery,
          response: { 200: envelope(whitelistPage) },
        },
        preHandler: lists,
      },
      async (req) => ok(await docking.whitelists.list(actorOf(req), req.query)),
    );
    app.post(
      "/whitelists",
      {
        schema: {
          ...docs,
          summary: "Whitelist a purchaser: it may buy without a docking",
          body: whitelistReq,
          response: { 200: envelope(whitelistEntry) },
        },
        preHandler: lists,
      },
      async (req) => ok(await docking.whitelists.add(actorOf(req), req.body)),
    );
    app.delete(
      "/whitelists/:id",
      {
        schema: {
          ...docs,
          summary: "Remove a whitelist entry (new orders refused at once)",
          params: idParam,
          response: { 200: envelope(whitelistEntry) },
        },
        preHandler: lists,
      },
      async (req) => ok(await docking.whitelists.remove(actorOf(req), req.params.id)),
    );
  };
}
