import { createHash } from "node:crypto";
import { AGREEMENT_TEMPLATES } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { lastCode, registerMerchant, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { addSubAccount } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();

type Signed = {
  id: string;
  kind: string;
  version: string;
  title: string;
  body: string;
  bodySha256: string;
  phone: string;
  signerEmail: string;
  ip: string | null;
};
const VERSION = AGREEMENT_TEMPLATES.reserveAuthorisation.version;
const newPhone = () => uniquePhone("139");

async function smsCode(token: string, phone: string): Promise<string> {
  const sent = await t.call("POST", "/api/card-user/sendSms", { token, body: { phone, scene: "signAgreement" } });
  expect(sent.body.code).toBe(1);
  return lastCode(t, phone);
}

describe("agreement signing", () => {
  it("lists the current agreements, signs with consent and an SMS code, keeps the text as signed", async () => {
    const m = await registerMerchant(t);
    const before = await t.call<{ kind: string; signed: unknown }[]>("GET", "/api/card-user/agreements/templates", {
      token: m.token,
      lang: "en",
    });
    expect(before.body.data.map((a) => a.kind)).toEqual(["reserveAuthorisation", "eSignature"]);
    expect(before.body.data.every((a) => a.signed === null)).toBe(true);

    const phone = newPhone();
    const res = await t.call<Signed>("POST", "/api/card-user/agreements/sign", {
      token: m.token,
      lang: "tw",
      body: {
        kind: "reserveAuthorisation",
        version: VERSION,
        consent: true,
        phone,
        smsCode: await smsCode(m.token, phone),
      },
    });
    expect(res.body.code).toBe(1);
    const body = AGREEMENT_TEMPLATES.reserveAuthorisation.body.tw;
    expect(res.body.data).toMatchObject({
      kind: "reserveAuthorisation",
      version: VERSION,
      title: "備付金賬戶授權書",
      body,
      bodySha256: createHash("sha256").update(body).digest("hex"),
      signerEmail: m.email,
      phone: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
    });
    expect(res.body.data.ip).toBeTruthy();

    const after = await t.call<{ kind: string; signed: { id: string } | null }[]>(
      "GET",
      "/api/card-user/agreements/templates",
      { token: m.token },
    );
    expect(after.body.data.find((a) => a.kind === "reserveAuthorisation")?.signed?.id).toBe(res.body.data.id);
    const one = await t.call<Signed>("GET", `/api/card-user/agreements/${res.body.data.id}`, { token: m.token });
    expect(one.body.data.body).toBe(body);

    // The same version once only.
    const again = await t.call("POST", "/api/card-user/agreements/sign", {
      token: m.token,
      body: { kind: "reserveAuthorisation", version: VERSION, consent: true, phone, smsCode: "123456" },
    });
    expect(again.status).toBe(409);
  });

  it("needs consent, a phone and a valid code; an old version is refused; nothing is stored", async () => {
    const m = await registerMerchant(t);
    const phone = newPhone();
    const base = {
      kind: "eSignature",
      version: AGREEMENT_TEMPLATES.eSignature.version,
      consent: true,
      phone,
      smsCode: "000000",
    };
    const cases: [Record<string, unknown>, { cn: string; en: string }][] = [
      [{ consent: false }, { cn: "请阅读并勾选同意协议", en: "Please read the agreement and tick to agree" }],
      [{ phone: "" }, { cn: "手机号不能为空", en: "Mobile number cannot be empty" }],
      [{ smsCode: "" }, { cn: "短信验证码不能为空", en: "SMS verification code cannot be empty" }],
      [{}, { cn: "验证码错误或已失效", en: "The verification code is wrong or has expired" }],
      [
        { version: "2020.1" },
        {
          cn: "协议已更新，请阅读最新版本后再签署",
          en: "The agreement has been updated; please read the current version before signing",
        },
      ],
    ];
    for (const [overrides, messages] of cases) {
      for (const lang of ["cn", "en"] as const) {
        const res = await t.call("POST", "/api/card-user/agreements/sign", {
          token: m.token,
          lang,
          body: { ...base, ...overrides },
        });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.body.msg).toBe(messages[lang]);
      }
    }
    expect((await t.call<unknown[]>("GET", "/api/card-user/agreements", { token: m.token })).body.data).toEqual([]);
  });

  it("tenancy: another merchant cannot read a signed agreement; sub-accounts cannot sign", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const phone = newPhone();
    const signed = await t.call<Signed>("POST", "/api/card-user/agreements/sign", {
      token: a.token,
      body: {
        kind: "eSignature",
        version: AGREEMENT_TEMPLATES.eSignature.version,
        consent: true,
        phone,
        smsCode: await smsCode(a.token, phone),
      },
    });
    expect((await t.call("GET", `/api/card-user/agreements/${signed.body.data.id}`, { token: b.token })).status).toBe(
      404,
    );
    expect((await t.call<unknown[]>("GET", "/api/card-user/agreements", { token: b.token })).body.data).toEqual([]);

    const sub = await addSubAccount(t, b.token, ["sale/ApiSecurity"]);
    const subPhone = newPhone();
    const res = await t.call("POST", "/api/card-user/agreements/sign", {
      token: sub.token,
      body: {
        kind: "eSignature",
        version: AGREEMENT_TEMPLATES.eSignature.version,
        consent: true,
        phone: subPhone,
        smsCode: await smsCode(sub.token, subPhone),
      },
    });
    expect(res.status).toBe(403);
    expect((await t.call("GET", "/api/card-user/agreements")).status).toBe(401);
  });
});
