import {
  contractTransferReq,
  envelope,
  sendCodeReply,
  transfer,
  transferCheckQuery,
  transferCheckReply,
  transferContractsReply,
  transferPage,
  transferQuery,
  transferRefuseReq,
  transferReq,
  transferUpdateReq,
  transitAuthConfirmReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { tooMany } from "../../platform/http/errors";
import { useRateLimit, type RateLimitDeps } from "../../platform/http/rate-limit";
import { idParam, routeDocs } from "../../platform/http/route";
import type { TransfersService } from "./service";

const docs = routeDocs("transfers");

/**
 * Recipient checks a merchant may make: bursts of this many, then one per CHECK_WINDOW_MS / CHECK_MAX.
 * A check names the merchant behind an id and ids are sequential, so the directory must not be walkable.
 */
export const CHECK_MAX = 20;
export const CHECK_WINDOW_MS = 10 * 60_000;

/** Transfer calls of spec 01 §7 (brand owner), mounted under /api/card-brander. */
export function transferRoutes({
  transfers,
  guard,
  rateLimitDeps,
}: {
  transfers: TransfersService;
  guard: Guard;
  rateLimitDeps: RateLimitDeps;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const pre = guard({ roles: ["business", "providers"], menu: ["business/Transfers", "business/ChangesFunds"] });
    await useRateLimit(app, rateLimitDeps);
    // Per caller: the merchant (all its sub-accounts share one allowance).
    const checkLimit = app.createRateLimit({
      max: CHECK_MAX,
      timeWindow: CHECK_WINDOW_MS,
      keyGenerator: (req) => `transfer-check:${actorOf(req).merchantId ?? actorOf(req).userId}`,
    });
    app.get(
      "/transitAuth",
      {
        schema: {
          ...docs,
          summary: "Whether outgoing transfers are authorised",
          response: { 200: envelope(z.object({ authorised: z.boolean(), authorisedAt: z.string().nullable() })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.authStatus(actorOf(req))),
    );
    app.put(
      "/applyTransitAuth",
      {
        schema: {
          ...docs,
          summary: "Send the transfer authorisation code to the user's bound phone",
          response: { 200: envelope(sendCodeReply.extend({ phone: z.string() })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.applyAuth(actorOf(req), req.lang)),
    );
    app.put(
      "/confirmTransitAuth",
      {
        schema: {
          ...docs,
          summary: "Authorise outgoing transfers with the code",
          body: transitAuthConfirmReq,
          response: { 200: envelope(z.object({ authorised: z.literal(true) })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.confirmAuth(actorOf(req), req.body.smsCode)),
    );
    app.get(
      "/transfer/check",
      {
        schema: {
          ...docs,
          summary: "Check the receiving merchant of a transfer",
          querystring: transferCheckQuery,
          response: { 200: envelope(transferCheckReply) },
        },
        preHandler: pre,
      },
      async (req) => {
        const actor = actorOf(req);
        const limit = await checkLimit(req);
        const refused = !limit.isAllowed && limit.isExceeded;
        req.log.info(
          { merchantId: actor.merchantId, userId: actor.userId, toMerchantId: req.query.toMerchantId, refused },
          "transfer recipient lookup",
        );
        if (refused) throw tooMany("error.tooManyRequests");
        return ok(await transfers.check(actor, req.query.toMerchantId));
      },
    );
    app.get(
      "/transfers",
      {
        schema: {
          ...docs,
          summary: "Transfers sent and received",
          querystring: transferQuery,
          response: { 200: envelope(transferPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.list(actorOf(req), req.query)),
    );
    app.post(
      "/transfers",
      {
        schema: {
          ...docs,
          summary: "Create a transfer to another merchant",
          body: transferReq,
          response: { 200: envelope(transfer) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.create(actorOf(req), req.body)),
    );
    app.post(
      "/contract/transfers",
      {
        schema: {
          ...docs,
          summary: "Create a transfer under a contract",
          body: contractTransferReq,
          response: { 200: envelope(transfer) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.create(actorOf(req), req.body)),
    );
    app.get(
      "/transfer/contracts",
      {
        schema: {
          ...docs,
          summary: "Contracts and their transfers",
          response: { 200: envelope(transferContractsReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.contracts(actorOf(req))),
    );
    app.put(
      "/transfers/:id",
      {
        schema: {
          ...docs,
          summary: "Change a transfer's amount or remark (sender, before it is decided)",
          params: idParam,
          body: transferUpdateReq,
          response: { 200: envelope(transfer) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.decide(actorOf(req), req.params.id, { kind: "update", ...req.body })),
    );
    app.put(
      "/transfers/:id/refuse",
      {
        schema: {
          ...docs,
          summary: "Refuse a transfer (recipient)",
          params: idParam,
          body: transferRefuseReq,
          response: { 200: envelope(transfer) },
        },
        preHandler: pre,
      },
      async (req) =>
        ok(await transfers.decide(actorOf(req), req.params.id, { kind: "refuse", reason: req.body.reason })),
    );
    app.put(
      "/transfers/:id/accept",
      {
        schema: {
          ...docs,
          summary: "Accept a transfer: the money moves (recipient)",
          params: idParam,
          response: { 200: envelope(transfer) },
        },
        preHandler: pre,
      },
      async (req) => ok(await transfers.decide(actorOf(req), req.params.id, { kind: "accept" })),
    );
  };
}
