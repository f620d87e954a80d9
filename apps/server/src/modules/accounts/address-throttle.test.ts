import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { ADDRESS_FAILURES } from "./service";

/**
 * Credentials are throttled per client address too (on @fastify/rate-limit, shared through Redis when
 * REDIS_URL is set): an address that tried 30 wrong logins, or 30 wrong codes, over many accounts waits,
 * whatever the per-account counts say; other addresses do not.
 */
const t = useTestApp();

const login = (email: string, password: string, address: string, lang = "en") =>
  t.app.inject({
    method: "POST",
    url: "/api/card-user/login",
    remoteAddress: address,
    headers: { lang },
    payload: { email, password },
  });

describe("failed credentials per client address", () => {
  it("logins: after 30 failures over many accounts the address waits 30 s; other addresses log in", async () => {
    const m = await registerMerchant(t);
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      expect((await login(uniqueEmail("ghost"), "Whatever#1", "203.0.113.9")).json<{ code: number }>().code).toBe(1010);
    }
    const refused = await login(m.email, STRONG_PASSWORD, "203.0.113.9");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 1006,
      data: null,
      msg: "Too many failed logins, please try again in 30 seconds",
    });
    expect((await login(m.email, STRONG_PASSWORD, "203.0.113.9", "tw")).json<{ msg: string }>().msg).toBe(
      "登錄失敗次數過多，請30秒後再試",
    );
    expect((await login(m.email, STRONG_PASSWORD, "203.0.113.10")).json<{ code: number }>().code).toBe(1);
    t.clock.advance(30);
    expect((await login(m.email, STRONG_PASSWORD, "203.0.113.9")).json<{ code: number }>().code).toBe(1);
  });

  it("verification codes: after 30 wrong codes the address is refused 'too many requests'", async () => {
    const register = (lang: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/card-user/register",
        remoteAddress: "198.51.100.20",
        headers: { lang },
        payload: {
          email: uniqueEmail("code"),
          emailCode: "000000",
          password: STRONG_PASSWORD,
          confirmPassword: STRONG_PASSWORD,
          orgName: "Acme",
        },
      });
    for (let i = 0; i < ADDRESS_FAILURES; i++) expect((await register("en")).json<{ code: number }>().code).toBe(1012);
    const refused = await register("cn");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 1006, data: null, msg: "请求过于频繁" });
    const reset = await t.app.inject({
      method: "PUT",
      url: "/api/card-user/resetPassword",
      remoteAddress: "198.51.100.20",
      headers: { lang: "en" },
      payload: {
        email: uniqueEmail(),
        emailCode: "000000",
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
      },
    });
    expect(reset.json()).toMatchObject({ code: 1006, msg: "Too many requests" });
  });
});
