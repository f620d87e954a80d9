import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { ADDRESS_FAILURES } from "../../modules/accounts/service";

/**
 * Limits hold across server processes (REDIS_URL): two app instances sharing PostgreSQL and Redis, each
 * with its own Redis connection. A user over the IM rate limit on one instance is limited on the other,
 * and failed credentials counted on one count on the other. Runs in the PostgreSQL project with
 * TEST_REDIS_URL set.
 */
const redisUrl = process.env.TEST_REDIS_URL;
/** A fresh client address per run: the counts live in Redis, beyond one test run. */
const address = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

describe("limits across instances through Redis", () => {
  let a: ImTest;
  let b: ImTest;
  beforeAll(async () => {
    // One request a second, bursts of two: the test stays well inside one second of Redis time.
    // TRUST_PROXY: both nodes behind a proxy on loopback, which names each client in X-Forwarded-For.
    const env = {
      REDIS_URL: redisUrl ?? "",
      SECRET_KEY: randomBytes(32).toString("hex"),
      IM_RATE_LIMIT_PER_SECOND: "1",
      TRUST_PROXY: "loopback",
    };
    a = await startImTest(env);
    b = await startImTest(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  test("a user over the IM rate limit on one instance is limited on the other", async () => {
    const alice = await a.user("alice");
    const contacts = (im: ImTest) => im.call("GET", `users/${alice.name}/contacts/users`, { token: alice.token });
    expect((await contacts(a)).status).toBe(200);
    expect((await contacts(a)).status).toBe(200);
    const refused = await contacts(b);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "too_many_requests",
      error_description: "The request has reached the maximum limit of 1 per second",
    });
    expect((await contacts(a)).status).toBe(429);

    // The other way round, and other users keep their own buckets.
    const bob = await b.user("bob");
    const bobs = (im: ImTest) => im.call("GET", `users/${bob.name}/contacts/users`, { token: bob.token });
    expect((await bobs(b)).status).toBe(200);
    expect((await bobs(a)).status).toBe(200);
    expect((await bobs(b)).status).toBe(429);
    // The app token (the back-office server) is not limited on either.
    for (const im of [a, b, a, b]) {
      expect((await im.call("GET", `users/${alice.name}/contacts/users`, { token: im.appToken })).status).toBe(200);
    }
  });

  test("failed IM password grants counted on one instance refuse the next on the other", async () => {
    const carol = await a.user("carol");
    const grant = (im: ImTest, password: string) =>
      im.call("POST", "token", {
        body: { grant_type: "password", username: carol.name, password },
        headers: { "x-forwarded-for": address() },
      });
    expect((await grant(a, "wrong")).status).toBe(400);
    expect((await grant(b, "wrong")).status).toBe(400);
    expect((await grant(a, "wrong")).status).toBe(400);
    const refused = await grant(b, "pw-secret-1");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("too_many_requests");
  });

  test("back-office logins: failures from one address over both instances add up", async () => {
    const m = await registerMerchant(a.t);
    const from = address();
    const login = (im: ImTest, email: string, password: string) =>
      im.t.app.inject({
        method: "POST",
        url: "/api/card-user/login",
        headers: { "x-forwarded-for": from, lang: "en" },
        payload: { email, password },
      });
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      expect((await login(i % 2 === 0 ? a : b, uniqueEmail("ghost"), "Whatever#1")).json<{ code: number }>().code).toBe(
        1010,
      );
    }
    for (const im of [a, b]) {
      const refused = await login(im, m.email, STRONG_PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ msg: string }>().msg).toMatch(/^Too many failed logins, please try again in \d+ seconds$/);
    }
  });
});
