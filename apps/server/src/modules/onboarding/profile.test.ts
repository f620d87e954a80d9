import { describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { multipart, pngImage } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();

const PROFILE = "/api/card-brander/brander/profile";
const full = {
  companyName: "Blue Harbour Trading Co",
  legalRepresentative: "张三",
  contactName: "Li Si",
  contactPhone: "13800138000",
  contactEmail: "Ops@BlueHarbour.example",
  address: "1 Harbour Road, Shanghai",
};

describe("company profile", () => {
  it("reads the defaults, saves the fields, lower-cases the e-mail", async () => {
    const m = await registerMerchant(t, { orgName: "Acme" });
    const before = await t.call("GET", PROFILE, { token: m.token });
    expect(before.body).toMatchObject({
      code: 1,
      data: { merchantId: m.merchantId, companyName: "Acme", legalRepresentative: null, industry: null, logoUrl: null },
    });
    const saved = await t.call("POST", `${PROFILE}/update`, { token: m.token, body: full });
    expect(saved.body).toMatchObject({ code: 1, data: { ...full, contactEmail: "ops@blueharbour.example" } });
    const info = await t.call<{ merchant: { name: string } }>("GET", "/api/card-user/userInfo", { token: m.token });
    expect(info.body.data.merchant.name).toBe(full.companyName);
  });

  const cases: [string, Record<string, string>, { cn: string; tw: string; en: string }][] = [
    [
      "company name empty",
      { companyName: " " },
      { cn: "公司名称不能为空", tw: "公司名稱不能為空", en: "Company name cannot be empty" },
    ],
    [
      "legal representative with digits",
      { legalRepresentative: "Zhang 3" },
      {
        cn: "法定代表人姓名须为2-30个字母或汉字",
        tw: "法定代表人姓名須為2-30個字母或漢字",
        en: "The legal representative's name must be 2-30 letters or Chinese characters",
      },
    ],
    [
      "contact phone",
      { contactPhone: "12345" },
      { cn: "请输入正确的手机号", tw: "請輸入正確的手機號", en: "Please enter a correct mobile number" },
    ],
    [
      "address too long",
      { address: "x".repeat(201) },
      { cn: "地址不能超过200个字符", tw: "地址不能超過200個字符", en: "Address cannot exceed 200 characters" },
    ],
  ];
  for (const [name, overrides, messages] of cases) {
    it(`refuses ${name} in three languages and changes nothing`, async () => {
      const m = await registerMerchant(t, { orgName: "Before Co" });
      for (const lang of ["cn", "tw", "en"] as const) {
        const res = await t.call("POST", `${PROFILE}/update`, {
          token: m.token,
          lang,
          body: { ...full, ...overrides },
        });
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe(messages[lang]);
      }
      expect((await t.call<{ companyName: string }>("GET", PROFILE, { token: m.token })).body.data.companyName).toBe(
        "Before Co",
      );
    });
  }

  it("sets the industry only for the caller's own merchant", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const own = await t.call("PUT", `/api/card-user/realNameAuths/${a.merchantId}/industries`, {
      token: a.token,
      body: { industry: "telecom" },
    });
    expect(own.body).toMatchObject({ code: 1, data: { industry: "telecom" } });
    const other = await t.call("PUT", `/api/card-user/realNameAuths/${a.merchantId}/industries`, {
      token: b.token,
      body: { industry: "retail" },
    });
    expect(other.status).toBe(403);
    expect((await t.call<{ industry: string }>("GET", PROFILE, { token: a.token })).body.data.industry).toBe("telecom");
    const bad = await t.call("PUT", `/api/card-user/realNameAuths/${a.merchantId}/industries`, {
      token: a.token,
      lang: "en",
      body: { industry: "piracy" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Please choose an industry");
  });

  it("stores the logo as a WebP thumbnail and serves it only to its merchant", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const mp = multipart(await pngImage());
    const res = await t.call<{ logoUrl: string }>("POST", `${PROFILE}/logo`, {
      token: a.token,
      body: mp.body,
      headers: mp.headers,
    });
    expect(res.body.code).toBe(1);
    expect(res.body.data.logoUrl).toMatch(/^\/api\/card-brander\/brander\/profile\/logo\?v=\d+$/);
    const logo = await t.app.inject({
      method: "GET",
      url: res.body.data.logoUrl,
      headers: { "x-auth-token": a.token },
    });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/webp");
    expect(logo.rawPayload.subarray(8, 12).toString("ascii")).toBe("WEBP");
    // b has no logo of its own and cannot reach a's.
    expect((await t.call("GET", `${PROFILE}/logo`, { token: b.token })).status).toBe(404);
  });

  it("once verified, the company name changes only through a new verification", async () => {
    const m = await registerMerchant(t, { orgName: "Verified Co" });
    await t.ctx.database.db
      .updateTable("merchants")
      .set({ real_name_state: "verified" })
      .where("id", "=", Number(m.merchantId))
      .execute();
    const rename = await t.call("POST", `${PROFILE}/update`, {
      token: m.token,
      body: { ...full, companyName: "Other Name" },
    });
    expect(rename.status).toBe(403);
    const keep = await t.call("POST", `${PROFILE}/update`, {
      token: m.token,
      body: { ...full, companyName: "Verified Co" },
    });
    expect(keep.body.code).toBe(1);
  });

  it("needs a session (401)", async () => {
    expect((await t.call("GET", PROFILE)).status).toBe(401);
    expect((await t.call("POST", `${PROFILE}/update`, { body: full })).status).toBe(401);
  });
});
