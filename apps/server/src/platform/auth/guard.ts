import type { MerchantRole, UserKind } from "@tessera/contracts";
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { forbidden, unauthorized } from "../http/errors";
import type { Actor, Authenticator } from "./actor";

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export const TOKEN_HEADER = "x-auth-token";

export function tokenOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[TOKEN_HEADER];
  const token = Array.isArray(raw) ? raw[0] : raw;
  return token && token.length <= 200 ? token : undefined;
}

export interface GuardOptions {
  /** Kinds of user allowed; default merchant staff only. */
  kinds?: readonly UserKind[];
  /** The merchant must be able to act in one of these roles (purchaser, supplier, provider). */
  roles?: readonly MerchantRole[];
  /**
   * The page (menu key, e.g. "business/SuppliedProducts") this route serves; sub-accounts need it among
   * their menus. Any one of several keys suffices when a call serves several pages.
   */
  menu?: string | readonly string[];
  /**
   * False for a merchant's own calls on a page a brand token also names: the provider inside the brand
   * reads that page's list, but only the brand's own staff change what it shows.
   */
  brandToken?: false;
}

/**
 * The one mechanism every module uses for authentication, roles and tenancy. `guard()` is a preHandler:
 * no or dead token → 401; wrong kind or role → 403. Handlers then read `actorOf(req)`, and repos take
 * `tenantOf(actor)` as a required argument so a tenant never reads another's rows.
 */
export function createGuard(app: FastifyInstance, authenticate: Authenticator) {
  app.decorateRequest("actor", null);
  return function guard(options: GuardOptions = {}): preHandlerAsyncHookHandler {
    const kinds = options.kinds ?? ["merchant"];
    return async (req) => {
      const token = tokenOf(req);
      const actor = token ? await authenticate(token) : null;
      if (!actor) throw unauthorized();
      if (!kinds.includes(actor.kind)) throw forbidden();
      if (options.roles && !options.roles.some((r) => actor.roles.includes(r))) throw forbidden();
      if (actor.scope === "brand" && (options.menu === undefined || options.brandToken === false)) throw forbidden();
      if (options.menu !== undefined && actor.menus !== null) {
        const needed = typeof options.menu === "string" ? [options.menu] : options.menu;
        if (!needed.some((m) => actor.menus?.includes(m))) throw forbidden();
      }
      req.actor = actor;
    };
  };
}
export type Guard = ReturnType<typeof createGuard>;

export function actorOf(req: FastifyRequest): Actor {
  if (!req.actor) throw unauthorized();
  return req.actor;
}

/** The merchant a request acts for; refuses users who belong to none. */
export function tenantOf(actor: Actor): number {
  if (actor.merchantId === null) throw forbidden();
  return actor.merchantId;
}
