import { beforeAll, describe, expect, it } from "vitest";
import { lastCode, registerMerchant, STRONG_PASSWORD, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { ApiCredentialsService } from "./api-credentials";
import { form } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();
let ops: { token: string; userId: number };
let client: ApiCredentialsService;
beforeAll(async () => {
  ops = await registerOperator(t);
  // The open API's view of the credentials (same database and key as the server).
  client = new ApiCredentialsService({
    db: t.ctx.database.db,
    clock: t.clock,
    secret: t.ctx.secret,
    checkPassword: () => Promise.resolve(false),
  });
});

type ApiInfo = {
  permission: string;
  request: { id: string; state: string } | null;
  appKey: string | null;
  hasSecret: boolean;
  ipAllowlist: string[];
  callbackUrl: string | null;
};

async function verified(orgName?: string) {
  const m = await registerMerchant(t, orgName ? { orgName } : {});
  await t.ctx.database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "=", Number(m.merchantId))
    .execute();
  return m;
}

/** A merchant whose API permission an operator has opened through the queue. */
async function opened() {
  const m = await verified();
  const applied = await t.call<ApiInfo>("POST", "/api/card-brander/api/apply", {
    token: m.token,
    body: { purpose: "Direct top-up by API" },
  });
  const id = applied.body.data.request?.id ?? "";
  expect(
    (await t.call("POST", `/api/ops/queues/apiPermission/items/${id}/approve`, { token: ops.token })).body.code,
  ).toBe(1);
  return m;
}

describe("API permission", () => {
  it("needs real-name first; then a request waits for an operator, who opens it and a key is issued", async () => {
    const m = await registerMerchant(t);
    const early = await t.call("POST", "/api/card-brander/api/apply", {
      token: m.token,
      lang: "en",
      body: { purpose: "x" },
    });
    expect(early.status).toBe(403);
    expect(early.body.msg).toBe("Complete real-name verification before requesting API permission");

    const v = await verified();
    const applied = await t.call<ApiInfo>("POST", "/api/card-brander/api/apply", {
      token: v.token,
      body: { purpose: "Direct top-up by API" },
    });
    expect(applied.body.data).toMatchObject({
      permission: "not_opened",
      request: { state: "pending" },
      appKey: null,
      hasSecret: false,
    });
    expect(
      (await t.call("POST", "/api/card-brander/api/apply", { token: v.token, body: { purpose: "again" } })).status,
    ).toBe(409);

    const queue = await t.call<{ list: { id: string; merchantId: string }[] }>(
      "GET",
      `/api/ops/queues/apiPermission/items?state=pending&merchantId=${v.merchantId}`,
      { token: ops.token },
    );
    expect(queue.body.data.list.map((i) => i.merchantId)).toEqual([v.merchantId]);
    await t.call("POST", `/api/ops/queues/apiPermission/items/${queue.body.data.list[0]?.id ?? ""}/approve`, {
      token: ops.token,
    });

    const info = await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: v.token });
    expect(info.body.data).toMatchObject({ permission: "opened", request: { state: "approved" }, hasSecret: true });
    expect(info.body.data.appKey).toMatch(/^tk[0-9a-f]{20}$/);
    // The secret itself is listed nowhere.
    expect(JSON.stringify(info.body)).not.toMatch(/secret"\s*:\s*"/);
  });

  it("a rejected request keeps the permission closed", async () => {
    const v = await verified();
    const applied = await t.call<ApiInfo>("POST", "/api/card-brander/api/apply", {
      token: v.token,
      body: { purpose: "p" },
    });
    await t.call("POST", `/api/ops/queues/apiPermission/items/${applied.body.data.request?.id ?? ""}/reject`, {
      token: ops.token,
      body: { reason: "No business case" },
    });
    const info = await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: v.token });
    expect(info.body.data).toMatchObject({ permission: "not_opened", request: { state: "rejected" }, appKey: null });
    expect(
      (await t.call("POST", "/api/card-brander/api/view", { token: v.token, body: { password: STRONG_PASSWORD } }))
        .status,
    ).toBe(403);
  });
});

describe("secret, allowlist and callback", () => {
  it("shows the secret only with the password; a reset revokes the old one", async () => {
    const m = await opened();
    const wrong = await t.call("POST", "/api/card-brander/api/view", {
      token: m.token,
      lang: "en",
      ...form({ password: "Wrong#2026" }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe("The login password is wrong");

    const view = await t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/view", {
      token: m.token,
      ...form({ password: STRONG_PASSWORD }),
    });
    expect(view.body.code).toBe(1);
    const { appKey, secret } = view.body.data;
    expect(await client.authenticateClient(appKey, secret, "203.0.113.9")).toBe(Number(m.merchantId));

    const reset = await t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/reset", {
      token: m.token,
      ...form({ password: STRONG_PASSWORD }),
    });
    expect(reset.body.data.appKey).toBe(appKey);
    expect(reset.body.data.secret).not.toBe(secret);
    expect(await client.authenticateClient(appKey, secret, "203.0.113.9")).toBeNull();
    expect(await client.authenticateClient(appKey, reset.body.data.secret, "203.0.113.9")).toBe(Number(m.merchantId));
  });

  it("shows the secret again after an SMS code sent to the user's own bound phone, once per code", async () => {
    const m = await opened();
    const view = (body: Record<string, string>, lang: "cn" | "tw" | "en" = "en") =>
      t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/view", {
        token: m.token,
        lang,
        ...form(body),
      });
    const send = (phone: string) =>
      t.call("POST", "/api/card-user/sendSms", { token: m.token, lang: "en", body: { phone, scene: "viewApiSecret" } });
    const phone = uniquePhone("139");

    // No bound phone yet: no code can be sent, and a made-up code opens nothing.
    expect((await send(phone)).body.msg).toBe("The code can only be sent to your own bound mobile number");
    expect((await view({ smsCode: "123456" })).body.msg).toBe("Please bind a mobile number first");

    await t.call("POST", "/api/card-user/sendSms", { token: m.token, body: { phone, scene: "bindPhone" } });
    expect(
      (
        await t.call("PUT", "/api/card-user/userPhone", {
          token: m.token,
          body: { phone, smsCode: await lastCode(t, phone) },
        })
      ).body.code,
    ).toBe(1);
    // Only to that phone.
    expect((await send("13800000000")).body.msg).toBe("The code can only be sent to your own bound mobile number");
    expect((await send(phone)).body.code).toBe(1);
    const code = await lastCode(t, phone);
    const wrong = await view({ smsCode: code === "000000" ? "111111" : "000000" });
    expect(wrong.body.code).not.toBe(1);
    expect(JSON.stringify(wrong.body)).not.toContain("secret");

    const shown = await view({ smsCode: code });
    expect(shown.body.data.appKey).toMatch(/^tk/);
    const byPassword = await view({ password: STRONG_PASSWORD });
    expect(shown.body.data.secret).toBe(byPassword.body.data.secret);
    // A code opens the secret once.
    expect((await view({ smsCode: code })).body.code).not.toBe(1);
    const audits = await t.ctx.database.db
      .selectFrom("audit_log")
      .select("detail")
      .where("action", "=", "api.viewSecret")
      .where("subject_id", "=", m.merchantId)
      .execute();
    expect(audits.map((a) => (a.detail as { by: string }).by).sort()).toEqual(["password", "sms"]);

    // Neither a password nor a code, or both: one message, in three languages.
    for (const [lang, msg] of [
      ["cn", "请输入登录密码或短信验证码"],
      ["tw", "請輸入登錄密碼或簡訊驗證碼"],
      ["en", "Enter your login password or the SMS code"],
    ] as const) {
      const none = await view({}, lang);
      expect([none.status, none.body.msg]).toEqual([400, msg]);
    }
    expect((await view({ password: STRONG_PASSWORD, smsCode: code })).status).toBe(400);
    // Another merchant's session cannot use this user's code.
    const other = await opened();
    expect(
      (await t.call("POST", "/api/card-brander/api/view", { token: other.token, ...form({ smsCode: code }) })).body
        .code,
    ).not.toBe(1);
  });

  it("keeps the IP allowlist and callback URL (form), refusing bad entries with no change", async () => {
    const m = await opened();
    const bad = await t.call("POST", "/api/card-brander/api/ip", {
      token: m.token,
      lang: "en",
      ...form({ ips: "203.0.113.9\n300.1.1.1", callbackUrl: "" }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Invalid IP allowlist entry: 300.1.1.1 (one IPv4 or IPv6 address per line, at most 20)");
    const badUrl = await t.call("POST", "/api/card-brander/api/ip", {
      token: m.token,
      ...form({ ips: "", callbackUrl: "ftp://x" }),
    });
    expect(badUrl.status).toBe(400);
    expect(
      (await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: m.token })).body.data.ipAllowlist,
    ).toEqual([]);

    const ok = await t.call<ApiInfo>("POST", "/api/card-brander/api/ip", {
      token: m.token,
      ...form({ ips: "203.0.113.9\n2001:db8::1, 203.0.113.9", callbackUrl: "https://shop.example/notify" }),
    });
    expect(ok.body.data).toMatchObject({
      ipAllowlist: ["203.0.113.9", "2001:db8::1"],
      callbackUrl: "https://shop.example/notify",
    });

    const view = await t.call<{ appKey: string; secret: string }>("POST", "/api/card-brander/api/view", {
      token: m.token,
      body: { password: STRONG_PASSWORD },
    });
    expect(await client.authenticateClient(view.body.data.appKey, view.body.data.secret, "203.0.113.9")).toBe(
      Number(m.merchantId),
    );
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
    expect(
      (await t.call("POST", "/api/card-brander/api/ip", { token: b.token, body: { ips: "198.51.100.1" } })).status,
    ).toBe(403);
    expect((await t.call<ApiInfo>("GET", "/api/card-brander/brander/api", { token: a.token })).body.data).toEqual(
      aBefore.body.data,
    );
  });
});
