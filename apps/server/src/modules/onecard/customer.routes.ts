import {
  customerInfo,
  customerLoginReply,
  customerLoginReq,
  customerSmsReq,
  envelope,
  ocBagReply,
  ocBindReq,
  ocMovePage,
  ocOrder,
  ocOrderPage,
  ocRechargeReq,
  ocClaimLinkReq,
  ocEquityPage,
  ocEquityQuery,
  pageQuery,
  sendCodeReply,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../platform/http/envelope";
import { type RateLimitDeps } from "../../platform/http/rate-limit";
import { idParam } from "../../platform/http/route";
import { customerOf, customerTokenOf, type CustomersService } from "./customers.service";
import type { EquityOrders } from "./equity.service";
import type { OnecardService } from "./service";
import { credentialLimits, customerDocs, docs } from "./routes";

/** End-customer calls (/api/mall): login with an SMS code, then the card bag with the customer token. */
export function customerRoutes({
  onecard,
  equities,
  customers,
  rateLimitDeps,
}: {
  onecard: OnecardService;
  equities: EquityOrders;
  customers: CustomersService;
  rateLimitDeps: RateLimitDeps;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const limits = await credentialLimits(app, rateLimitDeps);
    const pre = customers.guard();
    app.post(
      "/customer/sendSms",
      {
        schema: {
          tags: docs.tags,
          summary: "Send a login code to a phone",
          body: customerSmsReq,
          response: { 200: envelope(sendCodeReply) },
        },
      },
      async (req) => ok(await customers.sendLoginCode(req.body.phone, req.lang)),
    );
    app.post(
      "/customer/login",
      {
        schema: {
          tags: docs.tags,
          summary: "Customer login by phone and code",
          body: customerLoginReq,
          response: { 200: envelope(customerLoginReply) },
        },
      },
      async (req) => ok(await limits.code(req, () => customers.login(req.body.phone, req.body.smsCode))),
    );
    app.put(
      "/customer/logout",
      {
        schema: { ...customerDocs, summary: "End the customer session", response: { 200: envelope(z.null()) } },
        preHandler: pre,
      },
      async (req) => {
        const token = customerTokenOf(req);
        if (token) await customers.logout(token);
        return ok(null);
      },
    );
    app.get(
      "/customer/info",
      {
        schema: { ...customerDocs, summary: "The logged-in customer", response: { 200: envelope(customerInfo) } },
        preHandler: pre,
      },
      (req) => {
        const c = customerOf(req);
        return ok({ id: String(c.id), phone: c.phone });
      },
    );
    app.get(
      "/onecard/bag",
      {
        schema: {
          ...customerDocs,
          summary: "The customer's cards and gifts waiting",
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.bag(customerOf(req))),
    );
    app.post(
      "/onecard/gifts/claimByLink",
      {
        schema: {
          ...customerDocs,
          summary: "Claim a gift by its link",
          body: ocClaimLinkReq,
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.claimByLink(customerOf(req), req.body.token)),
    );
    app.post(
      "/onecard/gifts/:id/claim",
      {
        schema: {
          ...customerDocs,
          summary: "Claim a gift into the card bag",
          params: idParam,
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.claimGift(customerOf(req), req.params.id)),
    );
    app.post(
      "/onecard/bind",
      {
        schema: {
          ...customerDocs,
          summary: "Put a card into the card bag (number and password)",
          body: ocBindReq,
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) =>
        ok(
          await limits.card(req, () =>
            onecard.bag.bind(customerOf(req), req.body.cardNo, req.body.password, req.ip, req.lang),
          ),
        ),
    );
    app.get(
      "/onecard/moves",
      {
        schema: {
          ...customerDocs,
          summary: "Balance changes of the customer's cards",
          querystring: pageQuery,
          response: { 200: envelope(ocMovePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.moves(customerOf(req), req.query)),
    );
    app.get(
      "/onecard/orders",
      {
        schema: {
          ...customerDocs,
          summary: "Orders paid by card",
          querystring: pageQuery,
          response: { 200: envelope(ocOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await equities.orders(customerOf(req), req.query, req.lang)),
    );
    app.get(
      "/onecard/equities",
      {
        schema: {
          ...customerDocs,
          summary: "Equities a card can pay for",
          querystring: ocEquityQuery,
          response: { 200: envelope(ocEquityPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await equities.offers(customerOf(req), req.query)),
    );
    app.post(
      "/onecard/recharge",
      {
        schema: {
          ...customerDocs,
          summary: "Pay for an equity with a card (the brand's purchase order)",
          body: ocRechargeReq,
          response: { 200: envelope(ocOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await equities.recharge(customerOf(req), req.body, req.lang)),
    );
  };
}
