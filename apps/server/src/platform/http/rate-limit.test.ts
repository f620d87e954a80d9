import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../clock";
import type { FailureLimit } from "./rate-limit";
import { hit, limitedApp } from "./rate-limit.test-support";

describe("in memory, on the app clock", () => {
  const clock = new ManualClock();
  let app: FastifyInstance;
  let failures: FailureLimit;
  beforeAll(async () => {
    ({ app, failures } = await limitedApp(undefined, clock));
  });
  afterAll(async () => {
    await app.close();
  });

  it("lets a burst of max through, then one every timeWindow/max; keys are apart", async () => {
    for (let i = 0; i < 4; i++) expect((await hit(app, "a")).statusCode).toBe(200);
    const refused = await hit(app, "a");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("1");
    expect((await hit(app, "b")).statusCode).toBe(200);
    clock.advance(0.5);
    expect((await hit(app, "a")).statusCode).toBe(200);
    expect((await hit(app, "a")).statusCode).toBe(429);
    clock.advance(2);
    for (let i = 0; i < 4; i++) expect((await hit(app, "a")).statusCode).toBe(200);
    expect((await hit(app, "a")).statusCode).toBe(429);
  });

  it("failure limits: checking does not count; after max failures the wait is told in seconds", async () => {
    const req = { headers: { "x-user": "f" }, ip: "127.0.0.1", routeOptions: { config: {} } } as unknown as Parameters<
      FailureLimit["blocked"]
    >[0];
    for (let i = 0; i < 5; i++) expect(await failures.blocked(req)).toBe(0);
    for (let i = 0; i < 3; i++) await failures.fail(req);
    expect(await failures.blocked(req)).toBe(20);
    clock.advance(19);
    expect(await failures.blocked(req)).toBe(1);
    clock.advance(1);
    expect(await failures.blocked(req)).toBe(0);
    await failures.fail(req);
    expect(await failures.blocked(req)).toBe(20);
  });
});
