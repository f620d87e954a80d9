import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { LOGIN_FAILURES_PER_ADDRESS } from "./rate-limit";

/**
 * The token endpoint is throttled per user name and per client address (issue 24: 30 wrong passwords,
 * then the right one worked): after 3 failed grants for a name the next attempt waits, even with the
 * right password, in the IM error shape.
 */
let im: ImTest;
beforeAll(async () => {
  // Clients behind a proxy on loopback (inject's peer): their addresses come from X-Forwarded-For.
  im = await startImTest({ TRUST_PROXY: "loopback" });
});
afterAll(async () => {
  await im?.close();
});

const grant = (username: string, password: string, address: string) =>
  im.call("POST", "token", {
    body: { grant_type: "password", username, password },
    headers: { "x-forwarded-for": address },
  });

describe("password grant throttle", () => {
  it("per user name: 429 from the 4th attempt after 3 failures, one more try every 5 minutes", async () => {
    const u = await im.user("thr");
    for (let i = 0; i < 3; i++) {
      expect((await grant(u.name, "wrong", "203.0.113.1")).body.error_description).toBe("invalid password");
    }
    const refused = await grant(u.name.toUpperCase(), "pw-secret-1", "203.0.113.2");
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "too_many_requests",
      error_description: "too many failed logins, please try again in 300 seconds",
    });
    im.t.clock.advance(299);
    expect((await grant(u.name, "pw-secret-1", "203.0.113.2")).status).toBe(429);
    im.t.clock.advance(1);
    expect((await grant(u.name, "pw-secret-1", "203.0.113.2")).status).toBe(200);
    // Other users are not affected.
    const other = await im.user("thr");
    expect((await grant(other.name, "pw-secret-1", "203.0.113.1")).status).toBe(200);
  });

  it("unknown names count too, so probing learns nothing", async () => {
    for (let i = 0; i < 3; i++) expect((await grant("nobody_x1", "x", "203.0.113.3")).status).toBe(404);
    expect((await grant("nobody_x1", "x", "203.0.113.4")).status).toBe(429);
  });

  it("per address: after 30 failures over many names, the address waits; another address does not", async () => {
    const u = await im.user("addr");
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      expect((await grant(`ghost_${i}`, "x", "198.51.100.7")).status).toBe(404);
    }
    const refused = await grant(u.name, "pw-secret-1", "198.51.100.7");
    expect(refused.status).toBe(429);
    expect(refused.body.error_description).toBe("too many failed logins, please try again in 30 seconds");
    expect((await grant(u.name, "pw-secret-1", "198.51.100.8")).status).toBe(200);
    // Wrong client secrets count for the address as well.
    const client = await im.call("POST", "token", {
      body: { grant_type: "client_credentials", client_id: "x", client_secret: "y" },
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    expect(client.status).toBe(429);
  });

  it("successful grants are never limited", async () => {
    const u = await im.user("many");
    for (let i = 0; i < 40; i++) expect((await grant(u.name, "pw-secret-1", "192.0.2.1")).status).toBe(200);
  });
});
