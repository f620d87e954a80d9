import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { addSubAccount, form } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();

type Sub = { passportId: string; email: string; name: string; menus: string[]; disabled: boolean };

describe("sub-accounts", () => {
  it("the owner adds a sub-account that logs in with its own password and reaches only its pages", async () => {
    const owner = await registerMerchant(t);
    const sub = await addSubAccount(t, owner.token, ["sale/ApiSecurity", "business/BasicInfo"]);

    expect((await t.call("GET", "/api/card-user/myMenus", { token: sub.token })).body.data).toEqual({
      menus: ["sale/ApiSecurity", "business/BasicInfo"],
    });
    expect((await t.call("GET", "/api/card-user/myMenus", { token: owner.token })).body.data).toEqual({ menus: null });

    // Given: the API page and the profile; not given: real-name.
    expect((await t.call("GET", "/api/card-brander/brander/api", { token: sub.token })).status).toBe(200);
    expect((await t.call("GET", "/api/card-brander/brander/profile", { token: sub.token })).status).toBe(200);
    expect((await t.call("GET", "/api/card-brander/realNameInfo", { token: sub.token })).status).toBe(403);
    expect((await t.call("GET", "/api/card-user/realNameAuths/paymentAccount", { token: sub.token })).status).toBe(403);

    // Its actions are its own: the session belongs to the sub-account's user.
    const info = await t.call<{ userId: string; merchant: { merchantId: string } }>("GET", "/api/card-user/userInfo", {
      token: sub.token,
    });
    expect(info.body.data.userId).toBe(sub.passportId);
    expect(info.body.data.merchant.merchantId).toBe(owner.merchantId);
  });

  it("only the main account manages sub-accounts", async () => {
    const owner = await registerMerchant(t);
    const sub = await addSubAccount(t, owner.token, ["sale/ApiSecurity"]);
    const add = await t.call("POST", "/api/card-brander/passport/sub/add", {
      token: sub.token,
      lang: "en",
      body: { email: uniqueEmail(), name: "Nope", password: STRONG_PASSWORD, menus: ["sale/ApiSecurity"] },
    });
    expect(add.status).toBe(403);
    expect(add.body.msg).toBe("Only the main account can manage sub-accounts");
    // It cannot widen its own menus either.
    const widen = await t.call("PUT", "/api/card-brander/passport/sub/update", {
      token: sub.token,
      ...form({ passportId: sub.passportId, menus: "sale/ApiSecurity,sale/Authentication" }),
    });
    expect(widen.status).toBe(403);
    expect((await t.call("GET", "/api/card-user/myMenus", { token: sub.token })).body.data).toEqual({
      menus: ["sale/ApiSecurity"],
    });
  });

  it("validates menus, names and e-mails in three languages", async () => {
    const owner = await registerMerchant(t);
    const base = { email: uniqueEmail(), name: "Clerk", password: STRONG_PASSWORD, menus: ["sale/ApiSecurity"] };
    const cases: [Record<string, unknown>, { cn: string; tw: string; en: string }][] = [
      [{ menus: [] }, { cn: "请至少选择一个菜单", tw: "請至少選擇一個菜單", en: "Choose at least one menu" }],
      [
        { menus: ["providers/EssentialInfo"] },
        {
          cn: "不可分配的菜单：providers/EssentialInfo",
          tw: "不可分配的菜單：providers/EssentialInfo",
          en: "This menu cannot be given: providers/EssentialInfo",
        },
      ],
      [
        { name: "X" },
        {
          cn: "子账号名称须为2-30个字符",
          tw: "子賬號名稱須為2-30個字符",
          en: "The sub-account name must be 2-30 characters",
        },
      ],
      [
        { password: "weakpassword" },
        { cn: "密码强度弱，请重新设置", tw: "密碼強度弱，請重新設置", en: "Password strength is weak, please reset" },
      ],
    ];
    for (const [overrides, messages] of cases) {
      for (const lang of ["cn", "tw", "en"] as const) {
        const res = await t.call("POST", "/api/card-brander/passport/sub/add", {
          token: owner.token,
          lang,
          body: { ...base, ...overrides },
        });
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe(messages[lang]);
      }
    }
    const taken = await t.call("POST", "/api/card-brander/passport/sub/add", {
      token: owner.token,
      body: { ...base, email: (await registerMerchant(t)).email },
    });
    expect(taken.status).toBe(409);
    const list = await t.call<{ total: number }>("GET", "/api/card-brander/brander/passport/sub/search", {
      token: owner.token,
    });
    expect(list.body.data.total).toBe(0);
  });

  it("updates menus, name and status by form; a disabled sub-account is signed out and cannot log in", async () => {
    const owner = await registerMerchant(t);
    const sub = await addSubAccount(t, owner.token, ["sale/ApiSecurity"]);
    const upd = await t.call<Sub>("PUT", "/api/card-brander/passport/sub/update", {
      token: owner.token,
      ...form({ passportId: sub.passportId, name: "Clerk Wang", menus: "sale/Authentication" }),
    });
    expect(upd.body.data).toMatchObject({ name: "Clerk Wang", menus: ["sale/Authentication"], disabled: false });
    // The change applies to the live session at once.
    expect((await t.call("GET", "/api/card-brander/brander/api", { token: sub.token })).status).toBe(403);
    expect((await t.call("GET", "/api/card-brander/realNameInfo", { token: sub.token })).status).toBe(200);

    await t.call("PUT", "/api/card-brander/passport/sub/update", {
      token: owner.token,
      ...form({ passportId: sub.passportId, disabled: "true" }),
    });
    expect((await t.call("GET", "/api/card-brander/realNameInfo", { token: sub.token })).status).toBe(401);
    const login = await t.call("POST", "/api/card-user/login", {
      body: { email: sub.email, password: STRONG_PASSWORD },
    });
    expect(login.status).toBe(403);

    const search = await t.call<{ list: Sub[]; total: number }>(
      "GET",
      "/api/card-brander/brander/passport/sub/search?keyword=wang",
      { token: owner.token },
    );
    expect(search.body.data.total).toBe(1);
    expect(search.body.data.list[0]).toMatchObject({ email: sub.email, disabled: true });
  });

  it("another merchant can neither list nor change them", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const sub = await addSubAccount(t, a.token, ["sale/ApiSecurity"]);
    const bList = await t.call<{ total: number }>("GET", "/api/card-brander/brander/passport/sub/search", {
      token: b.token,
    });
    expect(bList.body.data.total).toBe(0);
    const change = await t.call("PUT", "/api/card-brander/passport/sub/update", {
      token: b.token,
      ...form({ passportId: sub.passportId, menus: "sale/Authentication", disabled: "true" }),
    });
    expect(change.status).toBe(404);
    // The owner itself (no menus) cannot be edited as a sub-account.
    const ownerEdit = await t.call("PUT", "/api/card-brander/passport/sub/update", {
      token: a.token,
      ...form({ passportId: a.userId, menus: "sale/ApiSecurity" }),
    });
    expect(ownerEdit.status).toBe(404);
    const aList = await t.call<{ list: Sub[] }>("GET", "/api/card-brander/brander/passport/sub/search", {
      token: a.token,
    });
    expect(aList.body.data.list[0]).toMatchObject({
      passportId: sub.passportId,
      menus: ["sale/ApiSecurity"],
      disabled: false,
    });
    expect((await t.call("GET", "/api/card-brander/brander/passport/sub/search")).status).toBe(401);
  });
});
