import type { IncomingMessage } from "node:http";
import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { cspViolations } from "../metrics";

/** Where browsers post Content-Security-Policy violation reports (counted in metrics and logged). */
export const CSP_REPORT_PATH = "/api/csp-report";

/** A Host header as it may appear in a policy: name or address and port, nothing else. */
const HOST_RE = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::\d{1,5})?$/;

/** The page's own websocket origins: CSP 'self' covers ws/wss in current browsers; named for older ones. */
function websocketsOfHost(req: IncomingMessage): string {
  const host = req.headers.host;
  return host !== undefined && HOST_RE.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

/**
 * The policy the web app, the chat, the upload dialog and the API docs page (swagger-ui) run under: only
 * our own scripts, styles inline as antd's CSS-in-JS writes them, images and media from here or from
 * blob:/data: (upload previews, swagger-ui's icons), requests and websockets to this origin, never
 * framed, no plugins. Violations are reported to CSP_REPORT_PATH.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:"],
  mediaSrc: ["'self'", "blob:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'", (req: IncomingMessage) => websocketsOfHost(req)],
  workerSrc: ["'self'", "blob:"],
  // Plain-http installations on a LAN exist: upgrading their requests to https would break them.
  upgradeInsecureRequests: null,
  reportUri: [CSP_REPORT_PATH],
};

/** Public paths under /api whose replies may be cached: the docs page's assets and the public config. */
const CACHEABLE_API = /^\/api\/(?:docs(?:\/|$)|card-user\/common\/config(?:\?|$))/;

/** Whether a reply to this request gets `Cache-Control: no-store` (back-office replies carry personal and money data). */
export function isPrivateApi(req: FastifyRequest): boolean {
  const url = req.url;
  return (url === "/api" || url.startsWith("/api/") || url.startsWith("/api?")) && !CACHEABLE_API.test(url);
}

/**
 * Security headers on every reply (@fastify/helmet): the CSP above, X-Frame-Options DENY, nosniff,
 * Referrer-Policy, cross-origin isolation of our resources (the IM API opens its own to other origins);
 * `Cache-Control: no-store` on back-office replies; and the CSP report endpoint.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
  });
  app.addHook("onSend", (req, reply, payload, done) => {
    if (isPrivateApi(req) && !reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    done(null, payload);
  });
  await app.register(cspReports);
}

let lastLogged = 0;

/** `POST /api/csp-report`: a browser's violation report (report-uri format), counted and logged (at most one log line a second). */
// eslint-disable-next-line @typescript-eslint/require-await
async function cspReports(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser(
    ["application/csp-report", "application/reports+json"],
    { parseAs: "string", bodyLimit: 16 * 1024 },
    (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(null, {});
      }
    },
  );
  app.post(CSP_REPORT_PATH, { schema: { hide: true }, bodyLimit: 16 * 1024 }, async (req, reply) => {
    const report: Record<string, unknown> =
      (req.body as { "csp-report"?: Record<string, unknown> } | undefined)?.["csp-report"] ?? {};
    const field = (k: string) => {
      const v = report[k];
      return typeof v === "string" ? v.slice(0, 200) : undefined;
    };
    const directive = field("effective-directive") ?? field("violated-directive")?.split(" ")[0] ?? "unknown";
    cspViolations.inc({ directive: /^[a-z-]{1,40}$/.test(directive) ? directive : "unknown" });
    const now = Date.now();
    if (now - lastLogged >= 1000) {
      lastLogged = now;
      req.log.warn(
        { directive, blocked: field("blocked-uri"), page: field("document-uri") },
        "content security policy violation",
      );
    }
    return reply.status(204).send();
  });
}
