import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail, type TestApp } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { loadConfig } from "../../config";
import { canonicalString, sign } from "../../modules/openapi";
import { trustProxyOption } from "./app";

/**
 * TRUST_PROXY (issue 38, item 1): off by default, so a client's X-Forwarded-For (or X-Real-IP) changes
 * nothing: req.ip is the socket's peer for the open-API allowlist and every per-address limit.
 */

describe("TRUST_PROXY", () => {
  it("is off by default and takes true/false, a hop count, or proxy addresses and CIDRs", () => {
    const trust = (value?: string) => loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust("")).toBe(false);
    expect(trust("false")).toBe(false);
    expect(trust("0")).toBe(false);
    expect(trust("true")).toBe(true);
    expect(trust("2")).toBe(2);
    expect(trust("127.0.0.1, 10.0.0.0/8,fd00::/8")).toEqual(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
    expect(trust("loopback")).toEqual(["loopback"]);
    for (const bad of ["yes", "10.1", "proxy.example.com", "10.0.0.0/33", "127.0.0.1,,nope", "-1"]) {
      expect(() => trust(bad), bad).toThrow(/^TRUST_PROXY must be/);
    }
  });
});

describe("req.ip under each TRUST_PROXY form", () => {
  /** The address a bare Fastify app with the option sees for a request from `peer` with X-Forwarded-For `xff`. */
  async function ipSeen(trustProxy: string | undefined, peer: string, xff?: string): Promise<string> {
    const app = Fastify({
      trustProxy: trustProxyOption(loadConfig(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }).trustProxy),
    });
    app.get("/ip", (req) => ({ ip: req.ip }));
    try {
      const res = await app.inject({
        method: "GET",
        url: "/ip",
        remoteAddress: peer,
        ...(xff !== undefined && { headers: { "x-forwarded-for": xff } }),
      });
      return res.json<{ ip: string }>().ip;
    } finally {
      await app.close();
    }
  }

  it("takes the address the trusted hops report, and the peer's otherwise", async () => {
    expect(await ipSeen(undefined, "198.51.100.1", "203.0.113.7")).toBe("198.51.100.1");
    expect(await ipSeen("1", "10.0.0.5", "203.0.113.7, 192.0.2.44")).toBe("192.0.2.44");
    expect(await ipSeen("2", "10.0.0.5", "203.0.113.7, 192.0.2.44")).toBe("203.0.113.7");
    expect(await ipSeen("10.0.0.0/8", "10.0.0.5", "203.0.113.7, 192.0.2.44")).toBe("192.0.2.44");
    expect(await ipSeen("10.0.0.0/8", "198.51.100.1", "203.0.113.7")).toBe("198.51.100.1");
    expect(await ipSeen("loopback", "127.0.0.1", "192.0.2.44")).toBe("192.0.2.44");
    expect(await ipSeen("true", "198.51.100.1", "203.0.113.7, 192.0.2.44")).toBe("203.0.113.7");
  });
});

interface Client {
  appKey: string;
  secret: string;
}

/** A verified purchaser whose API permission an operator opened, with its allowlist set to `ips`. */
async function apiClient(t: TestApp, ips: string): Promise<Client> {
  const ops = await registerOperator(t);
  const buyer = await registerMerchant(t, { orgName: "Proxy Test Ltd" });
  await t.ctx.database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "=", Number(buyer.merchantId))
    .execute();
  const applied = await t.call<{ request: { id: string } }>("POST", "/api/card-brander/api/apply", {
    token: buyer.token,
    body: { purpose: "Proxy test" },
  });
  await t.call("POST", `/api/ops/queues/apiPermission/items/${applied.body.data.request.id}/approve`, {
    token: ops.token,
  });
  expect((await t.call("POST", "/api/card-brander/api/ip", { token: buyer.token, body: { ips } })).body.code).toBe(1);
  return (
    await t.call<Client>("POST", "/api/card-brander/api/view", {
      token: buyer.token,
      body: { password: STRONG_PASSWORD },
    })
  ).body.data;
}

let nonce = 0;
/** A signed GET of the open API's balance from `remoteAddress` with extra headers. */
async function balance(t: TestApp, client: Client, remoteAddress: string, headers: Record<string, string> = {}) {
  const url = "/api/card-api/openapi/balance";
  const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
  const n = `proxy-${Date.now()}-${++nonce}`;
  const signature = sign(client.secret, canonicalString("GET", url, timestamp, n, ""));
  const res = await t.app.inject({
    method: "GET",
    url,
    remoteAddress,
    headers: {
      "x-app-key": client.appKey,
      "x-timestamp": timestamp,
      "x-nonce": n,
      "x-signature": signature,
      lang: "en",
      ...headers,
    },
  });
  return { status: res.statusCode, msg: res.json<{ msg: string }>().msg };
}

describe("with TRUST_PROXY off (the default)", () => {
  const t = useTestApp();

  it("the open-API allowlist refuses a call from 127.0.0.1 that names an allowed address in X-Forwarded-For or X-Real-IP", async () => {
    const client = await apiClient(t, "203.0.113.7");
    const spoofs: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.7" },
      { "x-real-ip": "203.0.113.7" },
      { forwarded: "for=203.0.113.7" },
    ];
    for (const headers of spoofs) {
      expect(await balance(t, client, "127.0.0.1", headers), JSON.stringify(headers)).toEqual({
        status: 403,
        msg: "The request IP is not on the allowlist",
      });
    }
    // The allowed address itself is accepted: the refusal above was the address, nothing else.
    expect((await balance(t, client, "203.0.113.7")).status).toBe(200);
  });

  it("the public card check's per-address limit triggers however many addresses X-Forwarded-For names", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/card-public/onecard/balance",
        remoteAddress: "198.51.100.20",
        headers: { "x-forwarded-for": `192.0.2.${i + 1}`, lang: "en" },
        payload: { cardNo: "6200000000000000", password: "WRONG" },
      });
      statuses.push(res.statusCode);
    }
    // 20 failed checks per address in 10 minutes, then refused (429), as if no header had been sent.
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it("the merchant login's per-address failure limit triggers however many addresses X-Forwarded-For names", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/card-user/login",
        remoteAddress: "198.51.100.30",
        headers: { "x-forwarded-for": `192.0.2.${i + 1}`, "x-real-ip": `192.0.2.${i + 1}` },
        payload: { email: uniqueEmail("nobody"), password: "Wrong#Pass2026", version: "domestic" },
      });
      statuses.push(res.statusCode);
    }
    // 30 wrong logins per address in 15 minutes (accounts/service.ts ADDRESS_FAILURES), then 429.
    expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });
});

describe("with TRUST_PROXY naming the proxy", () => {
  const t = useTestApp({ TRUST_PROXY: "127.0.0.1" });

  it("believes X-Forwarded-For from the proxy's address only", async () => {
    const client = await apiClient(t, "203.0.113.7");
    expect((await balance(t, client, "127.0.0.1", { "x-forwarded-for": "203.0.113.7" })).status).toBe(200);
    // A client that prepends its own entry gets the address the proxy appended, not its choice.
    expect((await balance(t, client, "127.0.0.1", { "x-forwarded-for": "203.0.113.7, 198.51.100.1" })).status).toBe(
      403,
    );
    // Anyone else's header is not believed.
    expect((await balance(t, client, "198.51.100.9", { "x-forwarded-for": "203.0.113.7" })).status).toBe(403);
  });
});
