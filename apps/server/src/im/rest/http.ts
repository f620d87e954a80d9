import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { imError, invalidParam } from "../errors";
import type { ImActor, ImDeps } from "../service/core";

declare module "fastify" {
  interface FastifyRequest {
    /** The IM caller, set by the IM auth hook. */
    imActor: ImActor | null;
  }
  interface FastifyContextConfig {
    /** IM routes that need no bearer token (token, register). */
    imPublic?: boolean;
  }
}

export function actorOf(req: FastifyRequest): ImActor {
  if (!req.imActor) throw imError("unauthorized");
  const resource = queryOf(req).resource;
  return req.imActor.kind === "user" ? { ...req.imActor, resource } : req.imActor;
}

/** The caller must be a user (not the app token). */
export function userOf(req: FastifyRequest): string {
  const a = actorOf(req);
  if (a.kind !== "user") throw imError("permissionDenied", { reason: "this call needs a user's token" });
  return a.username;
}

const ABSENT = new Set(["", "undefined", "null"]);

/**
 * The query string as the published client sends it: values are not URL-encoded and may be the words
 * `undefined` or `null`, which mean absent; `_v` is a cache breaker.
 */
export function queryOf(req: FastifyRequest): Record<string, string> {
  const raw = (req.query ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "_v") continue;
    const value: unknown = Array.isArray(v) ? (v as unknown[])[v.length - 1] : v;
    if (typeof value === "string" && !ABSENT.has(value)) out[k] = value;
  }
  return out;
}

export function intParam(
  value: string | undefined,
  field: string,
  options: { min?: number; max?: number; fallback?: number } = {},
): number {
  if (value === undefined) {
    if (options.fallback !== undefined) return options.fallback;
    throw invalidParam(field);
  }
  const n = Number(value);
  if (!Number.isInteger(n) || (options.min !== undefined && n < options.min)) throw invalidParam(field);
  return options.max !== undefined ? Math.min(n, options.max) : n;
}

export function boolParam(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return value === "true" || value === "1";
}

/** Validates a body with a contracts schema; the first problem becomes "Invalid parameter: <field>". */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : (issue?.message ?? "body");
  throw invalidParam(field);
}

/**
 * Comma-separated names in a path segment ("a,b,c"), lower-cased, de-duplicated. The router has already
 * decoded the segment, once (a malformed escape never reaches a route: see platform/http/edge.ts); it is
 * not decoded again, so a name holding "%" is refused as a name, never thrown on.
 */
export function namesOf(segment: string, field = "username"): string[] {
  const names = [
    ...new Set(
      segment
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s !== ""),
    ),
  ];
  if (names.length === 0 || names.length > 1000) throw invalidParam(field);
  return names;
}

/** Builds replies in the published service's envelope. */
export class Replies {
  constructor(private readonly deps: ImDeps) {}

  envelope(req: FastifyRequest, fields: Record<string, unknown>): Record<string, unknown> {
    const { org, app } = this.deps.config;
    const path = req.url.split("?")[0] ?? "";
    const host = req.headers.host ?? "localhost";
    return {
      action: req.method.toLowerCase(),
      application: this.deps.appUuid,
      path: path.slice(`/${org}/${app}`.length) || "/",
      uri: `${req.protocol}://${host}${path}`,
      timestamp: this.deps.clock.now().getTime(),
      duration: 0,
      organization: org,
      applicationName: app,
      ...fields,
    };
  }

  send(req: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>): FastifyReply {
    return reply.status(200).send(this.envelope(req, fields));
  }
}
