import { describe, expect, it } from "vitest";
import { lastCode, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { ADDRESS_FAILURES } from "../accounts";

/**
 * Issue 38, item 6: the customer SMS login and the card-password reset code are behind the merchant
 * login's per-address failure limit (30 wrong in 15 minutes, then 429), so guessing codes across many
 * phones or cards from one address gets nowhere.
 */
const t = useTestApp();

const newPhone = () => uniquePhone("13");

async function post(
  url: string,
  remoteAddress: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({ method: "POST", url, remoteAddress, headers: { lang: "en", ...headers }, payload });
  return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: unknown }>() };
}

describe("per-address failure limits", () => {
  it("the customer login refuses an address after 30 wrong codes across phones, even with a right code, while other addresses log in", async () => {
    const from = "198.51.100.61";
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      const wrong = await post("/api/mall/customer/login", from, { phone: newPhone(), smsCode: "000000" });
      expect(wrong.status, `attempt ${i + 1}`).toBe(400);
      expect(wrong.body.msg).toMatch(/code/i);
    }
    const phone = newPhone();
    expect((await post("/api/mall/customer/sendSms", "198.51.100.99", { phone })).body.code).toBe(1);
    const code = await lastCode(t, phone);
    const refused = await post("/api/mall/customer/login", from, { phone, smsCode: code });
    expect([refused.status, refused.body.msg]).toEqual([429, "Too many requests"]);
    // The right code is still good from elsewhere: the limit is the address's, not the phone's.
    const elsewhere = await post("/api/mall/customer/login", "198.51.100.62", { phone, smsCode: code });
    expect(elsewhere.body.code).toBe(1);
    // Successes do not count: an address that logs in many times is never refused.
    for (let i = 0; i < ADDRESS_FAILURES + 2; i++) {
      const p = newPhone();
      await post("/api/mall/customer/sendSms", "198.51.100.63", { phone: p });
      expect(
        (await post("/api/mall/customer/login", "198.51.100.63", { phone: p, smsCode: await lastCode(t, p) })).body
          .code,
      ).toBe(1);
    }
  });

  it("the card password reset refuses an address after 30 wrong codes or unknown cards", async () => {
    const from = "198.51.100.71";
    // A code reset needs the customer's session (issue 38 item 7): a logged-in customer guessing.
    const phone = newPhone();
    await post("/api/mall/customer/sendSms", "198.51.100.70", { phone });
    const login = await post("/api/mall/customer/login", "198.51.100.70", { phone, smsCode: await lastCode(t, phone) });
    const session = { "x-customer-token": (login.body.data as { token: string }).token };
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      // Unknown card numbers (16 digits): the same answer as a wrong code, and counted the same.
      const cardNo = `62${String(1_000_000_000_000 + i * 7).padStart(14, "0")}`;
      const wrong = await post(
        "/api/card-public/onecard/resetPwd",
        from,
        { cardNo, smsCode: "123456", password: "abc12345" },
        session,
      );
      expect(wrong.status, `attempt ${i + 1}`).toBe(400);
    }
    const refused = await post(
      "/api/card-public/onecard/resetPwd",
      from,
      { cardNo: "6200000000000001", smsCode: "123456", password: "abc12345" },
      session,
    );
    expect([refused.status, refused.body.msg]).toEqual([429, "Too many requests"]);
    // A malformed request is a 400 that counts nothing: another address is unaffected either way.
    expect(
      (
        await post("/api/card-public/onecard/resetPwd", "198.51.100.72", {
          cardNo: "6200000000000001",
          smsCode: "123456",
          password: "abc12345",
        })
      ).status,
    ).toBe(400);
  });
});
