import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { TrustProxy } from "../../config";
import type { AppContext } from "../../context";
import { TOKEN_HEADER } from "../auth/guard";
import { appErrors, httpDuration, httpRequests, ledgerRefusals } from "../metrics";
import { EdgeErrorShapes, registerEdgeRules } from "./edge";
import { registerErrorHandler } from "./error-handler";
import { AppError } from "./errors";
import { registerHealth } from "./health";
import { registerLang } from "./lang";
import { registerSecurity } from "./security";

/**
 * The HTTP app every module is mounted on: zod validation and serialisation, the request language, the
 * error envelope, the edge rules, the security headers, the API documentation and the health check (the
 * dev outbox, which needs the guard, is mounted by the module host).
 */
export async function createHttpApp(ctx: AppContext, logger?: FastifyBaseLogger): Promise<FastifyInstance> {
  const edgeErrorShapes = new EdgeErrorShapes();
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // TRUST_PROXY (config.ts): off unless configured, so X-Forwarded-For from a client changes nothing.
    // When set, req.ip is the client's address as the trusted proxies report it; nothing reads the
    // forwarding headers by hand.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    requestIdHeader: "x-request-id",
    // The router's own refusals (malformed escapes, over-long parameters) in the API's shape (edge.ts).
    frameworkErrors: (err, req, reply) => {
      void edgeErrorShapes.reply(err, req, reply);
    },
  });
  app.decorate("edgeErrorShapes", edgeErrorShapes);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerLang(app);
  registerErrorHandler(app);
  registerEdgeRules(app);
  await registerSecurity(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Tessera API",
        version: "0.1.0",
        description: "Back-office API. Replies are {code, data, msg}; code 1 is success.",
      },
      components: {
        securitySchemes: {
          authToken: { type: "apiKey", in: "header", name: TOKEN_HEADER },
          openApiSignature: {
            type: "apiKey",
            in: "header",
            name: "X-Signature",
            description: "HMAC-SHA256 request signature; see the open API calls",
          },
          customerToken: {
            type: "apiKey",
            in: "header",
            name: "x-customer-token",
            description: "A card customer's session (one-card customer pages)",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });

  registerHealth(app, ctx);
  countRequests(app);
  return app;
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function: Fastify's own number option trusts
 * nothing (it cannot check the peer), while TRUST_PROXY=N means what it means in Express and proxy-addr,
 * the first N hops from the socket are proxies (docs/deploy.md: only when the nodes are reachable through
 * the proxies alone).
 */
export function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === "number" ? (_address, hop) => hop < trust : trust;
}

/** Request counts and latency by route pattern (never the raw URL: ids would explode the series), and error codes. */
function countRequests(app: FastifyInstance): void {
  app.addHook("onResponse", (req, reply, done) => {
    const labels = { method: req.method, route: req.routeOptions.url ?? "unmatched", status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  app.addHook("onError", (_req, _reply, err, done) => {
    appErrors.inc({ code: errorCodeOf(err) });
    done();
  });
}

/** The reply code an error becomes: the envelope's numeric code, an IM error's name, or the HTTP class. */
function errorCodeOf(err: unknown): string {
  if (err instanceof AppError) {
    if (err.messageKey === "ledger.insufficientBalance") ledgerRefusals.inc();
    return String(err.code);
  }
  if (typeof err === "object" && err !== null) {
    const e = err as { error?: unknown; statusCode?: unknown };
    if (typeof e.error === "string") return e.error;
    if (typeof e.statusCode === "number" && e.statusCode < 500) return "client";
  }
  return "internal";
}
