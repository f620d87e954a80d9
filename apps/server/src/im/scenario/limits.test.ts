import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startScenario, type Scenario } from "./setup";

/** The per-user REST rate limit (IM_RATE_LIMIT_PER_SECOND): 429 that the client reports as max limit. */
let s: Scenario;
beforeAll(async () => {
  s = await startScenario({ IM_RATE_LIMIT_PER_SECOND: "2" });
});
afterAll(async () => {
  await s?.close();
});

describe("rate limit", () => {
  test("a user bursts up to twice the rate, then gets 429 'maximum limit' (the client's max limit) until time passes", async () => {
    const alice = await s.client("alice");
    // The login itself is not limited; the bucket holds two seconds' worth (4 calls at 2 per second).
    for (let i = 0; i < 4; i++) expect((await alice.call<{ type: number }>("getContacts")).type).toBe(0);
    const refused = await alice.fail("getContacts");
    expect(refused.type).toBe(s.code.MAX_LIMIT);
    const raw = await s.im.call("GET", `users/${alice.name}/contacts/users`, { token: alice.conn.token });
    expect(raw.status).toBe(429);
    expect(raw.body).toMatchObject({
      error: "too_many_requests",
      error_description: "The request has reached the maximum limit of 2 per second",
    });

    // Another user has its own bucket; the app token (the back-office server) is not limited.
    const bob = await s.client("bob");
    expect((await bob.call<{ type: number }>("getContacts")).type).toBe(0);
    for (let i = 0; i < 6; i++) {
      expect((await s.im.call("GET", `users/${alice.name}/contacts/users`, { token: s.im.appToken })).status).toBe(200);
    }

    s.im.t.clock.advance(1);
    expect((await alice.call<{ type: number }>("getContacts")).type).toBe(0);
    expect((await alice.call<{ type: number }>("getContacts")).type).toBe(0);
    expect((await alice.fail("getContacts")).type).toBe(s.code.MAX_LIMIT);
  });
});
