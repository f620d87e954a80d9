import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerMerchant, startTestApp, STRONG_PASSWORD, type TestApp } from "../../../test/harness";
import { registerOperator } from "../../../test/operators";
import { ApiCredentialsService } from "./api-credentials";
import { form } from "./test-support";

let t: TestApp;
let ops: { token: string; userId: number };
let client: ApiCredentialsService;
beforeAll(async () => {
  t = await startTestApp();
  ops = await registerOperator(t);
  // The open API's view of the credentials (same database and key as the server).
  client = new ApiCredentialsService({ db: t.ctx.database.db, clock: t.clock, secret: t.ctx.secret, checkPassword: () => Promise.resolve(false) });
});
afterAll(async () => {
  await t.close();
});

type ApiInfo = { permission: string; request: { id: string; state: string } | null; appKey: string | null; hasSecret: boolean; ipAllowlist: string[]; callbackUrl: string | null };

async function verified(orgName?: string) {
  const m = await registerMerchant(t, orgName ? { orgName } : {});
  await t.ctx.database.db.updateTable("merchants").set({ real_name_state: "verified" }).where("id", "=", Number(m.merchantId)).execute();
  return m;
}

/** A merchant whose API permission an operator has opened through the queue. */
async function opened() {
  const m = await verified();
  const applied = await t.call<ApiInfo>("POST", "/api/card-brander/api/apply", { token: m.token, body: { purpose: "Direct top-up by API" } });
  const id = applied.body.data.request?.id ?? "";
  expect((await t.call("POST", `/api/ops/queues/apiPermission/items/${id}/approve`, { token: ops.token })).body.code).toBe(1);
  return m;
}

describe("API permission", () => {
  it("needs real-name first; then a request waits for an operator, who opens it and a key is issued", async () => {
    const m = await registerMerchant(t);
    const early = await t.call("POST", "/api/card-brander/api/apply", { token: m.token, lang: "en", body: { purpose: "x" } });
    expect(early.status).toBe(403);
    expect(early.body.msg).toBe("Complete real-name verification before requesting API permission");

    const v = await verified();
    const applied = await t.call<ApiInfo>("POST", "/api/card-brander/api/apply", { token: v.token, body: { purpose: "Direct top-up by API" } });
    expect(applied.body.data).toMatchObject({ permission: "not_opened", request: { state: "pending" }, appKey: null, hasSecret: false });
    expect((await t.call("POST", "/api/card-brander/api/apply", { token: v.token, body: { purpose: "again" } })).status).toBe(409);

    const queue = await t.call<{ list: { id: string; merchantId: string }[] }>("GET", `/api/ops/queues/apiPermission/items?state=pending&merchantId=${v.merchantId}`, { token: ops.token });
    expect(queue.body.data.list.map((i) => i.merchantId)).toEqual([v.merchantId]);
    await t.call("POST", `/api/ops/queues/apiPermission/items/${queue.body.data.list[0]?.id ?? ""}/approve`, { token: ops.token });

    const info = await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: v.token });
    expect(info.body.data).toMatchObject({ permission: "opened", request: { state: "approved" }, hasSecret: true });
    expect(info.body.data.appKey).toMatch(/^tk[0-9a-f]{20}$/);
    // The secret itself is listed nowhere.
    expect(JSON.stringify(info.body)).not.toMatch(/secret"\s*:\s*"/);
  });

  it("a rejected request keeps the permission closed", async () => {
    const v = await verified();
    const applied = await t.call<ApiInfo>("POST", "/api/card-brander/api/apply", { token: v.token, body: { purpose: "p" } });
    await t.call("POST", `/api/ops/queues/apiPermission/items/${applied.body.data.request?.id ?? ""}/reject`, { token: ops.token, body: { reason: "No business case" } });
    const info = await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: v.token });
    expect(info.body.data).toMatchObject({ permission: "not_opened", request: { state: "rejected" }, appKey: null });
    expect((await t.call("POST", "/api/card-brander/api/view", { token: v.token, body: { password: STRONG_PASSWORD } })).status).toBe(403);
  });
});

describe("secret, allowlist and callback", () => {
  it("shows the secret only with the password; a reset revokes the old one", async () => {
    const m = await opened();
    const wrong = await t.call("POST", "/api/card-brander/api/view", { token: m.token, lang: "en", ...form({ password: "Wrong#2026" }) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe("The login password is wrong");

    const view = await t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/view", { token: m.token, ...form({ password: STRONG_PASSWORD }) });
    expect(view.body.code).toBe(1);
    const { appKey, secret } = view.body.data;
    expect(await client.authenticateClient(appKey, secret, "203.0.113.9")).toBe(Number(m.merchantId));

    const reset = await t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/reset", { token: m.token, ...form({ password: STRONG_PASSWORD }) });
    expect(reset.body.data.appKey).toBe(appKey);
    expect(reset.body.data.secret).not.toBe(secret);
    expect(await client.authenticateClient(appKey, secret, "203.0.113.9")).toBeNull();
    expect(await client.authenticateClient(appKey, reset.body.data.secret, "203.0.113.9")).toBe(Number(m.merchantId));
  });

  it("keeps the IP allowlist and callback URL (form), refusing bad entries with no change", async () => {
    const m = await opened();
    const bad = await t.call("POST", "/api/card-brander/api/ip", { token: m.token, lang: "en", ...form({ ips: "203.0.113.9\n300.1.1.1", callbackUrl: "" }) });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Invalid IP allowlist entry: 300.1.1.1 (one IPv4 or IPv6 address per line, at most 20)");
    const badUrl = await t.call("POST", "/api/card-brander/api/ip", { token: m.token, ...form({ ips: "", callbackUrl: "ftp://x" }) });
    expect(badUrl.status).toBe(400);
    expect((await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: m.token })).body.data.ipAllowlist).toEqual([]);

    const ok = await t.call<ApiInfo>("POST", "/api/card-brander/api/ip", {
      token: m.token,
      ...form({ ips: "203.0.113.9\n2001:db8::1, 203.0.113.9", callbackUrl: "https://shop.example/notify" }),
    });
    expect(ok.body.data).toMatchObject({ ipAllowlist: ["203.0.113.9", "2001:db8::1"], callbackUrl: "https://shop.example/notify" });

    const view = await t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/view", { token: m.token, body: { password: STRONG_PASSWORD } });
    expect(await client.authenticateClient(view.body.data.appKey, view.body.data.secret, "203.0.113.9")).toBe(Number(m.merchantId));
    expect(await client.authenticateClient(view.body.data.appKey, view.body.data.secret, "198.51.100.1")).toBeNull();
  });

  it("another merchant's token reaches only its own (closed) API settings", async () => {
    const a = await opened();
    const b = await registerMerchant(t);
    const aBefore = await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: a.token });
    const bInfo = await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: b.token });
    expect(bInfo.body.data).toMatchObject({ permission: "not_opened", appKey: null });
    for (const path of ["/api/card-brander/api/view", "/api/card-brander/api/reset"]) {
      expect((await t.call("POST", path, { token: b.token, body: { password: STRONG_PASSWORD } })).status).toBe(403);
    }
    expect((await t.call("POST", "/api/card-brander/api/ip", { token: b.token, body: { ips: "198.51.100.1" } })).status).toBe(403);
    expect((await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: a.token })).body.data).toEqual(aBefore.body.data);
  });
});
