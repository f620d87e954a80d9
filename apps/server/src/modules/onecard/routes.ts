import {
  envelope,
  ocBalance,
  ocCheckReq,
  ocProduct,
  ocGiftPreview,
  ocGiftPreviewQuery,
  ocServedExtractionQuery,
  ocServedExtractionPage,
  ocResetPwdReq,
  ocResetPwdSmsReq,
  sendCodeReply,
} from "@tessera/contracts";
import { CODE } from "@tessera/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { AppError, tooMany } from "../../platform/http/errors";
import {
  addressOf,
  failureLimit,
  limitedCheck,
  useRateLimit,
  type RateLimitDeps,
} from "../../platform/http/rate-limit";
import { customerSecurity, idParam, routeDocs } from "../../platform/http/route";
import { ADDRESS_FAILURES, ADDRESS_WINDOW_MINUTES } from "../accounts";
import { customerOf, customerTokenOf, type CustomersService } from "./customers.service";
import { type ServedExtractions } from "./reports.service";
import type { OnecardService } from "./service";

export const docs = routeDocs("onecard");
export const customerDocs = routeDocs("onecard", customerSecurity);

/** A wrong card number or password, or a card locked by them: a guess that counts toward the per-address limit. */
const cardGuessFailed = (err: unknown) =>
  err instanceof AppError && (err.messageKey === "onecard.cardUnknown" || err.code === CODE.ACCOUNT_LOCKED);
/** A wrong, used or expired verification code (or a reset naming an unknown card). */
const codeGuessFailed = (err: unknown) =>
  err instanceof AppError && (err.code === CODE.CODE_INVALID || err.messageKey === "onecard.cardUnknown");

/**
 * The per-address failure limits of the card pages, the merchant login's (accounts/service.ts
 * ADDRESS_FAILURES in ADDRESS_WINDOW_MINUTES, on @fastify/rate-limit, shared through Redis): one for card
 * passwords, one for SMS codes. Beside them the card's own lock and the card service's per-client throttle
 * stay; this one holds across server processes.
 */
export async function credentialLimits(app: FastifyInstance, deps: RateLimitDeps) {
  await useRateLimit(app, deps);
  const window = { max: ADDRESS_FAILURES, timeWindowMs: ADDRESS_WINDOW_MINUTES * 60_000, key: addressOf };
  const cards = failureLimit(app, { name: "card:address", ...window });
  const codes = failureLimit(app, { name: "code:address", ...window });
  const refusal = () => tooMany("error.tooManyRequests");
  return {
    card: <T>(req: FastifyRequest, check: () => Promise<T>) =>
      limitedCheck(req, cards, cardGuessFailed, refusal, check),
    code: <T>(req: FastifyRequest, check: () => Promise<T>) =>
      limitedCheck(req, codes, codeGuessFailed, refusal, check),
  };
}

/** Public card calls (/api/card-public): balance query, card charter, reset password by SMS. */
export function publicRoutes({
  onecard,
  customers,
  rateLimitDeps,
}: {
  onecard: OnecardService;
  customers: CustomersService;
  rateLimitDeps: RateLimitDeps;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const limits = await credentialLimits(app, rateLimitDeps);
    app.post(
      "/onecard/balance",
      {
        schema: {
          tags: docs.tags,
          summary: "A card's balance by number and password",
          body: ocCheckReq,
          response: { 200: envelope(ocBalance) },
        },
      },
      async (req) =>
        ok(
          await limits.card(req, () =>
            onecard.redemption.balance(req.body.cardNo, req.body.password, req.ip, req.lang),
          ),
        ),
    );
    app.get(
      "/onecard/gifts/preview",
      {
        schema: {
          tags: docs.tags,
          summary: "A gift link's landing: sender, cards, amount and message (the token is the credential)",
          querystring: ocGiftPreviewQuery,
          response: { 200: envelope(ocGiftPreview) },
        },
      },
      async (req) => ok(await onecard.bag.giftPreview(req.query.token)),
    );
    app.get(
      "/onecard/charter/:id",
      {
        schema: {
          tags: docs.tags,
          summary: "The terms of a card product",
          params: idParam,
          response: { 200: envelope(ocProduct) },
        },
      },
      async (req) => ok(await onecard.issuing.charter(req.params.id)),
    );
    // The reset code goes only to the logged-in customer whose card bag holds the card, and the reply names
    // no phone: a card number alone must neither text its holder nor reveal their number.
    app.post(
      "/onecard/resetPwd/sms",
      {
        schema: {
          ...customerDocs,
          summary: "Send a reset code to the logged-in customer's phone for a card in their bag",
          body: ocResetPwdSmsReq,
          response: { 200: envelope(sendCodeReply) },
        },
        preHandler: customers.guard(),
      },
      async (req) =>
        ok(await limits.card(req, () => onecard.bag.sendResetCode(customerOf(req), req.body.cardNo, req.lang))),
    );
    app.post(
      "/onecard/resetPwd",
      {
        schema: {
          tags: docs.tags,
          summary: "Set a new card password: with the code (customer session) or the current password",
          body: ocResetPwdReq,
          response: { 200: envelope(z.object({ reset: z.literal(true) })) },
        },
      },
      async (req) => {
        const token = customerTokenOf(req);
        const customer = token ? await customers.authenticate(token) : null;
        const proof = { customer, client: req.ip, lang: req.lang };
        // A current password is a card check (its limits); a code is a code check.
        const reset = () => onecard.bag.resetPassword(req.body, proof);
        return ok(await (req.body.currentPassword !== undefined ? limits.card(req, reset) : limits.code(req, reset)));
      },
    );
  };
}

/** Service provider (/api/card-servicer): TikaOrder, the extractions of the purchasers it serves. */
export function providerRoutes({
  extractions,
  guard,
}: {
  extractions: ServedExtractions;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: "providers/TikaOrder" });
    app.get(
      "/onecard/extractions",
      {
        schema: {
          ...docs,
          summary: "Card extractions of the purchasers served",
          querystring: ocServedExtractionQuery,
          response: { 200: envelope(ocServedExtractionPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await extractions.page(actorOf(req), req.query)),
    );
  };
}
