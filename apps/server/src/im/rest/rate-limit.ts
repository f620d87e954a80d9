import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ImError, imError } from "../errors";
import type { ImServices } from "../service";
import { addressOf, failureLimit, useRateLimit } from "../../platform/http/rate-limit";

/**
 * The IM REST API's limits, on @fastify/rate-limit (platform/http/rate-limit.ts): shared by every server
 * process through Redis when REDIS_URL is set, in this process's memory otherwise.
 *
 * - Each user token: IM_RATE_LIMIT_PER_SECOND requests a second, bursts to twice that (two seconds'
 *   worth at once), 429 "too_many_requests" beyond; 0 turns it off. The app token (the back-office
 *   server) is not limited. Data reports have a bucket of their own.
 * - The token endpoint: after 3 failed grants for one user name, or 30 from one address, in 15 minutes,
 *   the next attempt must wait (one more every 5 minutes per name, every 30 seconds per address), even
 *   with the right password. Unknown names count too, so probing learns nothing.
 */
export interface ImLimits {
  /** Takes one request of the authenticated user (req.imActor); throws 429 when over the rate. */
  user(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The same for data reports (POST sdk/reports), on their own bucket. */
  reports(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Before a token grant: throws 429 while the name or the address has too many recent failures. */
  checkLogin(req: FastifyRequest): Promise<void>;
  /** After a failed grant: counts it for the name (password grant) and the address. */
  loginFailed(req: FastifyRequest): Promise<void>;
}

export const LOGIN_FAILURES_PER_USER = 3;
export const LOGIN_FAILURES_PER_ADDRESS = 30;
export const LOGIN_WINDOW_MS = 15 * 60_000;

/** A refused grant: the IM error shape of a 429, saying when to try again. */
class LoginThrottled extends ImError {
  constructor(readonly seconds: number) {
    super("rateLimited");
  }
  override body(now: number): Record<string, unknown> {
    return {
      ...super.body(now),
      error_description: `too many failed logins, please try again in ${this.seconds} seconds`,
    };
  }
}

function loginName(req: FastifyRequest): string | null {
  const body = req.body as Record<string, unknown> | undefined;
  return body?.grant_type === "password" && typeof body.username === "string"
    ? body.username.toLowerCase().slice(0, 64)
    : null;
}

const usernameOf = (req: FastifyRequest) => (req.imActor?.kind === "user" ? req.imActor.username : "");

/** Registers the limiter in the IM plugin; call before its routes. */
export async function imLimits(im: FastifyInstance, svc: ImServices): Promise<ImLimits> {
  const { config, clock } = svc.deps;
  await useRateLimit(im, { redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, clock });
  const perSecond = config.rateLimitPerSecond;
  const rate = (prefix: string) =>
    im.rateLimit({
      max: perSecond * 2,
      timeWindow: 2000,
      keyGenerator: (req) => `im:${prefix}:${usernameOf(req)}`,
      allowList: (req) => req.imActor?.kind !== "user",
      errorResponseBuilder: () => imError("rateLimited", { max: perSecond }),
    });
  const user = perSecond > 0 ? rate("user") : null;
  const reports = perSecond > 0 ? rate("reports") : null;

  const byName = failureLimit(im, {
    name: "im:login:user",
    max: LOGIN_FAILURES_PER_USER,
    timeWindowMs: LOGIN_WINDOW_MS,
    key: (req) => loginName(req) ?? "",
  });
  const byAddress = failureLimit(im, {
    name: "im:login:address",
    max: LOGIN_FAILURES_PER_ADDRESS,
    timeWindowMs: LOGIN_WINDOW_MS,
    key: addressOf,
  });
  return {
    async user(req, reply) {
      await user?.call(im, req, reply);
    },
    async reports(req, reply) {
      await reports?.call(im, req, reply);
    },
    async checkLogin(req) {
      const wait = Math.max(loginName(req) === null ? 0 : await byName.blocked(req), await byAddress.blocked(req));
      if (wait > 0) throw new LoginThrottled(wait);
    },
    async loginFailed(req) {
      await Promise.all([loginName(req) === null ? undefined : byName.fail(req), byAddress.fail(req)]);
    },
  };
}
