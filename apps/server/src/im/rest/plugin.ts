import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { asGroupRefusal, ImError, imError, invalidParam } from "../errors";
import type { ImServices } from "../service";
import { EdgeInputError, refuseDirtyInput } from "../../platform/http/edge";
import { acceptMultipart, isFileTooLarge, isMultipart, loadMultipart } from "../../platform/http/multipart";
import type { Replies } from "./http";
import { imLimits, type ImLimits } from "./rate-limit";
import { accountRoutes } from "./accounts";
import { mucRoutes } from "./mucs";
import { contactRoutes } from "./contacts";
import { nameCardRoutes } from "./namecards";
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
  /** The request limits (rate-limit.ts), made by the plugin for its routes. */
  limits: ImLimits;
}

/** Group calls whose URL lacks "chatgroups": threads and member attributes (see asGroupRefusal). */
const GROUP_URLS_WITHOUT_CHATGROUPS = /^\/[^/]+\/[^/]+\/(thread|threads|sdk\/metadata\/chatgroup)(\/|\?|$)/;

const ALLOWED_HEADERS =
  "Authorization, Content-Type, Accept, restrict-access, share-secret, X-Requested-With, lang, token, appid, sendts, biz, debug";

/**
 * Bearer tokens travel in headers only, so any origin may call (no cookies are involved). Replies carry
 * messages, contacts and profiles: not stored by caches (a file download sets its own private caching).
 */
function cors(req: FastifyRequest, reply: FastifyReply): void {
  reply.header("access-control-allow-origin", "*");
  if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  reply.header("access-control-expose-headers", "content-disposition, content-length");
  // Other origins' apps show our files (chat images) in <img>: the platform's same-origin policy is lifted here.
  reply.header("cross-origin-resource-policy", "cross-origin");
  if (req.method === "OPTIONS") {
    const asked = req.headers["access-control-request-headers"];
    reply.header("access-control-allow-methods", "GET, POST, PUT, DELETE, OPTIONS");
    reply.header(
      "access-control-allow-headers",
      typeof asked === "string" && asked.length < 1000 ? asked : ALLOWED_HEADERS,
    );
    reply.header("access-control-max-age", "86400");
  }
}

function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== "string") return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/** Grant failures that count against the name and the address (a deactivated user gave the right password). */
const GRANT_FAILURES = new Set(["invalidPassword", "loginUserNotFound", "invalidClient"]);

/**
 * The IM REST API under /{org}/{app}: the published service's paths, reply envelope and error bodies,
 * in an encapsulated Fastify context with its own body parsers (the client sends `Content-Type:
 * application/json` on bodiless calls; multipart file parts stream to temporary files through
 * @fastify/multipart), CORS, bearer authentication, request limits and error handler.
 */
export function imRestPlugin(ctx: Omit<RouteContext, "limits">) {
  const { svc } = ctx;
  const fileMaxBytes = svc.deps.config.fileMaxBytes;
  return async function plugin(im: FastifyInstance): Promise<void> {
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
    await acceptMultipart(im, fileMaxBytes);
    // Anything else (octet-stream ...) is read as raw bytes and refused by the route that gets it.
    im.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

    // The router's own refusals under the prefix (a malformed escape, an over-long segment) in the IM shape.
    im.edgeErrorShapes.add(im.prefix, () => {
      const e = invalidParam("path");
      return { status: e.status, body: e.body(svc.deps.clock.now().getTime()) };
    });

    const limits = await imLimits(im, svc);
    const tokenUrl = `${im.prefix}/token`;
    const isGrant = (req: FastifyRequest) => req.method === "POST" && req.routeOptions.url === tokenUrl;

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
      await limits.user(req, reply);
    });

    // After authentication: multipart bodies become {fields, files} (the routes read req.body), and
    // token grants wait while their name or address has too many recent failures.
    im.addHook("preHandler", async (req) => {
      if (isMultipart(req)) {
        try {
          req.body = await loadMultipart(req);
        } catch (err) {
          if (isFileTooLarge(err)) {
            throw imError("uploadFailed", { reason: `file size exceeds the limit of ${fileMaxBytes} bytes` });
          }
          throw imError("uploadFailed", { reason: "malformed multipart body" });
        }
        refuseDirtyInput((req.body as { fields?: unknown }).fields, "body");
      }
      if (isGrant(req)) await limits.checkLogin(req);
    });
    im.addHook("onError", async (req, _reply, err) => {
      if (isGrant(req) && err instanceof ImError && GRANT_FAILURES.has(err.key)) await limits.loginFailed(req);
    });

    im.options("/*", { config: { imPublic: true } }, async (_req, reply) => reply.status(204).send());
    im.setErrorHandler((err: FastifyError, req, reply) => {
      const now = svc.deps.clock.now().getTime();
      cors(req, reply);
      if (err instanceof ImError) {
        const e = GROUP_URLS_WITHOUT_CHATGROUPS.test(req.url) ? (asGroupRefusal(err) as ImError) : err;
        return reply.status(e.status).send(e.body(now));
      }
      // The platform's edge rules (NUL bytes, lone surrogates, a bare JSON value as the body).
      if (err instanceof EdgeInputError) return reply.status(400).send(invalidParam(err.field ?? "body").body(now));
      if (err.statusCode === 413) {
        const e = imError("uploadFailed", { reason: `file size exceeds the limit of ${fileMaxBytes} bytes` });
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
      const path = req.url.split("?")[0] ?? "";
      const e = imError("routeNotFound", { path: path.length > 200 ? `${path.slice(0, 200)}…` : path });
      return reply.status(e.status).send(e.body(svc.deps.clock.now().getTime()));
    };
    im.setNotFoundHandler(notFound);
    // The web app's static wildcard would otherwise answer unknown GETs under the prefix with index.html.
    im.route({
      method: ["GET", "POST", "PUT", "DELETE"],
      url: "/*",
      handler: async (req, reply) => notFound(req, reply),
    });

    const routes: RouteContext = { ...ctx, limits };
    accountRoutes(im, routes);
    mucRoutes(im, routes);
    contactRoutes(im, routes);
    nameCardRoutes(im, routes);
    conversationRoutes(im, routes);
    presenceRoutes(im, routes);
    silentRoutes(im, routes);
    threadRoutes(im, routes);
    translateRoutes(im, routes);
    fileRoutes(im, routes);
    reportRoutes(im, routes);
  };
}
