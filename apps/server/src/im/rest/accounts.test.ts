import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { startTestApp } from "../../../test/harness";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest();
});
afterAll(async () => {
  await im.close();
});

describe("registration (POST /{org}/{app}/users)", () => {
  it("is closed without the app's token unless open registration is configured", async () => {
    const res = await im.call("POST", "users", { body: { username: "walker", password: "pw1", nickname: "" } });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toContain("Open registration doesn't allow");
  });

  it("registers with the app token and replies with the user entity", async () => {
    const res = await im.call<{ entities: Record<string, unknown>[] }>("POST", "users", {
      token: im.appToken,
      body: { username: "Alice_1", password: "pw1", nickname: "Al" },
    });
    expect(res.status).toBe(200);
    expect(res.body.entities[0]).toMatchObject({ type: "user", username: "alice_1", activated: true, nickname: "Al" });
    expect(res.body.entities[0]?.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toMatchObject({
      action: "post",
      organization: im.t.config.im.org,
      applicationName: im.t.config.im.app,
    });
  });

  it("refuses a taken name (case-insensitive), an illegal name and an empty password", async () => {
    await im.call("POST", "users", { token: im.appToken, body: { username: "dup_user", password: "x" } });
    const dup = await im.call("POST", "users", { token: im.appToken, body: { username: "DUP_USER", password: "x" } });
    expect(dup.status).toBe(400);
    expect(dup.body.error_description).toContain("username be unique");
    const bad = await im.call("POST", "users", { token: im.appToken, body: { username: "bad name!", password: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toBe("USERNAME bad name! is not legal");
    const nopw = await im.call("POST", "users", { token: im.appToken, body: { username: "nopw", password: "" } });
    expect(nopw.status).toBe(400);
  });

  it("with IM_OPEN_REGISTRATION=true anyone may register", async () => {
    const open = await startImTest({ IM_OPEN_REGISTRATION: "true" });
    try {
      const res = await open.call("POST", "users", { body: { username: "selfmade", password: "pw1", nickname: "" } });
      expect(res.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe("tokens", () => {
  it("password grant: token, expiry in seconds and the user; wrong password and unknown user are told apart", async () => {
    const u = await im.user("tok");
    const ok = await im.call<{ access_token: string; expires_in: number; user: { username: string } }>(
      "POST",
      "token",
      {
        body: {
          grant_type: "password",
          username: u.name.toUpperCase(),
          password: "pw-secret-1",
          timestamp: Date.now(),
        },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toMatch(/^YWMt/);
    expect(ok.body.expires_in).toBe(im.t.config.im.tokenTtlSeconds);
    expect(ok.body.user.username).toBe(u.name);

    const wrong = await im.call("POST", "token", {
      body: { grant_type: "password", username: u.name, password: "nope" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toBe("invalid password");
    const unknown = await im.call("POST", "token", {
      body: { grant_type: "password", username: "nobody_here", password: "x" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_description).toBe("user not found");
  });

  it("client credentials: the app token; a wrong secret is 401; unknown grants are 400", async () => {
    const bad = await im.call("POST", "token", {
      body: { grant_type: "client_credentials", client_id: "x", client_secret: "y" },
    });
    expect(bad.status).toBe(401);
    const odd = await im.call("POST", "token", { body: { grant_type: "refresh_token" } });
    expect(odd.status).toBe(400);
    expect(odd.body.error).toBe("unsupported_grant_type");
  });

  it("reports the expiry of the presented token and refuses it once expired (app clock)", async () => {
    const u = await im.user("exp");
    const now = im.t.clock.now().getTime();
    const res = await im.call<{ expire_timestamp: number }>("GET", `sdk/users/${u.name}/token/expires`, {
      token: u.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.expire_timestamp).toBe(now + im.t.config.im.tokenTtlSeconds * 1000);
    im.t.clock.advance(im.t.config.im.tokenTtlSeconds + 1);
    const late = await im.call("GET", `sdk/users/${u.name}/token/expires`, { token: u.token });
    expect(late.status).toBe(401);
    expect(late.body.error_description).toBe("Unable to authenticate (OAuth)");
  });

  it("refuses calls without a token, with a forged one, and another user's paths", async () => {
    const u = await im.user("auth");
    const v = await im.user("auth");
    expect((await im.call("GET", `users/${u.name}`)).status).toBe(401);
    // One signature character changed well inside it (the last one carries unused bits, so changing it
    // may leave the signature bytes as they were).
    const at = u.token.length - 10;
    const forged = `${u.token.slice(0, at)}${u.token[at] === "A" ? "B" : "A"}${u.token.slice(at + 1)}`;
    expect((await im.call("GET", `users/${u.name}`, { token: forged })).status).toBe(401);
    const other = await im.call("PUT", `users/${v.name}`, { token: u.token, body: { nickname: "hijack" } });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe("forbidden_op");
  });
});

describe("the user entity, push token and user info", () => {
  it("updates the nickname and the push token", async () => {
    const u = await im.user("nick");
    const nick = await im.call<{ entities: { nickname: string }[] }>("PUT", `users/${u.name}`, {
      token: u.token,
      body: { nickname: "Nicky" },
    });
    expect(nick.status).toBe(200);
    expect(nick.body.entities[0]?.nickname).toBe("Nicky");
    const push = await im.call<{ entities: { pushInfo: unknown[] }[] }>("PUT", `users/${u.name}`, {
      token: u.token,
      body: { device_id: "dev-1", device_token: "tok-1", notifier_name: "fcm-sender" },
    });
    expect(push.body.entities[0]?.pushInfo).toEqual([
      { device_id: "dev-1", device_token: "tok-1", notifier_name: "fcm-sender" },
    ]);
    const bad = await im.call("PUT", `users/${u.name}`, {
      token: u.token,
      body: { device_id: "", device_token: "t", notifier_name: "n" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toBe("Invalid parameter: device_id");
  });

  it("sets user info form-encoded (eight keys only) and reads it back for several users", async () => {
    const u = await im.user("info");
    const v = await im.user("info");
    const set = await im.call<{ data: Record<string, string> }>("PUT", `metadata/user/${u.name}`, {
      token: u.token,
      form: { nickname: "Ann", avatarurl: "https://x/a.png", gender: "2", ext: '{"vip":true}' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ nickname: "Ann", avatarurl: "https://x/a.png", gender: "2", ext: '{"vip":true}' });
    const illegal = await im.call("PUT", `metadata/user/${u.name}`, { token: u.token, form: { age: "3" } });
    expect(illegal.status).toBe(400);
    expect(illegal.body.error_description).toContain("illegal key");
    const get = await im.call<{ data: Record<string, Record<string, string>> }>("POST", "metadata/user/get", {
      token: v.token,
      body: { targets: [u.name, v.name], properties: ["nickname", "gender"] },
    });
    expect(get.body.data).toEqual({ [u.name]: { nickname: "Ann", gender: "2" }, [v.name]: {} });
  });
});

describe("protocol plumbing", () => {
  it("serves the discovery document naming this server", async () => {
    const res = await im.call<{
      rest: { hosts: Record<string, string>[] };
      "msync-wx": { hosts: Record<string, string>[] };
    }>(
      "GET",
      `/easemob/server.json?app_key=${encodeURIComponent(`${im.t.config.im.org}#${im.t.config.im.app}`)}&_v=1`,
      { headers: { host: "chat.example.com:8443" } },
    );
    expect(res.status).toBe(200);
    expect(res.body.rest.hosts[0]).toMatchObject({ protocol: "http", domain: "chat.example.com", port: "8443" });
    expect(res.body["msync-wx"].hosts[0]).toMatchObject({ domain: "chat.example.com" });
    expect((await im.call("GET", "/easemob/server.json?app_key=other%23app")).status).toBe(404);
  });

  it("answers CORS preflights and unknown paths with the IM error body", async () => {
    const pre = await im.call("OPTIONS" as "GET", `users/x`, {
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "authorization,content-type",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    expect(pre.headers["access-control-allow-headers"]).toBe("authorization,content-type");
    const u = await im.user("nf");
    const missing = await im.call("GET", "no/such/path", { token: u.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("resource_not_found");
  });

  it("accepts bodiless calls sent with a JSON content type and refuses unreadable JSON", async () => {
    const u = await im.user("json");
    const bad = await im.call("PUT", `users/${u.name}`, {
      token: u.token,
      payload: Buffer.from("{nope"),
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toBe("Request body not readable.Please check content type is correct!");
  });
});

describe("configuration", () => {
  it("uses IM_ORG and IM_APP for the paths", async () => {
    const t = await startTestApp({ IM_ORG: "acme", IM_APP: "chat" });
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/acme/chat/token",
        payload: { grant_type: "password", username: "x", password: "y" },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ error_description: string }>().error_description).toBe("user not found");
    } finally {
      await t.close();
    }
  });
});
