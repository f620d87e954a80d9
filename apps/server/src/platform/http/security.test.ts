import { describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { authorisedSender } from "../../../test/money";
import { CHECK_MAX } from "../../modules/transfers";

/** Issue 24 items 8, 10, 11: security headers and no-store, the dev outbox's audience, recipient lookups throttled. */
const t = useTestApp();

describe("security headers", () => {
  it("sends a CSP the web app runs under, frame and sniffing protection and a referrer policy on every reply", async () => {
    for (const url of ["/api/card-user/common/config", "/api/card-user/userInfo", "/api/docs", "/", "/healthz"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { host: "tessera.example:8080" } });
      const csp = String(res.headers["content-security-policy"]);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("connect-src 'self' ws://tessera.example:8080 wss://tessera.example:8080");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain("upgrade-insecure-requests");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
    const odd = await t.app.inject({ method: "GET", url: "/healthz", headers: { host: "evil; script-src *" } });
    expect(String(odd.headers["content-security-policy"])).not.toContain("evil");
  });

  it("marks back-office replies no-store, and leaves the public config and the docs cacheable", async () => {
    const m = await registerMerchant(t);
    const info = await t.call("GET", "/api/card-user/userInfo", { token: m.token });
    expect(info.headers["cache-control"]).toBe("no-store");
    const refused = await t.call("GET", "/api/card-user/userInfo");
    expect(refused.headers["cache-control"]).toBe("no-store");
    const config = await t.call("GET", "/api/card-user/common/config");
    expect(config.headers["cache-control"]).toBeUndefined();
    const docs = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(docs.headers["cache-control"]).toBeUndefined();
  });

  it("marks IM REST replies no-store too, answers and refusals alike", async () => {
    const { org, app } = t.config.im;
    const refused = await t.app.inject({ method: "GET", url: `/${org}/${app}/users/someone/contacts/users` });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["cache-control"]).toBe("no-store");
    const grant = await t.app.inject({
      method: "POST",
      url: `/${org}/${app}/token`,
      payload: { grant_type: "password", username: "nobody", password: "wrong" },
    });
    expect(grant.statusCode).toBeGreaterThanOrEqual(400);
    expect(grant.headers["cache-control"]).toBe("no-store");
  });

  it("counts CSP violation reports", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/csp-report",
      headers: { "content-type": "application/csp-report" },
      payload: JSON.stringify({
        "csp-report": {
          "document-uri": "http://x/",
          "violated-directive": "img-src",
          "effective-directive": "img-src",
          "blocked-uri": "https://elsewhere/",
        },
      }),
    });
    expect(res.statusCode).toBe(204);
    const metrics = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(/tessera_csp_violations_total\{directive="img-src"\} [1-9]/);
  });
});

describe("dev outbox", () => {
  it("is served to loopback without a proxy, or to a signed-in operator, and to nobody else", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/dev/outbox" })).statusCode).toBe(200);
    const outside = await t.app.inject({ method: "GET", url: "/api/dev/outbox", remoteAddress: "203.0.113.7" });
    expect(outside.statusCode).toBe(401);
    expect(outside.json()).toMatchObject({ code: 401 });
    const proxied = await t.app.inject({
      method: "GET",
      url: "/api/dev/outbox/export",
      headers: { "x-forwarded-for": "203.0.113.7" },
    });
    expect(proxied.statusCode).toBe(401);
    const merchant = await registerMerchant(t);
    const asMerchant = await t.app.inject({
      method: "GET",
      url: "/api/dev/outbox",
      remoteAddress: "203.0.113.7",
      headers: { "x-auth-token": merchant.token },
    });
    expect(asMerchant.statusCode).toBe(403);
    const asOperator = await t.app.inject({
      method: "GET",
      url: "/api/dev/outbox",
      remoteAddress: "203.0.113.7",
      headers: { "x-auth-token": (await registerOperator(t)).token },
    });
    expect(asOperator.statusCode).toBe(200);
  });
});

describe("transfer recipient check", () => {
  it("is throttled per merchant", async () => {
    const sender = await authorisedSender(t, { authorise: false });
    const other = await registerMerchant(t);
    const check = () =>
      t.call("GET", `/api/card-brander/transfer/check?toMerchantId=${other.merchantId}`, {
        token: sender.token,
        lang: "en",
      });
    for (let i = 0; i < CHECK_MAX; i++) expect((await check()).body.code, `check ${i + 1}`).toBe(1);
    const refused = await check();
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe("Too many requests");
    // Another merchant has its own allowance.
    const second = await authorisedSender(t, { authorise: false });
    expect(
      (
        await t.call("GET", `/api/card-brander/transfer/check?toMerchantId=${other.merchantId}`, {
          token: second.token,
        })
      ).body.code,
    ).toBe(1);
  });
});
