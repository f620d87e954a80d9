import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../clock";
import { hit, limitedApp } from "./rate-limit.test-support";

/** The limiter's Redis store shared by two apps (runs with TEST_REDIS_URL, in the scale-out tier). */
describe("in Redis, shared by two apps", () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    const url = process.env.TEST_REDIS_URL;
    const prefix = randomUUID();
    // One request every 15 s of Redis time: the test runs well inside one interval.
    ({ app: a } = await limitedApp(url, new ManualClock(), prefix, 60_000));
    ({ app: b } = await limitedApp(url, new ManualClock(), prefix, 60_000));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("a burst taken half on one app and half on the other is refused on both", async () => {
    const user = randomUUID();
    for (const app of [a, b, a, b]) expect((await hit(app, user)).statusCode).toBe(200);
    expect((await hit(a, user)).statusCode).toBe(429);
    expect((await hit(b, user)).statusCode).toBe(429);
    expect((await hit(b, randomUUID())).statusCode).toBe(200);
  });
});
