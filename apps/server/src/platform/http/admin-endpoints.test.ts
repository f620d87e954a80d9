import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { loadConfig } from "../../config";

/**
 * Admin-only endpoints (issue 38, item 5): /metrics and /backup/database answer a direct loopback request
 * or their bearer token (METRICS_TOKEN, BACKUP_TOKEN); any proxy header makes a loopback request a
 * proxied one. /api/dev/* exists only with DEV_ROUTES=true.
 */

const PROXY_HEADERS: Record<string, string>[] = [
  { "x-forwarded-for": "203.0.113.9" },
  { "x-real-ip": "203.0.113.9" },
  { forwarded: "for=203.0.113.9;proto=https" },
  { "x-forwarded-host": "tessera.example.com" },
  { "x-forwarded-proto": "https" },
  { via: "1.1 nginx" },
  { "true-client-ip": "203.0.113.9" },
];

describe("admin endpoints", () => {
  const t = useTestApp({ METRICS_TOKEN: "scrape-secret", BACKUP_TOKEN: "backup-secret" });

  it("refuse a loopback request that carries any proxy header", async () => {
    for (const headers of PROXY_HEADERS) {
      const name = Object.keys(headers)[0];
      expect((await t.app.inject({ method: "GET", url: "/metrics", headers })).statusCode, `metrics ${name}`).toBe(403);
      expect(
        (await t.app.inject({ method: "GET", url: "/backup/database", headers })).statusCode,
        `backup ${name}`,
      ).toBe(403);
      // The dev outbox then wants an operator's session, like any outside request.
      expect(
        (await t.app.inject({ method: "GET", url: "/api/dev/outbox", headers })).statusCode,
        `outbox ${name}`,
      ).toBe(401);
    }
  });

  it("answer a direct loopback request, IPv4-mapped included", async () => {
    for (const remoteAddress of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2"]) {
      expect((await t.app.inject({ method: "GET", url: "/metrics", remoteAddress })).statusCode, remoteAddress).toBe(
        200,
      );
      expect(
        (await t.app.inject({ method: "GET", url: "/api/dev/outbox", remoteAddress })).statusCode,
        remoteAddress,
      ).toBe(200);
    }
  });

  it("answer others only with the right bearer token, each endpoint its own", async () => {
    const from = { remoteAddress: "10.0.0.7" };
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/metrics",
          ...from,
          headers: { authorization: "Bearer scrape-secret" },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/metrics",
          ...from,
          headers: { authorization: "Bearer backup-secret" },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/backup/database",
          ...from,
          headers: { authorization: "Bearer scrape-secret" },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/backup/database",
          ...from,
          headers: { authorization: "backup-secret" },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/backup/database", ...from })).statusCode).toBe(403);
    // Through a proxy with the token: allowed (the token is the credential); 409 on a PostgreSQL server.
    const withToken = await t.app.inject({
      method: "GET",
      url: "/backup/database",
      ...from,
      headers: { authorization: "Bearer backup-secret", "x-forwarded-for": "203.0.113.9" },
    });
    expect(withToken.statusCode).toBe(t.ctx.database.kind === "postgres" ? 409 : 200);
  });
});

describe("DEV_ROUTES", () => {
  const t = useTestApp({ DEV_ROUTES: "false" });

  it("off: /api/dev/* does not exist even for loopback, and the web app is not told of a mailbox", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/dev/outbox" })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/dev/purchaseOrders/1/backdate", payload: { days: 1 } }))
        .statusCode,
    ).toBe(404);
    const config = await t.call<{ devOutbox: boolean }>("GET", "/api/card-user/common/config");
    expect(config.body.data.devOutbox).toBe(false);
  });

  it("is off unless set, and cannot be set beside real mail", () => {
    expect(loadConfig({}).devRoutes).toBe(false);
    expect(loadConfig({ DEV_ROUTES: "true" }).devRoutes).toBe(true);
    expect(() => loadConfig({ DEV_ROUTES: "yes" })).toThrow("DEV_ROUTES must be one of true, false");
    expect(() => loadConfig({ DEV_ROUTES: "true", MAIL_ADAPTER: "smtp", SMTP_URL: "smtp://127.0.0.1:25" })).toThrow(
      /DEV_ROUTES=true .* MAIL_ADAPTER=smtp/,
    );
  });
});
