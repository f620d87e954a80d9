import fastifyRateLimit, {
  normalizeIP,
  type FastifyRateLimitOptions,
  type FastifyRateLimitStore,
} from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import type { Clock } from "../clock";

/**
 * Request limits with @fastify/rate-limit: its hooks, keys, headers and 429 replies, on a store that
 * holds when the server runs as several processes (Redis, when REDIS_URL is set) or in this process's
 * memory otherwise.
 *
 * The store is a cell-rate limiter (GCRA, the token bucket in one timestamp per key) behind the
 * library's store interface: `max` requests in `timeWindow` means one request every timeWindow/max,
 * with bursts of up to `max` at once. The library's own stores count in fixed windows, which cannot
 * express "N per second, bursts to 2N" and let 2×max through across a window edge. In memory the time
 * is the app clock (tests move it); in Redis it is the Redis server's clock, the one clock every
 * process shares.
 */
export interface RateLimitDeps {
  /** REDIS_URL: limits shared by every process; none: this process's memory. */
  redisUrl: string | undefined;
  /** What this deployment's Redis keys start with (REDIS_PREFIX); default "tessera:". */
  redisPrefix?: string | undefined;
  clock: Clock;
  log?: (message: string) => void;
}

/** One key's state: the theoretical arrival time of the next request (ms), as in GCRA. */
interface Cells {
  /** Takes one cell; `wait` is how long (ms) until a cell is free again when refused, else 0. */
  take(key: string, intervalMs: number, windowMs: number): Promise<{ allowed: boolean; used: number; wait: number }>;
  /** The state without taking: how far ahead (ms) the key's arrival time is. */
  ahead(key: string): Promise<number>;
  close(): Promise<void>;
}

/** Tolerance for float sums (an interval of 1000/3 ms times 3 must still fit its window). */
const EPSILON = 1e-6;
/** Entries whose arrival time has passed are forgotten this often, bounding memory by active keys. */
const SWEEP_MS = 60_000;

function memoryCells(clock: Clock): Cells {
  const tat = new Map<string, number>();
  let sweptAt = 0;
  return {
    take(key, intervalMs, windowMs) {
      const now = clock.now().getTime();
      if (now - sweptAt > SWEEP_MS) {
        for (const [k, t] of tat) if (t <= now) tat.delete(k);
        sweptAt = now;
      }
      const next = Math.max(tat.get(key) ?? now, now) + intervalMs;
      if (next - now > windowMs + EPSILON) {
        return Promise.resolve({ allowed: false, used: 0, wait: next - windowMs - now });
      }
      tat.set(key, next);
      return Promise.resolve({ allowed: true, used: next - now, wait: 0 });
    },
    ahead(key) {
      return Promise.resolve(Math.max(0, (tat.get(key) ?? 0) - clock.now().getTime()));
    },
    close: () => Promise.resolve(),
  };
}

/** The same in one Lua script, atomic across processes; times are Redis's (microseconds → ms). */
const GCRA_TAKE = `
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + tonumber(now[2]) / 1000
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nextTat = tat + interval
if nextTat - now > window + 0.000001 then
  return {0, tostring(nextTat - window - now)}
end
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now))
return {1, tostring(nextTat - now)}
`;
const GCRA_AHEAD = `
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + tonumber(now[2]) / 1000
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then return '0' end
return tostring(tat - now)
`;

type GcraRedis = Redis & {
  tesseraGcraTake(key: string, intervalMs: number, windowMs: number): Promise<[number, string]>;
  tesseraGcraAhead(key: string): Promise<string>;
};

async function redisCells(url: string, prefix: string, log: (message: string) => void): Promise<Cells> {
  const KEY_PREFIX = `${prefix}rate:`;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 }) as GcraRedis;
  redis.on("error", (err: Error) => log(`rate limit store (redis): ${err.message}`));
  redis.defineCommand("tesseraGcraTake", { numberOfKeys: 1, lua: GCRA_TAKE });
  redis.defineCommand("tesseraGcraAhead", { numberOfKeys: 1, lua: GCRA_AHEAD });
  await redis.connect();
  return {
    async take(key, intervalMs, windowMs) {
      const [allowed, ms] = await redis.tesseraGcraTake(KEY_PREFIX + key, intervalMs, windowMs);
      return allowed === 1
        ? { allowed: true, used: Number(ms), wait: 0 }
        : { allowed: false, used: 0, wait: Number(ms) };
    },
    async ahead(key) {
      return Number(await redis.tesseraGcraAhead(KEY_PREFIX + key));
    },
    async close() {
      await redis.quit().catch(() => undefined);
    },
  };
}

type StoreResult = { current: number; ttl: number };
type StoreCallback = (error: Error | null, result?: StoreResult) => void;

/**
 * The library's store interface over cells: `current` is how many requests the key has in hand
 * (max + 1 when refused), `ttl` the time until the next request is allowed (refused) or until the key
 * is idle again (allowed).
 */
function storeOver(cells: Cells) {
  return class CellStore implements FastifyRateLimitStore {
    constructor(_options?: FastifyRateLimitOptions) {}

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      if (max <= 0) return callback(null, { current: 1, ttl: timeWindow });
      const interval = timeWindow / max;
      cells.take(key, interval, timeWindow).then(
        (r) =>
          callback(
            null,
            r.allowed
              ? { current: Math.ceil(r.used / interval - EPSILON), ttl: Math.ceil(r.used) }
              : { current: max + 1, ttl: Math.ceil(r.wait) },
          ),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    /** Without taking (`{ increment: false }`): current ≥ max means the next request would be refused. */
    read(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
      if (max <= 0) return callback(null, { current: 1, ttl: timeWindow });
      const interval = timeWindow / max;
      cells.ahead(key).then(
        (ahead) =>
          callback(null, {
            current: Math.ceil(ahead / interval - EPSILON),
            ttl: Math.max(0, Math.ceil(ahead + interval - timeWindow)),
          }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(): FastifyRateLimitStore {
      return new CellStore();
    }
  };
}

/**
 * Registers @fastify/rate-limit in this (encapsulated) plugin, with no limit on its routes until one is
 * asked for (`config.rateLimit` on a route, `app.rateLimit(...)` as a hook, `app.createRateLimit(...)`
 * to check by hand). With a Redis URL the plugin opens its own connection, closed with the app.
 */
export async function useRateLimit(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  const log = deps.log ?? ((m: string) => app.log.error(m));
  const cells = deps.redisUrl
    ? await redisCells(deps.redisUrl, deps.redisPrefix ?? "tessera:", log)
    : memoryCells(deps.clock);
  app.addHook("onClose", () => cells.close());
  await app.register(fastifyRateLimit, {
    global: false,
    store: storeOver(cells),
    // A store that cannot be reached lets requests through (and is logged) rather than refusing all.
    skipOnError: true,
    addHeadersOnExceeding: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false },
  });
}

export type LimitCheck = ReturnType<FastifyInstance["createRateLimit"]>;

/**
 * A limit on failures (wrong passwords, wrong codes): `blocked` tells, without counting, how many
 * seconds the caller must wait before trying again (0: it may try); `fail` counts one failure.
 * Checking before and counting after lets successes through however many there are.
 */
export interface FailureLimit {
  blocked(req: FastifyRequest): Promise<number>;
  fail(req: FastifyRequest): Promise<void>;
}

export function failureLimit(
  app: FastifyInstance,
  options: { name: string; max: number; timeWindowMs: number; key: (req: FastifyRequest) => string },
): FailureLimit {
  const check = app.createRateLimit({
    max: options.max,
    timeWindow: options.timeWindowMs,
    keyGenerator: (req) => `${options.name}:${options.key(req)}`,
    skipOnError: true,
  });
  return {
    async blocked(req) {
      const r = await check(req, { increment: false });
      return !r.isAllowed && r.remaining === 0 ? Math.max(1, r.ttlInSeconds) : 0;
    },
    async fail(req) {
      await check(req);
    },
  };
}

/**
 * A credential check (a password, a verification code, a card password) behind a failure limit: refused
 * with `refusal(seconds)` while the caller has too many recent failures, and counted when it fails with
 * an error `isFailure` recognises. Used by the merchant login and codes (accounts), the customer login
 * and the card checks (onecard), so every guessable secret has the same per-address limit.
 */
export async function limitedCheck<T>(
  req: FastifyRequest,
  limit: FailureLimit,
  isFailure: (err: unknown) => boolean,
  refusal: (seconds: number) => Error,
  check: () => Promise<T>,
): Promise<T> {
  const wait = await limit.blocked(req);
  if (wait > 0) throw refusal(wait);
  try {
    return await check();
  } catch (err) {
    if (isFailure(err)) await limit.fail(req);
    throw err;
  }
}

/** The caller's address as the library keys it (IPv6 by its /64 network, IPv4-mapped as IPv4). */
export function addressOf(req: FastifyRequest): string {
  return normalizeIP(req.ip);
}
