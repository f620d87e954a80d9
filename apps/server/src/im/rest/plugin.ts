import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { asGroupRefusal, ImError, imError } from "../errors";
import type { ImServices } from "../service";
import { boundaryOf, parseMultipart } from "../../platform/http/multipart";
import type { Replies } from "./http";
import { createRateLimiter } from "./rate-limit";
import { accountRoutes } from "./accounts";
import { mucRoutes } from "./mucs";
import { contactRoutes } from "./contacts";
import { conversationRoutes } from "./conversations";
import { presenceRoutes } from "./presence";
import { silentRoutes } from "./silent";
import { threadRoutes } from "./threads";
import { translateRoutes } from "./translate";
import { fileRoutes } from "./files";
import { reportRoutes } from "./reports";

export interface RouteContext {
  svc: ImServices;
  replies: Replies;
}

/** Group calls whose URL lacks "chatgroups": threads and member attributes (see asGroupRefusal). */
const GROUP_URLS_WITHOUT_CHATGROUPS = /^\/[^/]+\/[^/]+\/(thread|threads|sdk\/metadata\/chatgroup)(\/|\?|$)/;

const ALLOWED_HEADERS = "Authorization, Content-Type, Accept, restrict-access, share-secret, X-Requested-With, lang, token, appid, sendts, biz, debug";

/** Bearer tokens travel in headers only, so any origin may call (no cookies are involved). */
function cors(req: FastifyRequest, reply: FastifyReply): void {
  reply.header("access-control-allow-origin", "*");
  reply.header("access-control-expose-headers", "content-disposition, content-length");
  if (req.method === "OPTIONS") {
    const asked = req.headers["access-control-request-headers"];
    reply.header("access-control-allow-methods", "GET, POST, PUT, DELETE, OPTIONS");
    reply.header("access-control-allow-headers", typeof asked === "string" && asked.length < 1000 ? asked : ALLOWED_HEADERS);
    reply.header("access-control-max-age", "86400");
  }
}

function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== "string") return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/**
 * The IM REST API under /{org}/{app}: the published service's paths, reply envelope and error bodies,
 * in an encapsulated Fastify context with its own body parsers (the client sends `Content-Type:
 * application/json` on bodiless calls), CORS, bearer authentication and error handler.
 */
export function imRestPlugin(ctx: RouteContext) {
  const { svc } = ctx;
  const limiter = createRateLimiter(svc.deps.config.rateLimitPerSecond);
  return function plugin(im: FastifyInstance, _opts: unknown, done: () => void): void {
    im.decorateRequest("imActor", null);

    im.removeAllContentTypeParsers();
    im.addContentTypeParser(["application/json", "text/plain"], { parseAs: "string" }, (_req, body, done) => {
      const text = (body as string).trim();
      if (text === "") return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(imError("unreadableBody"), undefined);
      }
    });
    im.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    im.addContentTypeParser(
      "multipart/form-data",
      { parseAs: "buffer", bodyLimit: svc.deps.config.fileMaxBytes + 256 * 1024 },
      (req, body, done) => {
        const boundary = boundaryOf(req.headers["content-type"]);
        const parsed = boundary ? parseMultipart(body as Buffer, boundary) : null;
        if (!parsed) return done(imError("uploadFailed", { reason: "malformed multipart body" }), undefined);
        done(null, parsed);
      },
    );
    // Anything else (octet-stream ...) is read as raw bytes and refused by the route that gets it.
    im.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

    im.addHook("onRequest", async (req, reply) => {
      cors(req, reply);
      if (req.method === "OPTIONS" || req.routeOptions.config.imPublic) {
        const token = bearerOf(req);
        if (token) req.imActor = (await svc.accounts.authenticate(token))?.actor ?? null;
        return;
      }
      const token = bearerOf(req);
      const auth = token ? await svc.accounts.authenticate(token) : null;
      if (!auth) throw imError("unauthorized");
      req.imActor = auth.actor;
      // Users are limited per name; the app token is the back-office server's own, trusted caller.
      if (auth.actor.kind === "user" && !limiter.take(auth.actor.username, svc.deps.clock.now().getTime())) {
        throw imError("rateLimited", { max: svc.deps.config.rateLimitPerSecond });
      }
    });

    im.options("/*", { config: { imPublic: true } }, async (_req, reply) => reply.status(204).send());

    im.setErrorHandler((err: FastifyError, req, reply) => {
      const now = svc.deps.clock.now().getTime();
      cors(req, reply);
      if (err instanceof ImError) {
        const e = GROUP_URLS_WITHOUT_CHATGROUPS.test(req.url) ? (asGroupRefusal(err) as ImError) : err;
        return reply.status(e.status).send(e.body(now));
      }
      if (err.statusCode === 413) {
        const e = imError("uploadFailed", { reason: `file size exceeds the limit of ${svc.deps.config.fileMaxBytes} bytes` });
        return reply.status(e.status).send(e.body(now));
      }
      if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
        const e = imError("unreadableBody");
        return reply.status(e.status).send(e.body(now));
      }
      req.log.error({ err }, "im: unhandled error");
      return reply.status(500).send(imError("internal").body(now));
    });
    const notFound = (req: FastifyRequest, reply: FastifyReply) => {
      cors(req, reply);
      const e = imError("routeNotFound", { path: req.url.split("?")[0] ?? "" });
      return reply.status(e.status).send(e.body(svc.deps.clock.now().getTime()));
    };
    im.setNotFoundHandler(notFound);
    // The web app's static wildcard would otherwise answer unknown GETs under the prefix with index.html.
    im.route({ method: ["GET", "POST", "PUT", "DELETE"], url: "/*", handler: async (req, reply) => notFound(req, reply) });

    accountRoutes(im, ctx);
    mucRoutes(im, ctx);
    contactRoutes(im, ctx);
    conversationRoutes(im, ctx);
    presenceRoutes(im, ctx);
    silentRoutes(im, ctx);
    threadRoutes(im, ctx);
    translateRoutes(im, ctx);
    fileRoutes(im, ctx);
    reportRoutes(im, ctx);
    done();
  };
}
