import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { systemClock } from "../../platform/clock";
import { trustProxyOption } from "../../platform/http/app";
import { discoveryRoute } from "./discovery";

/**
 * GET /easemob/server.json behind a balancer (issue 44, item 5): every node names the balanced address the
 * clients use, never itself, so a client whose node goes down comes back through that address to another.
 * With IM_PUBLIC_URL, that address whatever the request says; without it, what a trusted proxy forwarded.
 * The route on a bare Fastify with the configuration a node reads; through `npm run cluster` with the
 * published client: apps/server/src/tools/drain.scaleout.test.ts.
 */
interface Discovery {
  rest: { hosts: Record<string, string>[] };
  "msync-wx": { hosts: Record<string, string>[] };
  error?: string;
}

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

/** A node's discovery route under `env`, asked from the proxy on loopback with `headers`. */
async function discover(env: Record<string, string>, headers: Record<string, string>) {
  const config = loadConfig(env);
  const app = Fastify({ trustProxy: trustProxyOption(config.trustProxy) });
  apps.push(app);
  await app.register(
    discoveryRoute({ appKey: `${config.im.org}#${config.im.app}`, config: config.im, clock: systemClock }),
  );
  const res = await app.inject({ method: "GET", url: "/easemob/server.json", remoteAddress: "127.0.0.1", headers });
  return { status: res.statusCode, body: res.json<Discovery>() };
}

describe("server.json behind a balancer", () => {
  it("names IM_PUBLIC_URL for REST and the websocket, whatever host the node was reached by", async () => {
    const env = { IM_PUBLIC_URL: "https://im.example.com/", TRUST_PROXY: "loopback" };
    const asked: Record<string, string>[] = [
      { host: "127.0.0.1:8081" },
      { host: "node-2:8082", "x-forwarded-host": "other.example.com", "x-forwarded-proto": "http" },
    ];
    for (const headers of asked) {
      const res = await discover(env, headers);
      expect(res.status).toBe(200);
      const expected = { protocol: "https", domain: "im.example.com", ip: "im.example.com", port: "443" };
      expect([res.body.rest.hosts, res.body["msync-wx"].hosts]).toEqual([[expected], [expected]]);
    }
  });

  it("without IM_PUBLIC_URL, names the host and scheme a trusted proxy forwarded, not the node's", async () => {
    const forwarded = { host: "10.0.0.7:8081", "x-forwarded-host": "chat.example.com", "x-forwarded-proto": "https" };
    const res = await discover({ TRUST_PROXY: "loopback" }, forwarded);
    expect(res.body["msync-wx"].hosts).toEqual([
      { protocol: "https", domain: "chat.example.com", ip: "chat.example.com", port: "443" },
    ]);
    // An untrusted peer's X-Forwarded-Host is not believed: the Host header is named.
    const untrusted = await discover({}, forwarded);
    expect(untrusted.body.rest.hosts).toEqual([{ protocol: "http", domain: "10.0.0.7", ip: "10.0.0.7", port: "8081" }]);
  });

  it("takes IM_PUBLIC_URL as scheme, host and port only, refusing at start what server.json cannot name", () => {
    expect(loadConfig({ IM_PUBLIC_URL: "HTTPS://IM.example.com:443/" }).im.publicUrl).toBe("https://im.example.com");
    expect(loadConfig({ IM_PUBLIC_URL: "http://127.0.0.1:8080" }).im.publicUrl).toBe("http://127.0.0.1:8080");
    for (const bad of [
      "im.example.com",
      "ftp://im.example.com",
      "https://im.example.com/chat",
      "https://x.example?a=1",
    ]) {
      expect(() => loadConfig({ IM_PUBLIC_URL: bad }), bad).toThrow(/^IM_PUBLIC_URL must be/);
    }
  });

  it("refuses a Host header that names no host", async () => {
    const res = await discover({}, { host: "not a host" });
    expect([res.status, res.body.error]).toEqual([400, "illegal_argument"]);
  });
});
