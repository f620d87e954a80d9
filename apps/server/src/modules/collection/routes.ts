import {
  CODE,
  applyRecord,
  applyRecordPage,
  applyReq,
  envelope,
  industriesReply,
  pageQuery,
  payCode,
  payCodeInfo,
  payCodePage,
  payCodeReq,
  payOrder,
  payOrderPage,
  payOrderQuery,
  payReq,
  payRefund,
  payRefundPage,
  payRefundQuery,
  payRefundReq,
  storePayCodeQuery,
} from "@tessera/contracts";
import type { FastifyRequest } from "fastify";
import QRCode from "qrcode";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, tenantOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { channelForUserAgent } from "../../platform/adapters/payments";
import { AppError, invalid } from "../../platform/http/errors";
import { acceptMultipart, readMultipart } from "../../platform/http/multipart";
import { pathId, routeDocs } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import type { CollectionService } from "./service";

const docs = routeDocs("collection");
const passportParam = z.object({ passportId: pathId });
const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{8,40}$/, { error: "collection.codeNotFound" }) });
const imageParam = z.object({ key: z.string().max(80) });
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
const APPLY_PAGES = ["business/aggregateIncoming", "providers/paymentApplication"];
const PAY_PAGES = ["business/receiptB", "business/WechatRefundOrder", "providers/receipt"];

/** Brand owner calls (/api/card-brander): onboarding, collection codes, payment orders, refunds. */
export function collectionBrandRoutes({
  collection,
  guard,
}: {
  collection: CollectionService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, 5 * 1024 * 1024 + 64 * 1024);
    const apply = guard({ roles: ["business", "providers"], menu: APPLY_PAGES });
    const pay = guard({ roles: ["business", "providers"], menu: [...PAY_PAGES, ...APPLY_PAGES] });
    // A store's collection codes are shown with the store (BrandStore) too.
    const storeCodes = guard({
      roles: ["business", "providers"],
      menu: [...PAY_PAGES, ...APPLY_PAGES, "business/BrandStore"],
    });
    app.get(
      "/wechat/industries",
      {
        schema: {
          ...docs,
          summary: "Industries of the aggregated onboarding (and their fee)",
          response: { 200: envelope(industriesReply) },
        },
        preHandler: apply,
      },
      (req) => ok(collection.applications.industries(req.lang)),
    );
    app.get(
      "/paymentApplyRecords",
      {
        schema: {
          ...docs,
          summary: "The merchant's onboarding application",
          response: { 200: envelope(applyRecordPage) },
        },
        preHandler: apply,
      },
      async (req) => ok(await collection.applications.records(actorOf(req), req.lang)),
    );
    app.post(
      "/paymentApplyRecords",
      {
        schema: {
          ...docs,
          summary: "Save the application (draft)",
          body: applyReq,
          response: { 200: envelope(applyRecord) },
        },
        preHandler: apply,
      },
      async (req) => ok(await collection.applications.save(actorOf(req), req.body, req.lang)),
    );
    app.post(
      "/paymentApplyRecords/submit",
      {
        schema: {
          ...docs,
          summary: "Submit the application for review",
          response: { 200: envelope(applyRecord) },
        },
        preHandler: apply,
      },
      async (req) => ok(await collection.applications.submit(actorOf(req), req.lang)),
    );
    app.post(
      "/paymentApplyRecords/confirm",
      {
        schema: {
          ...docs,
          summary: "Confirm the approved application: the signing link is issued",
          response: { 200: envelope(applyRecord) },
        },
        preHandler: apply,
      },
      async (req) => ok(await collection.applications.confirm(actorOf(req), req.lang)),
    );
    app.post(
      "/paymentApplyRecords/images",
      {
        schema: {
          ...docs,
          summary: "Upload a licence image (multipart field file)",
          response: { 200: envelope(z.object({ key: z.string(), url: z.string() })) },
        },
        preHandler: apply,
      },
      async (req) => {
        const file = (await readMultipart(req)).files.find((f) => f.field === "file");
        if (!file) throw invalid("collection.imageInvalid", "file");
        return ok(await collection.applications.uploadImage(actorOf(req), file.data));
      },
    );
    app.get(
      "/paymentApplyRecords/images/:key",
      { schema: { ...docs, summary: "A licence image of the merchant", params: imageParam }, preHandler: apply },
      async (req, reply) => {
        const img = await collection.applications.image(tenantOf(actorOf(req)), req.params.key);
        return serveUserFile(reply, { contentType: img.contentType, cacheControl: "private, no-store" }, img.data);
      },
    );

    app.get(
      "/subPassports/:passportId/paymentCodes",
      {
        schema: {
          ...docs,
          summary: "Collection codes of an account",
          params: passportParam,
          querystring: pageQuery,
          response: { 200: envelope(payCodePage) },
        },
        preHandler: pay,
      },
      async (req) => ok(await collection.codes.codes(actorOf(req), req.params.passportId, req.query, originOf(req))),
    );
    app.post(
      "/subPassports/:passportId/paymentCodes",
      {
        schema: {
          ...docs,
          summary: "Make a collection code for an account (after onboarding)",
          params: passportParam,
          body: payCodeReq,
          response: { 200: envelope(payCode) },
        },
        preHandler: pay,
      },
      async (req) =>
        ok(await collection.codes.createCode(actorOf(req), req.params.passportId, req.body, originOf(req))),
    );
    app.get(
      "/subPassports/:passportId/paymentCodes/:id/png",
      {
        schema: { ...docs, summary: "A collection code as a PNG image", params: passportParam.extend({ id: pathId }) },
        preHandler: pay,
      },
      async (req, reply) => {
        const code = await collection.codes.code(actorOf(req), req.params.passportId, req.params.id, originOf(req));
        const png = await QRCode.toBuffer(code.url, { type: "png", width: 600, margin: 2, errorCorrectionLevel: "M" });
        return reply
          .header("content-type", "image/png")
          .header("content-disposition", `attachment; filename="paycode-${code.id}.png"`)
          .send(png);
      },
    );
    app.delete(
      "/subPassports/:passportId/paymentCodes/:id",
      {
        schema: {
          ...docs,
          summary: "Retire a collection code",
          params: passportParam.extend({ id: pathId }),
          response: { 200: envelope(z.object({ deleted: z.literal(true) })) },
        },
        preHandler: pay,
      },
      async (req) => ok(await collection.codes.deleteCode(actorOf(req), req.params.passportId, req.params.id)),
    );
    app.get(
      "/paymentCodes",
      {
        schema: {
          ...docs,
          summary: "The collection codes bound to a store (of any account)",
          querystring: storePayCodeQuery,
          response: { 200: envelope(payCodePage) },
        },
        preHandler: storeCodes,
      },
      async (req) =>
        ok(await collection.codes.storeCodes(actorOf(req), Number(req.query.storeId), req.query, originOf(req))),
    );
    app.get(
      "/paymentOrders",
      {
        schema: {
          ...docs,
          summary: "Payment orders collected",
          querystring: payOrderQuery,
          response: { 200: envelope(payOrderPage) },
        },
        preHandler: pay,
      },
      async (req) => ok(await collection.payments.orderList([tenantOf(actorOf(req))], req.query)),
    );
    app.get(
      "/paymentRefunds",
      {
        schema: {
          ...docs,
          summary: "Refunds of payment orders",
          querystring: payRefundQuery,
          response: { 200: envelope(payRefundPage) },
        },
        preHandler: pay,
      },
      async (req) => ok(await collection.refunds.refunds(actorOf(req), req.query, req.lang)),
    );
    app.post(
      "/paymentRefunds",
      {
        schema: {
          ...docs,
          summary: "Refund part or all of a payment (once per request key)",
          body: payRefundReq,
          response: { 200: envelope(payRefund) },
        },
        preHandler: pay,
      },
      async (req) => ok(await collection.refunds.refund(actorOf(req), req.body, req.lang)),
    );
  };
}

/** The payer's page and the signing link (/api/pay-public, no login). */
export function collectionPublicRoutes({ collection }: { collection: CollectionService }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.get(
      "/codes/:token",
      {
        schema: {
          tags: docs.tags,
          summary: "What a collection code pays",
          params: tokenParam,
          response: { 200: envelope(payCodeInfo) },
        },
      },
      async (req) => ok(await collection.payments.codeInfo(req.params.token)),
    );
    app.post(
      "/codes/:token/pay",
      {
        schema: {
          tags: docs.tags,
          summary:
            "Pay through a collection code: at once (local adapter), or NOTPAY with payAction (WeChat Pay); the same request again polls",
          params: tokenParam,
          body: payReq,
          response: { 200: envelope(payOrder) },
        },
      },
      async (req) =>
        ok(
          await collection.payments.pay(req.params.token, req.body, {
            channel: channelForUserAgent(req.headers["user-agent"]),
            ip: req.ip,
          }),
        ),
    );
    app.get(
      "/sign/:token",
      {
        schema: {
          tags: docs.tags,
          summary: "The application a signing link signs",
          params: tokenParam,
          response: { 200: envelope(applyRecord) },
        },
      },
      async (req) => ok(await collection.applications.signInfo(req.params.token, req.lang)),
    );
    app.post(
      "/sign/:token",
      {
        schema: {
          tags: docs.tags,
          summary: "Sign the application through the link",
          params: tokenParam,
          response: { 200: envelope(applyRecord) },
        },
      },
      async (req) => ok(await collection.applications.sign(req.params.token, req.lang)),
    );
  };
}

/** Operators (/api/ops/collection): licence images under review, and the local aggregator's pending asynchronous steps now. */
export function collectionOpsRoutes({
  collection,
  guard,
}: {
  collection: CollectionService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/images/:key",
      { schema: { ...docs, summary: "A licence image under review", params: imageParam }, preHandler: pre },
      async (req, reply) => {
        const img = await collection.applications.image(null, req.params.key);
        return serveUserFile(reply, { contentType: img.contentType, cacheControl: "private, no-store" }, img.data);
      },
    );
    app.post(
      "/advance",
      {
        schema: {
          ...docs,
          summary: "Run the local aggregator's pending asynchronous steps now",
          response: { 200: envelope(z.object({ finished: z.number().int() })) },
        },
        preHandler: pre,
      },
      async () => ok({ finished: await collection.applications.advance() }),
    );
  };
}

/** Providers (/api/card-servicer): the payment orders of a brand they serve (receipt). */
export function collectionServicerRoutes({
  collection,
  guard,
  serves,
}: {
  collection: CollectionService;
  guard: Guard;
  serves: (providerId: number, merchantId: number) => Promise<boolean>;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: ["providers/receipt"] });
    app.get(
      "/paymentOrders",
      {
        schema: {
          ...docs,
          summary: "Payment orders of a brand you serve",
          querystring: payOrderQuery,
          response: { 200: envelope(payOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => {
        const me = tenantOf(actorOf(req));
        if (!req.query.branderId) throw invalid("stores.brandRequired", "branderId");
        if (!(await serves(me, Number(req.query.branderId)))) {
          throw new AppError(CODE.FORBIDDEN, "stores.providerNotServing");
        }
        return ok(await collection.payments.orderList([Number(req.query.branderId)], req.query));
      },
    );
  };
}
