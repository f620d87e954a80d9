import type { MpAccount, MpLifeBrand, MpOfficialReply } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { releaseConfig } from "../../../test/kit/mall-fixtures";

const t = useTestApp();
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

type M = Awaited<ReturnType<typeof registerMerchant>>;
const O = "/api/card-user/officialAccount";
let seq = 0;

/** Runs the local platform's consent for a URL the back-office got; returns the auth code it sends back. */
async function consent(
  authUrl: string,
  nickName: string,
  expect: { platform: string; accountType: string; redirect: string },
): Promise<{ authCode: string; back: URL; appId: string }> {
  const url = new URL(authUrl);
  if (url.pathname !== `/mp-platform/${expect.platform}/authorize`) throw new Error(`consent page: ${url.pathname}`);
  const code = url.searchParams.get("pre_auth_code") ?? "";
  const info = await t.call<{ accountType: string; scopes: string[] }>(
    "GET",
    `/api/mp-platform/${expect.platform}/preauth/${encodeURIComponent(code)}`,
  );
  if (info.body.data.accountType !== expect.accountType) throw new Error(`account type ${info.body.data.accountType}`);
  const r = await t.call<{ redirect: string; appId: string }>(
    "POST",
    `/api/mp-platform/${expect.platform}/preauth/${encodeURIComponent(code)}/authorize`,
    { body: { nickName } },
  );
  if (r.body.code !== 1) throw new Error(`authorize: ${r.body.msg}`);
  const back = new URL(r.body.data.redirect);
  if (back.pathname !== expect.redirect) throw new Error(`back to ${back.pathname}`);
  return { authCode: back.searchParams.get("auth_code") ?? "", back, appId: r.body.data.appId };
}

async function bindOfficial(m: M, nickName: string) {
  const url = await t.call<{ url: string }>("GET", `${O}/authUrl?redirect=/sale/WechatOfficial`, { token: m.token });
  expect(new URL(url.body.data.url).searchParams.get("auth_type")).toBe("1");
  const c = await consent(url.body.data.url, nickName, {
    platform: "wechat",
    accountType: "official",
    redirect: "/sale/WechatOfficial",
  });
  expect(c.back.searchParams.get("bind")).toBe("official");
  return {
    ...c,
    res: await t.call<MpAccount>("PUT", `${O}/authCallback`, {
      token: m.token,
      body: { authCode: c.authCode },
      lang: "en",
    }),
  };
}

describe("official accounts (WechatOfficial, DockWechat) on the local WeChat platform", () => {
  it("authorise through the consent page, see it, set the mall menu, send a template message, unbind", async () => {
    const m = await registerMerchant(t);
    expect((await t.call<MpOfficialReply>("GET", O, { token: m.token })).body.data).toMatchObject({
      account: null,
      templates: [],
      calls: [],
    });
    const early = await t.call("POST", `${O}/templateMessage`, {
      token: m.token,
      body: { openId: "oUser123456", templateId: "OPENTM_MALL_REFUND" },
      lang: "en",
    });
    expect([early.status, early.body.msg]).toEqual([409, "Please bind an official account first"]);

    const name = `Star Official ${++seq}`;
    const { res, appId } = await bindOfficial(m, name);
    expect(res.body.data).toMatchObject({
      kind: "official",
      platform: "wechat",
      appId,
      name,
      state: "authorized",
      brandId: null,
      menu: null,
    });
    expect(res.body.data.scopes).toEqual(expect.arrayContaining(["消息管理", "自定义菜单"]));
    const shown = (await t.call<MpOfficialReply>("GET", O, { token: m.token })).body.data;
    expect(shown.account?.appId).toBe(appId);
    expect(shown.templates.map((x) => x.id)).toContain("OPENTM_MALL_ORDER_DELIVERED");

    // The menu links the released malls: none yet.
    const noMall = await t.call("POST", `${O}/menu`, { token: m.token, lang: "en" });
    expect([noMall.status, noMall.body.msg]).toEqual([409, "Please publish a mini-program mall first"]);
    const mallApp = `wxmall${Date.now().toString(16)}`;
    await releaseConfig(t, Number(m.merchantId), mallApp, 1);
    await t.ctx.database.db
      .updateTable("mp_configs")
      .set({ publish_state: "published" })
      .where("app_id", "=", mallApp)
      .execute();
    const menu = await t.call<MpAccount>("POST", `${O}/menu`, { token: m.token });
    expect(menu.body.data.menu).toEqual([
      { name: "Star Mall", url: expect.stringMatching(new RegExp(`/mall/${mallApp}$`)) as unknown },
    ]);

    // Template messages: bad input refused with the spec's texts or the platform's code; a good one recorded.
    for (const [lang, msg] of [
      ["cn", "请输入接收者OpenID"],
      ["tw", "請輸入接收者OpenID"],
      ["en", "Please enter the recipient's OpenID"],
    ] as const) {
      const bad = await t.call("POST", `${O}/templateMessage`, {
        token: m.token,
        body: { openId: " ", templateId: "OPENTM_MALL_REFUND" },
        lang,
      });
      expect([bad.status, bad.body.msg]).toEqual([400, msg]);
    }
    const wrongTpl = await t.call("POST", `${O}/templateMessage`, {
      token: m.token,
      body: { openId: "oUser123456", templateId: "NOPE" },
      lang: "en",
    });
    expect([wrongTpl.status, wrongTpl.body.msg]).toEqual([409, "The message template id is invalid (40037)"]);
    const sent = await t.call<{ msgId: string }>("POST", `${O}/templateMessage`, {
      token: m.token,
      body: { openId: "oUser123456", templateId: "OPENTM_MALL_ORDER_DELIVERED" },
    });
    expect(sent.body.data.msgId).toMatch(/^\d+$/);
    const calls = (await t.call<MpOfficialReply>("GET", O, { token: m.token })).body.data.calls;
    expect(calls.map((c) => c.operation)).toEqual(["cgi-bin/message/template/send", "cgi-bin/menu/create"]);
    expect(calls[0]?.payload).toMatchObject({
      touser: "oUser123456",
      template_id: "OPENTM_MALL_ORDER_DELIVERED",
      url: expect.stringContaining(`/mall/${mallApp}`) as unknown,
    });

    // Two hours on, the access token is refreshed on use.
    const before = await t.ctx.database.db
      .selectFrom("mp_accounts")
      .select("access_token")
      .where("app_id", "=", appId)
      .executeTakeFirstOrThrow();
    t.clock.advance(2 * 3600 + 60);
    expect((await t.call("POST", `${O}/menu`, { token: m.token })).body.code).toBe(1);
    t.clock.advance(-(2 * 3600 + 60));
    const after = await t.ctx.database.db
      .selectFrom("mp_accounts")
      .select("access_token")
      .where("app_id", "=", appId)
      .executeTakeFirstOrThrow();
    expect(after.access_token).not.toBe(before.access_token);

    const unbound = await t.call("DELETE", O, { token: m.token });
    expect(unbound.body.data).toEqual({ unbound: true });
    expect((await t.call<MpOfficialReply>("GET", O, { token: m.token })).body.data.account?.state).toBe("unbound");
    expect((await t.call("DELETE", O, { token: m.token })).status).toBe(404);
    expect((await t.call("POST", `${O}/menu`, { token: m.token })).status).toBe(409);
  });

  it("tenancy: another merchant sees none of it and cannot bind the same account; a mini-program's consent is not an official account", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const name = `Shared Official ${++seq}`;
    expect((await bindOfficial(a, name)).res.body.code).toBe(1);
    expect((await t.call<MpOfficialReply>("GET", O, { token: b.token })).body.data.account).toBeNull();
    expect((await t.call("DELETE", O, { token: b.token })).status).toBe(404);
    // The same official account (same name on the platform) consented again for b: the platform's page refuses
    // it (a's account, a's tokens untouched), so b never gets a code to bind it with.
    const tokensOfA = () =>
      t.ctx.database.db
        .selectFrom("mp_sim_apps")
        .select(["access_token", "refresh_token"])
        .where("nick_name", "=", name)
        .where("account_type", "=", "official")
        .executeTakeFirstOrThrow();
    const before = await tokensOfA();
    const url = await t.call<{ url: string }>("GET", `${O}/authUrl?redirect=/sale/WechatOfficial`, { token: b.token });
    const code = encodeURIComponent(new URL(url.body.data.url).searchParams.get("pre_auth_code") ?? "");
    const taken = await t.call("POST", `/api/mp-platform/wechat/preauth/${code}/authorize`, {
      body: { nickName: name },
      lang: "en",
    });
    expect([taken.status, taken.body.msg]).toEqual([
      409,
      "This account is authorised by another merchant: only that merchant can authorise it again, and nothing was changed",
    ]);
    expect(await tokensOfA()).toEqual(before);
    expect((await t.call<MpOfficialReply>("GET", O, { token: a.token })).body.data.account?.state).toBe("authorized");

    // A mini-program's consent (auth_type 2) gives a mini-program: refused as an official account.
    const cfg = await t.call<{ id: string }>("PUT", "/api/card-user/miniProgram/mpConfigs", {
      token: b.token,
      body: {
        platform: "wechat",
        configCode: `cfg-${++seq}`,
        name: "B Mall",
        category: "Virtual goods",
        description: "d",
        theme: 1,
        navMenus: [{ title: "Home", target: "/" }],
        bottomMenus: [{ title: "Mall", target: "/" }],
        customerService: "400-800-1234",
        domain: "b.example",
        smsSignature: "B",
        payOnPlatform: false,
        validityDays: 30,
        allowTopupAccountChange: false,
      },
    });
    expect(cfg.body.code).toBe(1);
    const mpUrl = await t.call<{ url: string }>(
      "GET",
      `/api/card-user/miniProgram/authUrl?configId=${cfg.body.data.id}&redirect=/sale/EquityApplet`,
      { token: b.token },
    );
    expect(new URL(mpUrl.body.data.url).searchParams.get("auth_type")).toBe("2");
    const mini = await consent(mpUrl.body.data.url, `B Mini ${seq}`, {
      platform: "wechat",
      accountType: "miniprogram",
      redirect: "/sale/EquityApplet",
    });
    const wrong = await t.call("PUT", `${O}/authCallback`, {
      token: b.token,
      body: { authCode: mini.authCode },
      lang: "en",
    });
    expect([wrong.status, wrong.body.msg]).toEqual([
      409,
      "The authorised account is of another type: please authorise again",
    ]);
  });

  it("the account cancelled on the platform (push unauthorized) is no longer bound", async () => {
    const m = await registerMerchant(t);
    const { appId } = await bindOfficial(m, `Cancel Official ${++seq}`);
    const revoked = await t.call<{ revoked: boolean }>("PUT", `/api/ops/miniprogram/wechat/apps/${appId}/revoke`, {
      token: ops.token,
    });
    expect(revoked.body.data.revoked).toBe(true);
    expect((await t.call<MpOfficialReply>("GET", O, { token: m.token })).body.data.account?.state).toBe("unauthorized");
    const refused = await t.call("POST", `${O}/templateMessage`, {
      token: m.token,
      body: { openId: "oUser123456", templateId: "OPENTM_MALL_REFUND" },
      lang: "en",
    });
    expect(refused.body.msg).toBe("Please bind an official account first");
    // Authorising again binds it again.
    expect((await bindOfficial(m, `Cancel Official ${seq}`)).res.body.data.state).toBe("authorized");
  });
});

/** A merchant an operator made a service provider. */
async function providerMerchant(name: string): Promise<M> {
  const p = await registerMerchant(t, { orgName: name });
  const granted = await t.call<{ roles: string[] }>("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, {
    token: ops.token,
    body: { grant: true },
  });
  expect(granted.body.data.roles).toContain("providers");
  return p;
}

describe("local-life accounts (LocaLivePlatform) on the local Douyin platform", () => {
  it("a provider authorises the brands it serves, sees them with their state, unbinds; never other brands or providers'", async () => {
    const provider = await providerMerchant("Harbour Life Services");
    const brand = await registerMerchant(t, { orgName: "Noodle Brand Co" });
    const stranger = await registerMerchant(t, { orgName: "Not Served Co" });
    const bind = await t.call("POST", "/api/card-servicer/brander/service", {
      token: brand.token,
      body: { providerId: provider.merchantId, kind: "brand" },
    });
    expect(bind.body.code).toBe(1);
    const L = "/api/card-user/localLife";
    const list0 = await t.call<{ list: MpLifeBrand[] }>("GET", `${L}/brands`, { token: provider.token });
    expect(list0.body.data.list).toEqual([{ brandId: brand.merchantId, brandName: "Noodle Brand Co", account: null }]);

    const notServed = await t.call(
      "GET",
      `${L}/authUrl?redirect=/providers/LocaLivePlatform&brandId=${stranger.merchantId}`,
      { token: provider.token, lang: "en" },
    );
    expect([notServed.status, notServed.body.msg]).toEqual([409, "You can only authorise brands you serve"]);
    const url = await t.call<{ url: string }>(
      "GET",
      `${L}/authUrl?redirect=/providers/LocaLivePlatform&brandId=${brand.merchantId}`,
      { token: provider.token },
    );
    const c = await consent(url.body.data.url, `Noodle Life ${++seq}`, {
      platform: "douyin",
      accountType: "life",
      redirect: "/providers/LocaLivePlatform",
    });
    expect(c.back.searchParams.get("brandId")).toBe(brand.merchantId);
    expect(c.appId).toMatch(/^dl/);
    const bound = await t.call<MpAccount>("PUT", `${L}/authCallback`, {
      token: provider.token,
      body: { authCode: c.authCode, brandId: Number(brand.merchantId) },
    });
    expect(bound.body.data).toMatchObject({
      kind: "life",
      platform: "douyin",
      brandId: brand.merchantId,
      state: "authorized",
    });
    expect(bound.body.data.scopes).toContain("团购券核销");
    const list1 = await t.call<{ list: MpLifeBrand[] }>("GET", `${L}/brands`, { token: provider.token });
    expect(list1.body.data.list[0]?.account?.state).toBe("authorized");

    // Another provider sees nothing of it and cannot bind for a brand it does not serve.
    const other = await providerMerchant("Other Services");
    expect(
      (await t.call<{ list: MpLifeBrand[] }>("GET", `${L}/brands`, { token: other.token })).body.data.list,
    ).toEqual([]);
    expect(
      (
        await t.call("PUT", `${L}/authCallback`, {
          token: other.token,
          body: { authCode: c.authCode, brandId: Number(brand.merchantId) },
        })
      ).status,
    ).toBe(409);
    expect((await t.call("DELETE", `${L}/${brand.merchantId}`, { token: other.token })).status).toBe(409);

    expect((await t.call("DELETE", `${L}/${brand.merchantId}`, { token: provider.token })).body.data).toEqual({
      unbound: true,
    });
    expect(
      (await t.call<{ list: MpLifeBrand[] }>("GET", `${L}/brands`, { token: provider.token })).body.data.list[0]
        ?.account?.state,
    ).toBe("unbound");
  });
});
