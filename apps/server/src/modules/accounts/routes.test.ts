import { describe, expect, it } from "vitest";
import { lastCode, registerMerchant, STRONG_PASSWORD, uniqueEmail, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { CODE_MAX_ATTEMPTS, CODE_RESEND_SECONDS, CODE_TTL_SECONDS, LOGIN_LOCK_MINUTES } from "./service";
import { ensureOperator } from "./bootstrap";
import { SESSION_CACHE_MS } from "../../platform/auth/revision";
import { tokenHash } from "../../platform/crypto/tokens";

const t = useTestApp();

async function sendRegisterCode(email: string) {
  return t.call("POST", "/api/card-user/sendEmail", { body: { email, scene: "register" } });
}

function registerBody(email: string, emailCode: string, overrides: Record<string, unknown> = {}) {
  return {
    email,
    emailCode,
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
    orgName: "Acme",
    ...overrides,
  };
}

describe("register validation (spec 01 §5), in three languages", () => {
  const cases: [string, Record<string, unknown>, { cn: string; tw: string; en: string }][] = [
    ["email empty", { email: "" }, { cn: "邮箱不能为空", tw: "郵箱不能為空", en: "Email cannot be empty" }],
    ["email missing", { email: undefined }, { cn: "邮箱不能为空", tw: "郵箱不能為空", en: "Email cannot be empty" }],
    [
      "email format",
      { email: "not-an-email" },
      { cn: "请输入正确的邮箱", tw: "請輸入正確的郵箱", en: "Please enter a correct email address" },
    ],
    [
      "code empty",
      { emailCode: "" },
      { cn: "邮箱验证码不能为空", tw: "郵箱驗證碼不能為空", en: "Email verification code cannot be empty" },
    ],
    ["password empty", { password: "" }, { cn: "密码不能为空", tw: "密碼不能為空", en: "Password cannot be empty" }],
    [
      "password weak (two classes)",
      { password: "abcdefgh1", confirmPassword: "abcdefgh1" },
      { cn: "密码强度弱，请重新设置", tw: "密碼強度弱，請重新設置", en: "Password strength is weak, please reset" },
    ],
    [
      "password weak (short)",
      { password: "Ab#1", confirmPassword: "Ab#1" },
      { cn: "密码强度弱，请重新设置", tw: "密碼強度弱，請重新設置", en: "Password strength is weak, please reset" },
    ],
    [
      "password too long",
      { password: "Abcdefgh#1234567890123", confirmPassword: "Abcdefgh#1234567890123" },
      { cn: "密码长度为3-21个字符", tw: "密碼長度為3-21個字符", en: "Password length is 3-21 characters" },
    ],
    [
      "confirm mismatch",
      { confirmPassword: "Tessera#2027" },
      { cn: "两次输入的密码不一致", tw: "兩次輸入的密碼不一致", en: "The two passwords are inconsistent" },
    ],
    [
      "organisation empty",
      { orgName: "  " },
      { cn: "组织名称不能为空", tw: "組織名稱不能為空", en: "Organisation name cannot be empty" },
    ],
    [
      "international outside allowed regions",
      { version: "international", country: "JP", currency: "USD" },
      {
        cn: "国际版仅向中国香港、新加坡、欧洲和美洲的合法企业开放注册",
        tw: "國際版僅向中國香港、新加坡、歐洲和美洲的合法企業開放註冊",
        en: "The international version is open only to businesses in Hong Kong, Singapore, Europe and the Americas",
      },
    ],
    [
      "international without country",
      { version: "international", currency: "USD" },
      {
        cn: "请选择组织所在国家或地区",
        tw: "請選擇組織所在國家或地區",
        en: "Please choose the organisation's country or region",
      },
    ],
    [
      "international in CNY",
      { version: "international", country: "SG", currency: "CNY" },
      {
        cn: "国际版结算币种只能为美元或港币",
        tw: "國際版結算幣種只能為美元或港幣",
        en: "International accounts settle in US dollars or Hong Kong dollars",
      },
    ],
  ];
  for (const [name, overrides, messages] of cases) {
    it(name, async () => {
      const email = uniqueEmail();
      for (const lang of ["cn", "tw", "en"] as const) {
        const res = await t.call("POST", "/api/card-user/register", {
          lang,
          body: registerBody(email, "123456", overrides),
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(1001);
        expect(res.body.msg).toBe(messages[lang]);
      }
      // Nothing was created: the address can still request a registration code.
      expect((await sendRegisterCode(email)).body.code).toBe(1);
    });
  }
});

describe("registration and login", () => {
  it("registers with the e-mailed code, logs in, reads userInfo, logs out", async () => {
    const email = uniqueEmail();
    expect((await sendRegisterCode(email)).body).toMatchObject({
      code: 1,
      data: { expiresIn: CODE_TTL_SECONDS, resendIn: CODE_RESEND_SECONDS },
    });
    const code = await lastCode(t, email);
    const reg = await t.call<{ merchantId: string }>("POST", "/api/card-user/register", {
      body: registerBody(email.toUpperCase(), code, { orgName: "Blue Sky Co" }),
    });
    expect(reg.body.code).toBe(1);
    expect(Number(reg.body.data.merchantId)).toBeGreaterThanOrEqual(10000001);

    const login = await t.call<{ token: string; expires_in: number }>("POST", "/api/card-user/login", {
      body: { email, password: STRONG_PASSWORD },
    });
    expect(login.body.code).toBe(1);
    expect(login.body.data.expires_in).toBe(t.config.tokenTtlSeconds);
    const token = login.body.data.token;
    expect(token.length).toBeGreaterThanOrEqual(40);

    const info = await t.call("GET", "/api/card-user/userInfo", { token });
    expect(info.body).toMatchObject({
      code: 1,
      data: {
        kind: "merchant",
        loginAccount: email,
        email,
        phone: null,
        merchant: {
          merchantId: reg.body.data.merchantId,
          name: "Blue Sky Co",
          version: "domestic",
          currency: "CNY",
          realNameState: "not_verified",
          apiPermission: "not_opened",
          roles: ["sale", "business"],
        },
        balances: {
          sup: { amount: 0, currency: "CNY" },
          reserve: { amount: 0, currency: "CNY" },
          income: { amount: 0, currency: "CNY" },
        },
      },
    });

    expect((await t.call("PUT", "/api/card-user/logout", { token })).body.code).toBe(1);
    const after = await t.call("GET", "/api/card-user/userInfo", { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(401);
  });

  it("a session revoked by another server process is refused here within SESSION_CACHE_MS", async () => {
    const m = await registerMerchant(t);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: m.token })).status).toBe(200);
    // Another process revokes it: this process hears nothing and uses its resolved session a little longer.
    await t.ctx.database.db
      .updateTable("sessions")
      .set({ revoked_at: t.clock.now() })
      .where("token_hash", "=", tokenHash(m.token))
      .execute();
    expect((await t.call("GET", "/api/card-user/userInfo", { token: m.token })).status).toBe(200);
    t.clock.advance(SESSION_CACHE_MS / 1000);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: m.token })).status).toBe(401);
  });

  it("a password change in this process ends the account's other sessions at once", async () => {
    const m = await registerMerchant(t);
    const other = (
      await t.call<{ token: string }>("POST", "/api/card-user/login", {
        body: { email: m.email, password: STRONG_PASSWORD, version: "domestic" },
      })
    ).body.data.token;
    expect((await t.call("GET", "/api/card-user/userInfo", { token: other })).status).toBe(200);
    await t.call("POST", "/api/card-user/sendEmail", { body: { email: m.email, scene: "resetPassword" } });
    const reset = await t.call("PUT", "/api/card-user/resetPassword", {
      body: {
        email: m.email,
        emailCode: await lastCode(t, m.email),
        password: "Tessera#2027x",
        confirmPassword: "Tessera#2027x",
      },
    });
    expect(reset.body.code).toBe(1);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: other })).status).toBe(401);
  });

  it("stores only a hash of the token and an Argon2id hash of the password", async () => {
    const m = await registerMerchant(t);
    const db = t.ctx.database.db;
    const user = await db.selectFrom("users").selectAll().where("email", "=", m.email).executeTakeFirstOrThrow();
    expect(user.password_hash.startsWith("$argon2id$")).toBe(true);
    const sessions = await db.selectFrom("sessions").select("token_hash").where("user_id", "=", user.id).execute();
    expect(sessions.some((s) => s.token_hash === m.token)).toBe(false);
    expect(sessions[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a second registration of the same e-mail", async () => {
    const m = await registerMerchant(t);
    const res = await sendRegisterCode(m.email);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("该邮箱已注册");
  });

  it("international registration settles in the chosen currency and logs in only on the international version", async () => {
    const m = await registerMerchant(t, { version: "international", country: "de", currency: "HKD" });
    const info = await t.call<{ merchant: { currency: string; country: string; version: string } }>(
      "GET",
      "/api/card-user/userInfo",
      { token: m.token },
    );
    expect(info.body.data.merchant).toMatchObject({ currency: "HKD", country: "DE", version: "international" });
    const domestic = await t.call("POST", "/api/card-user/login", {
      lang: "en",
      body: { email: m.email, password: STRONG_PASSWORD, version: "domestic" },
    });
    expect(domestic.status).toBe(403);
    expect(domestic.body.msg).toBe("This account was registered in the international version; please log in there");
  });

  it("login validation: empty email, bad format, password length 3-21", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "", password: "abc" }, "Email cannot be empty"],
      [{ email: "x@", password: "abc" }, "Please enter a correct email address"],
      [{ email: "a@b.co", password: "ab" }, "Password length is 3-21 characters"],
      [{ email: "a@b.co", password: "a".repeat(22) }, "Password length is 3-21 characters"],
      [{ email: "a@b.co", password: "" }, "Password cannot be empty"],
    ];
    for (const [body, msg] of cases) {
      const res = await t.call("POST", "/api/card-user/login", { lang: "en", body });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
  });

  it("a wrong password gets a readable error, not a 401", async () => {
    const m = await registerMerchant(t);
    const res = await t.call("POST", "/api/card-user/login", { body: { email: m.email, password: "Wrong#pass1" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1010, msg: "账号或密码错误" });
  });
});

describe("verification codes", () => {
  it("cannot be re-sent within a minute", async () => {
    const email = uniqueEmail();
    await sendRegisterCode(email);
    t.clock.advance(20);
    const again = await t.call("POST", "/api/card-user/sendEmail", { lang: "en", body: { email, scene: "register" } });
    expect(again.status).toBe(429);
    expect(again.body.msg).toBe("Sent too often, please try again in 40 seconds");
    t.clock.advance(41);
    expect((await sendRegisterCode(email)).body.code).toBe(1);
  });

  it("expire", async () => {
    const email = uniqueEmail();
    await sendRegisterCode(email);
    const code = await lastCode(t, email);
    t.clock.advance(CODE_TTL_SECONDS + 1);
    const res = await t.call("POST", "/api/card-user/register", { lang: "en", body: registerBody(email, code) });
    expect(res.body).toMatchObject({ code: 1012, msg: "The verification code is wrong or has expired" });
  });

  it("are single-use", async () => {
    const email = uniqueEmail();
    await sendRegisterCode(email);
    const code = await lastCode(t, email);
    expect((await t.call("POST", "/api/card-user/register", { body: registerBody(email, code) })).body.code).toBe(1);
    const again = await t.call("POST", "/api/card-user/register", { body: registerBody(email, code) });
    expect(again.body.code).toBe(1012);
  });

  it("die after five wrong guesses, even the right one", async () => {
    const email = uniqueEmail();
    await sendRegisterCode(email);
    const code = await lastCode(t, email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      expect((await t.call("POST", "/api/card-user/register", { body: registerBody(email, wrong) })).body.code).toBe(
        1012,
      );
    }
    expect((await t.call("POST", "/api/card-user/register", { body: registerBody(email, code) })).body.code).toBe(1012);
  });

  it("a newer code replaces the older one", async () => {
    const email = uniqueEmail();
    await sendRegisterCode(email);
    const first = await lastCode(t, email);
    t.clock.advance(CODE_RESEND_SECONDS + 1);
    await sendRegisterCode(email);
    const second = await lastCode(t, email);
    if (first !== second) {
      expect((await t.call("POST", "/api/card-user/register", { body: registerBody(email, first) })).body.code).toBe(
        1012,
      );
    }
    expect((await t.call("POST", "/api/card-user/register", { body: registerBody(email, second) })).body.code).toBe(1);
  });

  it("a reset code is refused for an unknown e-mail", async () => {
    const res = await t.call("POST", "/api/card-user/sendEmail", {
      lang: "en",
      body: { email: uniqueEmail(), scene: "resetPassword" },
    });
    expect(res.body.msg).toBe("This email is not registered");
  });
});

describe("failed logins are slowed, then refused for a while", () => {
  it("slows after three failures and locks at six, even for the right password", async () => {
    const m = await registerMerchant(t);
    const attempt = (password: string) =>
      t.call("POST", "/api/card-user/login", { lang: "en", body: { email: m.email, password } });
    for (let i = 0; i < 3; i++) expect((await attempt("Wrong#pass1")).body.code).toBe(1010);
    const slowed = await attempt(STRONG_PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.body.msg).toBe("Too many failed logins, please try again in 5 seconds");
    t.clock.advance(5);
    expect((await attempt("Wrong#pass1")).body.code).toBe(1010); // 4th failure: next wait 10 s
    t.clock.advance(10);
    expect((await attempt("Wrong#pass1")).body.code).toBe(1010); // 5th: next wait 20 s
    t.clock.advance(20);
    const locked = await attempt("Wrong#pass1"); // 6th: locked
    expect(locked.body).toMatchObject({
      code: 1011,
      msg: `Too many failed logins; the account is locked, please try again in ${LOGIN_LOCK_MINUTES} minutes`,
    });
    t.clock.advance(60);
    expect((await attempt(STRONG_PASSWORD)).body.code).toBe(1011);
    t.clock.advance(LOGIN_LOCK_MINUTES * 60);
    expect((await attempt(STRONG_PASSWORD)).body.code).toBe(1);
    // Success clears the count.
    expect((await attempt("Wrong#pass1")).body.code).toBe(1010);
    expect((await attempt(STRONG_PASSWORD)).body.code).toBe(1);
  });

  it("counts unknown accounts too, so probing learns nothing", async () => {
    const email = uniqueEmail("ghost");
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.call("POST", "/api/card-user/login", { body: { email, password: "Whatever#1" } })).body.code,
      ).toBe(1010);
    }
    expect((await t.call("POST", "/api/card-user/login", { body: { email, password: "Whatever#1" } })).status).toBe(
      429,
    );
  });
});

describe("sessions: HTTP 401 when the token is missing, unknown, expired or revoked", () => {
  it("missing and unknown", async () => {
    expect((await t.call("GET", "/api/card-user/userInfo")).status).toBe(401);
    const unknown = await t.call("GET", "/api/card-user/userInfo", { token: "not-a-token", lang: "en" });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ code: 401, data: null, msg: "Login state expired" });
  });

  it("expired after expires_in", async () => {
    const m = await registerMerchant(t);
    t.clock.advance(t.config.tokenTtlSeconds - 5);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: m.token })).status).toBe(200);
    t.clock.advance(10);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: m.token })).status).toBe(401);
  });

  it("revoked by a password reset, which also changes the password", async () => {
    const m = await registerMerchant(t);
    const other = await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: m.email, password: STRONG_PASSWORD },
    });
    await t.call("POST", "/api/card-user/sendEmail", { body: { email: m.email, scene: "resetPassword" } });
    const code = await lastCode(t, m.email);
    const newPassword = "N3w-Password";
    const weak = await t.call("PUT", "/api/card-user/resetPassword", {
      lang: "en",
      body: { email: m.email, emailCode: code, password: "password", confirmPassword: "password" },
    });
    expect(weak.body.msg).toBe("Password strength is weak, please reset");
    const reset = await t.call("PUT", "/api/card-user/resetPassword", {
      body: { email: m.email, emailCode: code, password: newPassword, confirmPassword: newPassword },
    });
    expect(reset.body.code).toBe(1);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: m.token })).status).toBe(401);
    expect((await t.call("GET", "/api/card-user/userInfo", { token: other.body.data.token })).status).toBe(401);
    expect(
      (await t.call("POST", "/api/card-user/login", { body: { email: m.email, password: STRONG_PASSWORD } })).body.code,
    ).toBe(1010);
    expect(
      (await t.call("POST", "/api/card-user/login", { body: { email: m.email, password: newPassword } })).body.code,
    ).toBe(1);
  });

  it("validatetoken tells live from dead tokens", async () => {
    const m = await registerMerchant(t);
    const live = await t.call<{ valid: boolean; expires_in: number; userId: string }>(
      "POST",
      "/api/login/validatetoken",
      { body: { token: m.token } },
    );
    expect(live.body.data).toEqual({ valid: true, expires_in: t.config.tokenTtlSeconds, userId: m.userId });
    await t.call("PUT", "/api/card-user/logout", { token: m.token });
    const dead = await t.call("POST", "/api/login/validatetoken", { body: { token: m.token } });
    expect(dead.body.data).toEqual({ valid: false, expires_in: 0, userId: null });
  });
});

describe("changing e-mail and phone", () => {
  it("changes the login e-mail with a code sent to the new address", async () => {
    const m = await registerMerchant(t);
    const next = uniqueEmail("next");
    expect(
      (await t.call("POST", "/api/card-user/sendEmail", { body: { email: next, scene: "changeEmail" } })).status,
    ).toBe(401);
    await t.call("POST", "/api/card-user/sendEmail", { token: m.token, body: { email: next, scene: "changeEmail" } });
    const res = await t.call("PUT", "/api/card-user/userEmail", {
      token: m.token,
      body: { email: next, emailCode: await lastCode(t, next) },
    });
    expect(res.body.code).toBe(1);
    const info = await t.call<{ email: string }>("GET", "/api/card-user/userInfo", { token: m.token });
    expect(info.body.data.email).toBe(next);
    expect(
      (await t.call("POST", "/api/card-user/login", { body: { email: next, password: STRONG_PASSWORD } })).body.code,
    ).toBe(1);
  });

  it("binds a phone with an SMS code; a phone belongs to one account", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const phone = uniquePhone("13");
    const bad = await t.call("POST", "/api/card-user/sendSms", {
      token: a.token,
      lang: "en",
      body: { phone: "12345", scene: "bindPhone" },
    });
    expect(bad.body.msg).toBe("Please enter a correct mobile number");
    await t.call("POST", "/api/card-user/sendSms", { token: a.token, body: { phone, scene: "bindPhone" } });
    const code = await lastCode(t, phone);
    expect(
      (await t.call("PUT", "/api/card-user/userPhone", { token: a.token, body: { phone, smsCode: "" } })).body.code,
    ).toBe(1001);
    expect(
      (await t.call("PUT", "/api/card-user/userPhone", { token: a.token, body: { phone, smsCode: code } })).body.code,
    ).toBe(1);
    const info = await t.call<{ phone: string }>("GET", "/api/card-user/userInfo", { token: a.token });
    expect(info.body.data.phone).toBe(phone);
    const taken = await t.call("POST", "/api/card-user/sendSms", {
      token: b.token,
      body: { phone, scene: "bindPhone" },
    });
    expect(taken.status).toBe(409);
  });
});

describe("tenancy and the rest", () => {
  it("each merchant's token shows only its own merchant", async () => {
    const a = await registerMerchant(t, { orgName: "Alpha" });
    const b = await registerMerchant(t, { orgName: "Beta" });
    const ia = await t.call<{ merchant: { merchantId: string; name: string } }>("GET", "/api/card-user/userInfo", {
      token: a.token,
    });
    const ib = await t.call<{ merchant: { merchantId: string; name: string } }>("GET", "/api/card-user/userInfo", {
      token: b.token,
    });
    expect(ia.body.data.merchant).toMatchObject({ merchantId: a.merchantId, name: "Alpha" });
    expect(ib.body.data.merchant).toMatchObject({ merchantId: b.merchantId, name: "Beta" });
    expect(a.merchantId).not.toBe(b.merchantId);
  });

  it("dict/all labels follow the request language", async () => {
    const en = await t.call<Record<string, { value: string; label: string }[]>>("GET", "/api/card-user/dict/all", {
      lang: "en",
    });
    expect(en.body.data.realNameState).toContainEqual({ value: "verified", label: "Real-named" });
    const tw = await t.call<Record<string, { value: string; label: string }[]>>("GET", "/api/card-user/dict/all", {
      lang: "tw",
    });
    expect(tw.body.data.realNameState).toContainEqual({ value: "verified", label: "已實名" });
    expect(tw.body.data.invoiceType).toHaveLength(7);
  });

  it("malformed JSON and unknown routes are 4xx with the envelope, never 5xx", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/card-user/login",
      headers: { "content-type": "application/json" },
      payload: "{bad",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 1001 });
    const missing = await t.call("GET", "/api/card-user/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(1004);
    const extra = await t.call("POST", "/api/card-user/login", {
      body: { email: "a@b.co", password: "abc", admin: true },
    });
    expect(extra.status).toBe(400);
  });

  it("serves the OpenAPI document and health", async () => {
    const doc = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(doc.statusCode).toBe(200);
    expect(Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths)).toContain("/api/card-user/login");
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(health.json()).toMatchObject({ status: "ok" });
  });

  it("creates the operator account once, with a printed one-time password", async () => {
    const lines: string[] = [];
    const db = t.ctx.database.db;
    const already = await db.selectFrom("users").select("id").where("kind", "=", "operator").executeTakeFirst();
    await ensureOperator(db, t.config, t.ctx.hasher, (l) => lines.push(l));
    await ensureOperator(db, t.config, t.ctx.hasher, (l) => lines.push(l));
    if (already) return expect(lines).toHaveLength(0); // the shared Postgres database may already have one
    expect(lines).toHaveLength(1);
    const password = /one-time password (\S+)/.exec(lines[0] ?? "")?.[1] ?? "";
    const login = await t.call("POST", "/api/card-user/login", { body: { email: t.config.opsEmail, password } });
    expect(login.body.code).toBe(1);
  });
});

describe("every verification code names its purpose (issue 40, item 10)", () => {
  type Sent = { list: { subject: string; body: string }[] };
  const outbox = async (to: string) =>
    (await t.call<Sent>("GET", `/api/dev/outbox?to=${encodeURIComponent(to)}&pageSize=20`)).body.data.list[0];

  it("the reset-password e-mail says it resets the password, in the recipient's language", async () => {
    const m = await registerMerchant(t);
    const en = await t.call("POST", "/api/card-user/sendEmail", {
      lang: "en",
      body: { email: m.email, scene: "resetPassword" },
    });
    expect(en.body.code).toBe(1);
    const mail = await outbox(m.email);
    expect(mail?.subject).toBe("Tessera code to reset your password");
    expect(mail?.body).toMatch(/^Your code to reset your password is \d{6}\./);
    expect(await lastCode(t, m.email)).toMatch(/^\d{6}$/);

    const other = await registerMerchant(t);
    await t.call("POST", "/api/card-user/sendEmail", {
      lang: "cn",
      body: { email: other.email, scene: "resetPassword" },
    });
    expect((await outbox(other.email))?.body).toMatch(/^您正在重置登录密码，验证码是 \d{6}，/);
  });

  it("the registration e-mail and the bind-phone SMS name theirs", async () => {
    const email = uniqueEmail();
    await t.call("POST", "/api/card-user/sendEmail", { lang: "tw", body: { email, scene: "register" } });
    expect((await outbox(email))?.body).toContain("您正在註冊賬號");

    const m = await registerMerchant(t);
    const phone = uniquePhone("139");
    const sms = await t.call("POST", "/api/card-user/sendSms", {
      token: m.token,
      lang: "cn",
      body: { phone, scene: "bindPhone" },
    });
    expect(sms.body.code).toBe(1);
    expect((await outbox(phone))?.body).toMatch(/^【Tessera】验证码 \d{6}，用于绑定手机号，10分钟内有效/);
    expect(await lastCode(t, phone)).toMatch(/^\d{6}$/);
  });
});
