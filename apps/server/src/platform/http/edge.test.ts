import { isCalendarDate } from "@tessera/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { registerMerchant, type TestApp } from "../../../test/harness";
import { firstDirtyField } from "./edge";

/** The edge rules (edge.ts): the reproductions of issue 24 items 1-7, each a 4xx in the API's own shape. */
let im: ImTest;
let t: TestApp;
let merchant: { token: string };
let imUser: { name: string; token: string };
beforeAll(async () => {
  im = await startImTest();
  t = im.t;
  merchant = await registerMerchant(t);
  imUser = await im.user("edge");
});
afterAll(async () => {
  await im.close();
});

describe("text rule", () => {
  it("finds NUL bytes and lone surrogates in values and keys, at any depth, and passes pairs", () => {
    expect(firstDirtyField({ a: "ok", b: ["x", { c: "a\u0000b" }] }, "body")).toBe("b.1.c");
    expect(firstDirtyField({ announcement: "a\ud800b" }, "body")).toBe("announcement");
    expect(firstDirtyField({ "k\u0000": 1 }, "body")).toBe("?");
    expect(firstDirtyField({ emoji: "😀 中文", n: 1, z: null }, "body")).toBeUndefined();
    expect(firstDirtyField("\udc00", "body")).toBe("body");
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(firstDirtyField(deep, "body")).toMatch(/^0\.0\.0/);
  });

  it("refuses a NUL in a back-office query and body with the envelope naming the field, in the caller's language", async () => {
    const q = await t.call("GET", "/api/card-user/orders?orderNo=a%00b", { token: merchant.token, lang: "en" });
    expect(q.status).toBe(400);
    expect(q.body).toEqual({ code: 1001, data: { field: "orderNo" }, msg: "Invalid parameter: orderNo" });
    const b = await t.call("PUT", "/api/card-user/brandAuth/1", {
      token: merchant.token,
      body: { remark: "x\u0000" },
      lang: "cn",
    });
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ data: { field: "remark" }, msg: "参数错误：remark" });
    const s = await t.call("PUT", "/api/card-user/brandAuth/1", {
      token: merchant.token,
      body: '{"remark":"a\\ud800b"}',
      headers: { "content-type": "application/json" },
      lang: "en",
    });
    expect(s.status).toBe(400);
    expect(s.body.msg).toBe("Invalid parameter: remark");
  });

  it("refuses them on the IM paths in the IM error shape", async () => {
    const group = await im.call<{ data: { groupid: string } }>("POST", "chatgroups", {
      token: imUser.token,
      body: { groupname: "edge", desc: "d", public: true, maxusers: 10, owner: imUser.name },
    });
    expect(group.status).toBe(200);
    const id = group.body.data.groupid;
    const surrogate = await im.call("POST", `chatgroups/${id}/announcement`, {
      token: imUser.token,
      payload: Buffer.from('{"announcement":"a\\ud800b"}'),
      headers: { "content-type": "application/json" },
    });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body).toMatchObject({ error: "illegal_argument" });
    expect(surrogate.body.error_description).toContain("announcement");
    const nul = await im.call("PUT", `users/${imUser.name}`, { token: imUser.token, body: { nickname: "a\u0000" } });
    expect(nul.status).toBe(400);
    expect(nul.body.error_description).toContain("nickname");
  });
});

describe("bodies", () => {
  it("refuses a bare JSON value as the body (IM and back-office)", async () => {
    const r = await im.call("PUT", `users/${imUser.name}`, {
      token: imUser.token,
      payload: Buffer.from('"x"'),
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error_description).toContain("body");
    const b = await t.call("PUT", "/api/card-user/brandAuth/1", {
      token: merchant.token,
      body: "42",
      headers: { "content-type": "application/json" },
      lang: "en",
    });
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ code: 1001, msg: "Invalid parameter: body" });
  });

  it("refuses an update that changes nothing with a clear message", async () => {
    const r = await t.call("PUT", "/api/card-user/brandAuth/1", { token: merchant.token, body: {}, lang: "en" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 1001, msg: "Nothing to change: give at least one field" });
  });
});

describe("dates", () => {
  it("knows the calendar", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2025-12-31")).toBe(true);
    for (const bad of [
      "2026-02-30",
      "2025-02-29",
      "2025-13-01",
      "2025-00-10",
      "2025-04-31",
      "0000-01-01",
      "2025-1-01",
      "20250101",
    ]) {
      expect(isCalendarDate(bad), bad).toBe(false);
    }
  });

  it("refuses an impossible day in a date filter with a 400 naming it", async () => {
    const r = await t.call("GET", "/api/card-user/orders?from=2026-02-30", { token: merchant.token, lang: "en" });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 1001, data: { field: "from" }, msg: "Invalid parameter: from" });
  });
});

describe("router errors", () => {
  it("answers a malformed escape and an over-long parameter with the envelope, echoing nothing", async () => {
    const bad = await t.app.inject({ method: "GET", url: "/api/card-user/brandAuth/%zz", headers: { lang: "en" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 1001, data: { field: "path" }, msg: "Invalid parameter: path" });
    const long = "x".repeat(5000);
    const res = await t.app.inject({ method: "PUT", url: `/api/card-user/brandAuth/${long}`, headers: { lang: "tw" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 1001, data: { field: "path" }, msg: "參數錯誤：path" });
  });

  it("answers them on the IM paths in the IM shape", async () => {
    const bad = await t.app.inject({
      method: "DELETE",
      url: `${im.base}/chatgroups/1/users/%zz`,
      headers: { authorization: `Bearer ${imUser.token}` },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: "illegal_argument",
      error_description: expect.stringContaining("path") as string,
    });
    for (const url of [`${im.base}/chatgroups/1/users/${"y".repeat(3000)}`, `${im.base}/${"z".repeat(3000)}/users`]) {
      const long = await t.app.inject({ method: "DELETE", url, headers: { authorization: `Bearer ${imUser.token}` } });
      expect(long.statusCode).toBeGreaterThanOrEqual(400);
      expect(long.statusCode).toBeLessThan(500);
      expect(long.body.length).toBeLessThan(600);
      expect(long.json()).toHaveProperty("error_description");
    }
  });

  it("decodes IM path segments once: a % in a name is a name, never a 500", async () => {
    const group = await im.call<{ data: { groupid: string } }>("POST", "chatgroups", {
      token: imUser.token,
      body: { groupname: "pct", desc: "d", public: true, maxusers: 10, owner: imUser.name },
    });
    const r = await im.call("DELETE", `chatgroups/${group.body.data.groupid}/users/%25zz`, { token: imUser.token });
    expect(r.status).toBeLessThan(500);
    expect(r.body).toHaveProperty("error_description");
  });
});
