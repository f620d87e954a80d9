import { envelope, merchandise, merchandiseQuery, money, orderReq, pageOf, purchaseOrder } from "@tessera/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/tx";
import { actorOf, type Guard } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { bearerSecurity, routeDocs, signatureSecurity } from "../../platform/http/route";
import type { CatalogService } from "../catalog";
import { balancesOf } from "../ledger";
import { getMerchant } from "../merchants";
import type { PurchasingService } from "../purchasing";
import { pruneNonces, verifySigned, type SigningClient } from "./signature";

declare module "fastify" {
  interface FastifyRequest {
    /** The exact bytes of the body, for the signature of open-API requests. */
    rawBody?: Buffer;
  }
}

const docs = routeDocs("open API", signatureSecurity);
const SIGNING = `Signed requests. Headers: X-App-Key, X-Timestamp (Unix seconds, within 5 minutes of the server), X-Nonce (8-64 of A-Z a-z 0-9 _ -, never reused), X-Signature = hex HMAC-SHA256(secret, METHOD + "\\n" + path-with-query + "\\n" + timestamp + "\\n" + nonce + "\\n" + hex SHA-256 of the body bytes).
Worked example: secret "s3cr3t", POST /api/card-api/openapi/order, timestamp 1795449600, nonce "n0nce-0001", body {"goodsId":"1","quantity":1,"orderNo":"ORDER-0001"}: sign "POST\\n/api/card-api/openapi/order\\n1795449600\\nn0nce-0001\\n<sha256 hex of the body>" with HMAC-SHA256 under "s3cr3t" and send the hex digest.
Errors: 401 unsigned / unknown key / stale timestamp / bad signature / replayed nonce, 403 no API permission / IP not allowed, 400 bad input, 409 order number reused with another request (all final); 429 and 5xx are retryable with the same order number, which never makes a second order.`;

export interface OpenApiDeps {
  db: Db;
  clock: Clock;
  purchasing: PurchasingService;
  catalog: CatalogService;
  guard: Guard;
  clientOf: (appKey: string) => Promise<(SigningClient & { callbackUrl: string | null }) | undefined>;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The purchase API for purchasers with API permission, mounted under /api/card-api/openapi. */
export function openApiRoutes(deps: OpenApiDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    // Keep the body's bytes: the signature covers them exactly as sent.
    app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: 64 * 1024 }, (req, body, done) => {
      const raw = body as Buffer;
      req.rawBody = raw;
      if (raw.length === 0) {
        done(null, undefined);
        return;
      }
      try {
        done(null, JSON.parse(raw.toString("utf8")));
      } catch {
        done(invalid("validation.invalidParameter", "body", { field: "body" }), undefined);
      }
    });
    const signed = async (req: FastifyRequest): Promise<SigningClient> =>
      verifySigned(deps, {
        method: req.method,
        url: req.url,
        ip: req.ip,
        rawBody: req.rawBody ?? Buffer.alloc(0),
        headers: {
          appKey: header(req, "x-app-key"),
          timestamp: header(req, "x-timestamp"),
          nonce: header(req, "x-nonce"),
          signature: header(req, "x-signature"),
        },
      });
    let lastPrune = 0;
    app.addHook("onResponse", async () => {
      const now = deps.clock.now();
      if (now.getTime() - lastPrune > 60_000) {
        lastPrune = now.getTime();
        await pruneNonces(deps.db, now);
      }
    });

    app.post(
      "/order",
      {
        schema: {
          ...docs,
          summary: "Place an order (idempotent on your order number)",
          description: SIGNING,
          body: orderReq,
          response: { 200: envelope(purchaseOrder) },
        },
      },
      async (req) => {
        const client = await signed(req);
        return ok(await deps.purchasing.orderByApi(client.merchantId, req.body));
      },
    );
    app.get(
      "/order",
      {
        schema: {
          ...docs,
          summary: "An order by your order number",
          description: SIGNING,
          querystring: z.object({ orderNo: z.string().min(1).max(64) }),
          response: { 200: envelope(purchaseOrder) },
        },
      },
      async (req) => {
        const client = await signed(req);
        return ok(await deps.purchasing.orderByNo(client.merchantId, req.query.orderNo));
      },
    );
    // The product list answers signed requests (X-App-Key ...) like every open-API call, and also the
    // session token of a signed-in purchaser (the web app's goods pages use it).
    const session = deps.guard({ roles: ["sale"] });
    app.get(
      "/product",
      {
        schema: {
          tags: docs.tags,
          security: [...signatureSecurity, ...bearerSecurity],
          summary: "Goods on sale (signed request, or a purchaser's session token)",
          description: SIGNING,
          querystring: merchandiseQuery,
          response: { 200: envelope(pageOf(merchandise)) },
        },
        serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      },
      async (req, reply) => {
        if (header(req, "x-app-key") === undefined) {
          await session.call(app, req, reply);
          return ok(await deps.catalog.merchandises(actorOf(req), req.query));
        }
        const client = await signed(req);
        const merchant = await getMerchant(deps.db, client.merchantId);
        if (!merchant) throw invalid("openapi.unknownKey");
        return ok(await deps.catalog.merchandisesIn(merchant, req.query));
      },
    );
    app.get(
      "/balance",
      {
        schema: {
          ...docs,
          summary: "The SUP account balance orders are paid from",
          description: SIGNING,
          response: { 200: envelope(z.object({ sup: money, reserve: money })) },
        },
      },
      async (req) => {
        const client = await signed(req);
        const merchant = await getMerchant(deps.db, client.merchantId);
        if (!merchant) throw invalid("openapi.unknownKey");
        const b = await balancesOf(deps.db, merchant.id, merchant.currency);
        return ok({ sup: b.sup, reserve: b.reserve });
      },
    );
  };
}
