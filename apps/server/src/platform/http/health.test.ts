import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";

/** Liveness, readiness (and draining) and the Prometheus metrics of one node. */
const t = useTestApp({ METRICS_TOKEN: "scrape-secret" });

function metric(text: string, name: string, labels: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && labels.split(",").every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.split(" ").at(-1));
}

describe("metrics", () => {
  it("counts requests by route pattern and status, and errors by reply code", async () => {
    await t.call("GET", "/api/card-user/common/config");
    await t.call("GET", "/api/card-user/common/config");
    await t.call("GET", "/api/card-user/userInfo");
    const res = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    const text = res.body;
    expect(
      metric(text, "tessera_http_requests_total", 'route="/api/card-user/common/config",status="200"'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      metric(text, "tessera_http_requests_total", 'route="/api/card-user/userInfo",status="401"'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metric(text, "tessera_http_request_duration_seconds_count", 'route="/api/card-user/common/config"'),
    ).toBeGreaterThanOrEqual(2);
    expect(metric(text, "tessera_errors_total", 'code="')).toBeGreaterThanOrEqual(1);
    for (const name of [
      "tessera_process_cpu_seconds_total",
      "tessera_im_connections",
      "tessera_db_query_duration_seconds_count",
      "tessera_ledger_transactions",
      "tessera_im_sync_queue_depth",
      "tessera_db_pool_connections",
    ]) {
      expect(text).toContain(name);
    }
  });

  it("serves loopback, or others with the bearer token only", async () => {
    const outside = await t.app.inject({ method: "GET", url: "/metrics", remoteAddress: "10.1.2.3" });
    expect(outside.statusCode).toBe(403);
    const proxied = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(proxied.statusCode).toBe(403);
    const withToken = await t.app.inject({
      method: "GET",
      url: "/metrics",
      remoteAddress: "10.1.2.3",
      headers: { authorization: "Bearer scrape-secret" },
    });
    expect(withToken.statusCode).toBe(200);
    const wrongToken = await t.app.inject({
      method: "GET",
      url: "/metrics",
      remoteAddress: "10.1.2.3",
      headers: { authorization: "Bearer nope" },
    });
    expect(wrongToken.statusCode).toBe(403);
  });
});

describe("liveness and readiness", () => {
  it("is live and ready with the database reachable and migrated, and not ready once draining", async () => {
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready", checks: { database: "ok" } });

    // A node whose build has a migration the database has not applied (an older database) is not ready.
    const db = t.ctx.database.db;
    const { rows } = await sql<{
      version: number;
      name: string;
    }>`SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1`.execute(db);
    const newest = rows[0]!;
    await sql`DELETE FROM schema_migrations WHERE version = ${newest.version}`.execute(db);
    try {
      const unmigrated = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(unmigrated.statusCode).toBe(503);
      expect(unmigrated.json()).toEqual({ status: "not ready", checks: { database: "failing" } });
    } finally {
      await sql`INSERT INTO schema_migrations (version, name) VALUES (${newest.version}, ${newest.name})`.execute(db);
    }
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);

    t.app.health.addCheck("flaky", () => Promise.reject(new Error("down")));
    const failing = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toEqual({ status: "not ready", checks: { database: "ok", flaky: "failing" } });
    t.app.health.addCheck("flaky", () => Promise.resolve(true));

    t.app.health.startDrain();
    const draining = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ status: "draining" });
    // Still live, and still answering requests in flight while it drains.
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});
