import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import type { ManualClock } from "../clock";
import { failureLimit, useRateLimit, type FailureLimit } from "./rate-limit";

/**
 * The limiter's store behind @fastify/rate-limit: `max` in `timeWindow` is one request every
 * timeWindow/max with bursts of `max`, on the app clock in memory and on Redis's clock with REDIS_URL.
 */
export async function limitedApp(
  redisUrl: string | undefined,
  clock: ManualClock,
  prefix = randomUUID(),
  timeWindow = 2000,
): Promise<{ app: FastifyInstance; failures: FailureLimit }> {
  const app = Fastify();
  let failures: FailureLimit | undefined;
  await app.register(async (scoped) => {
    await useRateLimit(scoped, { redisUrl, clock });
    scoped.get(
      "/hit",
      {
        config: {
          rateLimit: { max: 4, timeWindow, keyGenerator: (req) => `${prefix}:${String(req.headers["x-user"])}` },
        },
      },
      () => Promise.resolve({ ok: true }),
    );
    failures = failureLimit(scoped, {
      name: `${prefix}:fail`,
      max: 3,
      timeWindowMs: 60_000,
      key: (req) => String(req.headers["x-user"]),
    });
  });
  await app.ready();
  if (!failures) throw new Error("not registered");
  return { app, failures };
}

export const hit = (app: FastifyInstance, user: string) =>
  app.inject({ method: "GET", url: "/hit", headers: { "x-user": user } });
