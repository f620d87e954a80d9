import {
  envelope,
  ocBatch,
  ocBatchCardQuery,
  ocBatchPage,
  ocBatchQuery,
  ocBatchReq,
  ocCardPage,
  ocHoldReply,
  ocHoldReq,
  ocProduct,
  ocProductPage,
  ocProductQuery,
  ocProductReq,
  cardProductQuery,
  ocRedeemReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam } from "../../platform/http/route";
import type { OnecardService } from "./service";
import { docs } from "./routes";

const BRAND_PAGES = ["business/FaceValueCard", "business/DiscountCard", "business/GuideCard", "business/CardMall"];

/** Brand side (/api/card-brander): card products, batches and redemption at the brand's stores. */
export function brandRoutes({ onecard, guard }: { onecard: OnecardService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    // The brand's own staff only: a provider's brand token reads the card products (below), nothing else.
    const pre = guard({ roles: ["business"], menu: BRAND_PAGES, brandToken: false });
    // The brand's face value and discount cards as its own pages list them and, with a brand token, the
    // provider's brand-context pages FaceValueCardP and DiscountCardP (the token's menus are the brand's).
    app.get(
      "/cardProducts",
      {
        schema: {
          ...docs,
          summary: "The brand's face value cards or discount cards (also with a brand token)",
          querystring: cardProductQuery,
          response: { 200: envelope(ocProductPage) },
        },
        preHandler: guard({ roles: ["business"], menu: ["business/FaceValueCard", "business/DiscountCard"] }),
      },
      async (req) => {
        const { kind, ...rest } = req.query;
        return ok(
          await onecard.issuing.products(actorOf(req), {
            ...rest,
            kind: kind === "faceValue" ? "face_value" : "discount",
          }),
        );
      },
    );
    app.get(
      "/onecard/products",
      {
        schema: {
          ...docs,
          summary: "The brand's card products",
          querystring: ocProductQuery,
          response: { 200: envelope(ocProductPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.products(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/products",
      {
        schema: {
          ...docs,
          summary: "Define a card product",
          body: ocProductReq,
          response: { 200: envelope(ocProduct) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.createProduct(actorOf(req), req.body)),
    );
    app.put(
      "/onecard/products/:id",
      {
        schema: {
          ...docs,
          summary: "Change a card product",
          params: idParam,
          body: ocProductReq,
          response: { 200: envelope(ocProduct) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.updateProduct(actorOf(req), req.params.id, req.body)),
    );
    app.put(
      "/onecard/products/:id/onSale",
      {
        schema: {
          ...docs,
          summary: "Put a card product on or off sale",
          params: idParam,
          body: z.strictObject({ onSale: z.boolean() }),
          response: { 200: envelope(ocProduct) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.setOnSale(actorOf(req), req.params.id, req.body.onSale)),
    );
    app.get(
      "/onecard/batches",
      {
        schema: {
          ...docs,
          summary: "Issued batches",
          querystring: ocBatchQuery,
          response: { 200: envelope(ocBatchPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.batches(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/batches/:id/cards",
      {
        schema: {
          ...docs,
          summary: "A batch's cards (numbers masked)",
          params: idParam,
          querystring: ocBatchCardQuery,
          response: { 200: envelope(ocCardPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.batchCards(actorOf(req), req.params.id, req.query)),
    );
    app.post(
      "/onecard/batches",
      {
        schema: {
          ...docs,
          summary: "Issue a batch of cards",
          body: ocBatchReq,
          response: { 200: envelope(ocBatch) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.issueBatch(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/redeem",
      {
        schema: {
          ...docs,
          summary: "Redeem from a card in one step",
          body: ocRedeemReq,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.redeem(actorOf(req), req.body, null, req.lang)),
    );
    app.post(
      "/onecard/holds",
      {
        schema: {
          ...docs,
          summary: "Hold part of a card's balance",
          body: ocHoldReq,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.hold(actorOf(req), req.body, null, req.lang)),
    );
    app.put(
      "/onecard/holds/:id/capture",
      {
        schema: {
          ...docs,
          summary: "Capture a hold",
          params: idParam,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.settleHold(actorOf(req), req.params.id, "capture")),
    );
    app.put(
      "/onecard/holds/:id/release",
      {
        schema: {
          ...docs,
          summary: "Release a hold",
          params: idParam,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.settleHold(actorOf(req), req.params.id, "release")),
    );
  };
}
