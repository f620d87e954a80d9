import QRCode from "qrcode";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { ERR } from "../../platform/adapters/miniprogram";
import { LocalPlatform } from "../../platform/adapters/miniprogram";

const t = useTestApp({ MP_AUDIT_QUOTA: "12", MP_PRIVACY_SCAN_SECONDS: "30" });
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

interface V {
  id: string;
  state: string;
  userVersion: string;
  auditId: string | null;
  reason: string | null;
  screenshots: string[];
}
interface C {
  id: string;
  platform: string;
  appId: string | null;
  authorized: boolean;
  auditState: string;
  publishState: string;
  trial: V | null;
  audit: V | null;
  online: V | null;
  changedSinceCommit: boolean;
  theme: number;
}
type M = Awaited<ReturnType<typeof registerMerchant>>;
const U = "/api/card-user/miniProgram";
let seq = 0;
const PNG_1PX =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

async function template(platform: "wechat" | "douyin", templateType: 0 | 1 = 0): Promise<string> {
  const r = await t.call<{ id: string }>("POST", "/api/ops/miniprogram/templates", {
    token: ops.token,
    body: {
      platform,
      name: `Mall ${platform} ${++seq}`,
      templateType,
      userVersion: "1.0.0",
      description: "equity mall",
      params: [{ key: "banner", label: "Banner", type: "text", default: "Welcome" }],
    },
  });
  expect(r.body.code).toBe(1);
  return r.body.data.id;
}

function configBody(over: Record<string, unknown> = {}) {
  return {
    configCode: `cfg-${++seq}`,
    name: "Acme Equity Mall",
    category: "Virtual goods",
    description: "Equity cards and gift packs",
    theme: 2,
    navMenus: [
      { title: "Home", target: "/" },
      { title: "Gift packs", target: "/bags" },
    ],
    bottomMenus: [
      { title: "Mall", target: "/" },
      { title: "Orders", target: "/orders" },
    ],
    customerService: "400-800-1234",
    domain: "mall.acme.example",
    smsSignature: "Acme",
    payOnPlatform: true,
    validityDays: 365,
    allowTopupAccountChange: true,
    ...over,
  };
}

/** Creates a config, runs the local consent page and binds the app. */
async function authorisedConfig(m: M, platform: "wechat" | "douyin" = "wechat", tplId?: string): Promise<C> {
  const created = await t.call<C>("PUT", `${U}/mpConfigs`, { token: m.token, body: { ...configBody(), platform } });
  expect(created.body.code).toBe(1);
  const id = created.body.data.id;
  expect(
    (await t.call<{ needAuth: boolean }>("GET", `${U}/needAuth?configId=${id}`, { token: m.token })).body.data.needAuth,
  ).toBe(true);
  const auth = await t.call<{ url: string }>("GET", `${U}/authUrl?configId=${id}&redirect=/sale/EquityApplet`, {
    token: m.token,
  });
  const url = new URL(auth.body.data.url);
  expect(url.pathname).toBe(`/mp-platform/${platform}/authorize`);
  const code = url.searchParams.get("pre_auth_code") ?? "";
  const info = await t.call<{ expired: boolean; used: boolean }>(
    "GET",
    `/api/mp-platform/${platform}/preauth/${encodeURIComponent(code)}`,
  );
  expect(info.body.data).toMatchObject({ expired: false, used: false });
  const consent = await t.call<{ redirect: string; appId: string }>(
    "POST",
    `/api/mp-platform/${platform}/preauth/${encodeURIComponent(code)}/authorize`,
    { body: { nickName: `App ${++seq}` } },
  );
  expect(consent.body.code).toBe(1);
  const back = new URL(consent.body.data.redirect);
  expect(back.pathname).toBe("/sale/EquityApplet");
  expect(back.searchParams.get("configId")).toBe(id);
  // The code is used once.
  expect(
    (
      await t.call("POST", `/api/mp-platform/${platform}/preauth/${encodeURIComponent(code)}/authorize`, {
        body: { nickName: "again" },
        lang: "en",
      })
    ).body.msg,
  ).toMatch(/expired or was used/);
  const bound = await t.call<C>("PUT", `${U}/authCallback`, {
    token: m.token,
    body: { configId: Number(id), authCode: back.searchParams.get("auth_code") },
  });
  expect(bound.body.data).toMatchObject({ appId: consent.body.data.appId, authorized: true });
  const tpl = tplId ?? (await template(platform));
  const params = await t.call("POST", `${U}/templateParams`, {
    token: m.token,
    body: { configId: Number(id), templateId: Number(tpl), values: { banner: "Big sale", unknown: "dropped" } },
  });
  expect(params.body.data).toMatchObject({ templateId: tpl, values: { banner: "Big sale" } });
  return (await t.call<C>("GET", `${U}/mpConfigs/${id}`, { token: m.token })).body.data;
}

const commit = (m: M, id: string, userVersion: string, force = false) =>
  t.call<C>("PUT", `${U}/mpConfigs/${id}/commit`, {
    token: m.token,
    body: { userVersion, userDesc: "first", force },
    lang: "en",
  });
const submit = (m: M, id: string) =>
  t.call<C>("PUT", `${U}/mpConfig/${id}/submit`, {
    token: m.token,
    body: { categories: [{ firstClass: "商家自营", secondClass: "虚拟卡券" }], versionDesc: "mall" },
    lang: "en",
  });
const pending = async (platform: string, appId: string) => {
  const r = await t.call<{ list: { auditId: string; appId: string; status: number }[] }>(
    "GET",
    `/api/ops/miniprogram/${platform}/audits?status=2&pageSize=100`,
    { token: ops.token },
  );
  const a = r.body.data.list.find((x) => x.appId === appId);
  if (!a) throw new Error("no pending audit");
  return a.auditId;
};

describe("the WeChat flow on the local platform", () => {
  it("authorise, commit, beta QR, submit, reject with screenshots, fix, resubmit, approve, release, rollback", async () => {
    const m = await registerMerchant(t);
    const cfg = await authorisedConfig(m);
    const appId = cfg.appId ?? "";
    expect(cfg.changedSinceCommit).toBe(true);

    // Bad input: submit without a committed version, release before approval.
    expect((await submit(m, cfg.id)).body.msg).toMatch(/85086/);
    expect((await t.call("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: m.token, lang: "en" })).body.msg).toMatch(
      /85020/,
    );
    expect((await t.call("GET", `${U}/mpConfig/${cfg.id}/betaQrcode`, { token: m.token, lang: "en" })).body.msg).toBe(
      "Upload the code first to get an experience version",
    );

    const c1 = await commit(m, cfg.id, "1.0.0");
    expect(c1.body.data).toMatchObject({
      trial: { userVersion: "1.0.0", state: "trial" },
      changedSinceCommit: false,
      auditState: "not_submitted",
    });
    // Unchanged config: refused unless forced.
    expect((await commit(m, cfg.id, "1.0.1")).body.msg).toMatch(/tick force upload/);
    expect((await commit(m, cfg.id, "1.0.1", true)).body.data.trial?.userVersion).toBe("1.0.1");

    // The beta QR is a PNG of the preview URL; the mall sees the experience version.
    const qr = await t.call<{ url: string; dataUrl: string }>("GET", `${U}/mpConfig/${cfg.id}/betaQrcode`, {
      token: m.token,
    });
    expect(qr.body.data.url).toMatch(new RegExp(`/mall/${appId}\\?v=beta$`));
    const expected = await QRCode.toDataURL(qr.body.data.url, {
      type: "image/png",
      width: 430,
      margin: 2,
      errorCorrectionLevel: "M",
    });
    expect(qr.body.data.dataUrl).toBe(expected);

    // The privacy scan: a submit right after the commit gets 61039, nothing changes.
    expect((await submit(m, cfg.id)).body.msg).toMatch(/61039/);
    expect((await t.call<C>("GET", `${U}/mpConfigs/${cfg.id}`, { token: m.token })).body.data.auditState).toBe(
      "not_submitted",
    );
    t.clock.advance(31);
    const cats = await t.call<{ list: { firstClass: string }[] }>("GET", `${U}/mpConfig/${cfg.id}/categories`, {
      token: m.token,
    });
    expect(cats.body.data.list.length).toBeGreaterThan(0);
    const s1 = await submit(m, cfg.id);
    expect(s1.body.data).toMatchObject({ auditState: "auditing", audit: { state: "auditing", userVersion: "1.0.1" } });
    // A second submit while under review: 85009, nothing changed.
    expect((await submit(m, cfg.id)).body.msg).toMatch(/85009/);
    expect((await t.call("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: m.token, lang: "en" })).body.msg).toMatch(
      /85020/,
    );

    // The operator rejects with a reason and a screenshot.
    const auditId = await pending("wechat", appId);
    const bad = await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${auditId}/reject`, {
      token: ops.token,
      body: { reason: "" },
      lang: "en",
    });
    expect(bad.body.msg).toBe("Please enter the rejection reason");
    const rej = await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${auditId}/reject`, {
      token: ops.token,
      body: { reason: "Customer service number missing on the home page", screenshots: [PNG_1PX] },
    });
    expect(rej.body.code).toBe(1);
    // The console's audit log lists the operator's decision with its reason (issue 40, item 16).
    const logged = await t.call<{ list: { action: string; reason: string | null }[] }>(
      "GET",
      `/api/ops/auditLog?subjectType=mp_audit&subjectId=wechat:${auditId}`,
      { token: ops.token },
    );
    expect(logged.body.data.list).toMatchObject([
      { action: "miniprogram.review.rejected", reason: "Customer service number missing on the home page" },
    ]);
    expect(
      (await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${auditId}/approve`, { token: ops.token, lang: "en" }))
        .body.msg,
    ).toBe("This audit was already decided");
    const rejected = (await t.call<C>("GET", `${U}/mpConfigs/${cfg.id}`, { token: m.token })).body.data;
    expect(rejected).toMatchObject({
      auditState: "rejected",
      audit: { state: "rejected", reason: "Customer service number missing on the home page" },
    });
    const shot = rejected.audit?.screenshots[0] ?? "";
    const img = await t.app.inject({
      method: "GET",
      url: `${U}/screenshots/${shot}`,
      headers: { "x-auth-token": m.token },
    });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/png");

    // Fix, commit, resubmit; the operator approves; release.
    const fixed = await t.call<C>("PUT", `${U}/mpConfigs`, {
      token: m.token,
      body: { ...configBody({ configCode: `fix-${seq}`, theme: 3 }), id: Number(cfg.id) },
    });
    expect(fixed.body.data.changedSinceCommit).toBe(true);
    await commit(m, cfg.id, "1.0.2");
    t.clock.advance(31);
    expect((await submit(m, cfg.id)).body.data.audit?.userVersion).toBe("1.0.2");
    const audit2 = await pending("wechat", appId);
    expect(
      (await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${audit2}/approve`, { token: ops.token })).body.code,
    ).toBe(1);
    expect((await t.call<C>("GET", `${U}/mpConfigs/${cfg.id}`, { token: m.token })).body.data.auditState).toBe(
      "approved",
    );
    const rel = await t.call<C>("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: m.token });
    expect(rel.body.data).toMatchObject({
      publishState: "published",
      online: { userVersion: "1.0.2", state: "released" },
    });
    // Released once: a second release is refused.
    expect((await t.call("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: m.token, lang: "en" })).body.msg).toMatch(
      /85020/,
    );
    // No earlier release to roll back to.
    expect((await t.call("PUT", `${U}/mpConfig/${cfg.id}/rollback`, { token: m.token, lang: "en" })).body.msg).toMatch(
      /87012/,
    );

    // Re-publish a second version, then roll back to the first release.
    await t.call("PUT", `${U}/mpConfigs`, {
      token: m.token,
      body: { ...configBody({ configCode: `fix-${seq}`, theme: 4 }), id: Number(cfg.id) },
    });
    await commit(m, cfg.id, "1.1.0");
    t.clock.advance(31);
    await submit(m, cfg.id);
    await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${await pending("wechat", appId)}/approve`, {
      token: ops.token,
    });
    await t.call("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: m.token });
    const back = await t.call<C>("PUT", `${U}/mpConfig/${cfg.id}/rollback`, { token: m.token });
    expect(back.body.data.online?.userVersion).toBe("1.0.2");
    const history = await t.call<{ list: V[] }>("GET", `${U}/mpConfig/${cfg.id}/versions`, { token: m.token });
    expect(history.body.data.list.map((v) => `${v.userVersion}:${v.state}`)).toEqual(
      ["1.1.0:rolled_back", "1.0.2:released", "1.0.1:rejected", "1.0.1:trial"].slice(0, history.body.data.list.length),
    );
  });

  it("mallAppearance: the experience version for beta, the released one for release, null otherwise", async () => {
    const m = await registerMerchant(t);
    const cfg = await authorisedConfig(m);
    const appId = cfg.appId ?? "";
    const mp = await appearanceOf(appId);
    expect(await mp("beta")).toBeNull();
    await commit(m, cfg.id, "1.0.0");
    expect(await mp("beta")).toMatchObject({
      appId,
      name: "Acme Equity Mall",
      theme: 2,
      platform: "wechat",
      navMenus: [
        { title: "Home", target: "/" },
        { title: "Gift packs", target: "/bags" },
      ],
      customerService: "400-800-1234",
      payOnPlatform: true,
      allowTopupAccountChange: true,
      validityDays: 365,
      smsSignature: "Acme",
    });
    expect(await mp("release")).toBeNull();
    t.clock.advance(31);
    await submit(m, cfg.id);
    await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${await pending("wechat", appId)}/approve`, {
      token: ops.token,
    });
    await t.call("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: m.token });
    expect(await mp("release")).toMatchObject({
      appId,
      configId: Number(cfg.id),
      merchantId: Number(m.merchantId),
      theme: 2,
    });
    expect(await mp("beta")).not.toBeNull();
    expect(await (await appearanceOf("wx-unknown"))("release")).toBeNull();
  });
});

/** The contract the mall consumes (MiniprogramModule.mallAppearance delegates to the service's), on this test's database. */
async function appearanceOf(appId: string) {
  const { MiniprogramService } = await import("./service");
  const { LocalPlatform } = await import("../../platform/adapters/miniprogram");
  const opts = { db: t.ctx.database.db, clock: t.clock, quotaLimit: 6, scanSeconds: 30 };
  const svc = new MiniprogramService({
    db: t.ctx.database.db,
    clock: t.clock,
    adapters: { wechat: new LocalPlatform("wechat", opts), douyin: new LocalPlatform("douyin", opts) },
    storage: t.ctx.storage,
  });
  return (v: "beta" | "release") => svc.mallAppearance(appId, v);
}

describe("tokens, quotas, limits", () => {
  it("an expired access token is refreshed; a revoked authorisation needs authorising again", async () => {
    const m = await registerMerchant(t);
    const cfg = await authorisedConfig(m);
    t.clock.advance(2 * 3600 + 60);
    expect((await commit(m, cfg.id, "1.0.0")).body.code).toBe(1);
    const revoke = await t.call<{ revoked: boolean }>("PUT", `/api/ops/miniprogram/wechat/apps/${cfg.appId}/revoke`, {
      token: ops.token,
    });
    expect(revoke.body.data.revoked).toBe(true);
    expect(
      (
        await t.call<{ needAuth: boolean; reason: string }>("GET", `${U}/needAuth?configId=${cfg.id}`, {
          token: m.token,
        })
      ).body.data,
    ).toMatchObject({ needAuth: true, reason: "revoked" });
    expect((await commit(m, cfg.id, "1.0.1", true)).body.msg).toBe(
      "The mini-program's authorisation was withdrawn: please authorise it again",
    );
  });

  it("withdrawals are limited (87013) and the monthly review quota is enforced (85085), nothing changed", async () => {
    const m = await registerMerchant(t);
    const cfg = await authorisedConfig(m);
    await commit(m, cfg.id, "1.0.0");
    t.clock.advance(31);
    const quota0 = (
      await t.call<{ rest: number; limit: number; withdrawTodayRest: number }>("GET", `${U}/mpConfig/${cfg.id}/quota`, {
        token: m.token,
      })
    ).body.data;
    expect(quota0.limit).toBe(12);
    expect((await t.call("PUT", `${U}/mpConfig/${cfg.id}/withdraw`, { token: m.token, lang: "en" })).body.msg).toMatch(
      /85019/,
    );
    let used = 0;
    let last = "";
    for (let i = 0; i < 8; i++) {
      const s = await submit(m, cfg.id);
      if (s.body.code !== 1) {
        last = s.body.msg;
        break;
      }
      used++;
      const w = await t.call<C>("PUT", `${U}/mpConfig/${cfg.id}/withdraw`, { token: m.token, lang: "en" });
      if (w.body.code !== 1) {
        last = w.body.msg;
        break;
      }
      expect(w.body.data.auditState).toBe("withdrawn");
    }
    // Five withdrawals a day: the sixth is refused, the audit stays under review.
    expect(last).toMatch(/87013/);
    expect(used).toBe(6);
    expect((await t.call<C>("GET", `${U}/mpConfigs/${cfg.id}`, { token: m.token })).body.data.auditState).toBe(
      "auditing",
    );
    // The quota is shared by every merchant of the platform: another merchant spends the rest.
    const other = await registerMerchant(t);
    const cfg2 = await authorisedConfig(other);
    let rest = (await t.call<{ rest: number }>("GET", `${U}/mpConfig/${cfg2.id}/quota`, { token: other.token })).body
      .data.rest;
    expect(rest).toBe(quota0.rest - 6);
    for (let v = 0; rest > 0; v++) {
      await commit(other, cfg2.id, `2.0.${v}`, true);
      t.clock.advance(31);
      expect((await submit(other, cfg2.id)).body.code).toBe(1);
      await t.call("PUT", `/api/ops/miniprogram/wechat/audits/${await pending("wechat", cfg2.appId ?? "")}/approve`, {
        token: ops.token,
      });
      rest--;
    }
    await commit(other, cfg2.id, "3.0.0", true);
    t.clock.advance(31);
    const before = (await t.call<C>("GET", `${U}/mpConfigs/${cfg2.id}`, { token: other.token })).body.data;
    const refused = await submit(other, cfg2.id);
    expect(refused.body.msg).toBe("The review quota of this month is used up: try again next month (85085)");
    const after = (await t.call<C>("GET", `${U}/mpConfigs/${cfg2.id}`, { token: other.token })).body.data;
    expect(after).toEqual(before);
    const zh = await t.call("PUT", `${U}/mpConfig/${cfg2.id}/submit`, {
      token: other.token,
      body: { categories: [{ firstClass: "商家自营", secondClass: "虚拟卡券" }] },
      lang: "tw",
    });
    expect(zh.body.msg).toBe("本月提審次數已用完，請下月再試（85085）");
  });
});

describe("bad input and tenancy", () => {
  it("§5 required fields in three languages, theme and template checks", async () => {
    const m = await registerMerchant(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "" }, "Please enter the mini-program name", "请输入小程序名称"],
      [{ configCode: "" }, "Please enter the config ID", "请输入配置ID"],
      [{ category: "" }, "Please choose a category", "请选择类目"],
      [{ description: "" }, "Please enter the function description", "请输入功能描述"],
      [{ navMenus: [{ title: "", target: "/" }] }, "Please enter the menu name", "请输入菜单名称"],
      // A menu opens a page the storefront has, or an https link (issue 40 item 14): "/my" is no page.
      [
        { bottomMenus: [{ title: "我的", target: "/my" }] },
        "A menu opens a page of the mall (home, goods, gift packs, cart, orders) or an https:// link",
        "菜单链接只能是商城的页面（首页、权益商品、礼包、购物车、订单）或以https://开头的链接",
      ],
      [{ theme: 5 }, "The colour theme must be 1 to 4", "颜色主题只能是1-4"],
    ];
    for (const [over, en, cn] of cases) {
      const r = await t.call("PUT", `${U}/mpConfigs`, { token: m.token, body: configBody(over), lang: "en" });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(en);
      expect(
        (await t.call("PUT", `${U}/mpConfigs`, { token: m.token, body: configBody(over), lang: "cn" })).body.msg,
      ).toBe(cn);
    }
    expect(
      (await t.call("PUT", `${U}/mpConfigs`, { token: m.token, body: configBody({ templateId: 999999 }), lang: "en" }))
        .body.msg,
    ).toBe("This template does not exist");
    const list = await t.call<{ total: number }>("GET", `${U}/mpConfigs`, { token: m.token });
    expect(list.body.data.total).toBe(0);
    const a = await t.call<C>("PUT", `${U}/mpConfigs`, { token: m.token, body: configBody({ configCode: "dup-1" }) });
    expect(a.body.code).toBe(1);
    expect(
      (await t.call("PUT", `${U}/mpConfigs`, { token: m.token, body: configBody({ configCode: "dup-1" }), lang: "en" }))
        .body.msg,
    ).toBe("This config ID is already in use");
    // Commit without authorisation, without a template.
    expect((await commit(m, a.body.data.id, "1.0.0")).body.msg).toBe("Please authorise the mini-program first");
  });

  it("merchant B never sees or changes merchant A's configs", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const cfg = await authorisedConfig(a);
    expect((await t.call("GET", `${U}/mpConfigs/${cfg.id}`, { token: b.token })).status).toBe(404);
    expect(
      (await t.call("PUT", `${U}/mpConfigs`, { token: b.token, body: { ...configBody(), id: Number(cfg.id) } })).status,
    ).toBe(404);
    expect((await commit(b, cfg.id, "9.9.9")).status).toBe(404);
    expect((await t.call("GET", `${U}/mpConfig/${cfg.id}/betaQrcode`, { token: b.token })).status).toBe(404);
    expect((await t.call("PUT", `${U}/mpConfig/${cfg.id}/release`, { token: b.token })).status).toBe(404);
    expect((await t.call("GET", `${U}/needAuth?configId=${cfg.id}`, { token: b.token })).status).toBe(404);
    expect((await t.call<{ total: number }>("GET", `${U}/mpConfigs`, { token: b.token })).body.data.total).toBe(0);
    expect((await t.call<{ list: unknown[] }>("GET", `${U}/mpConfigs/all`, { token: b.token })).body.data.list).toEqual(
      [],
    );
    expect(
      (await t.call<{ list: unknown[] }>("GET", `${U}/mpConfigs/all`, { token: a.token })).body.data.list,
    ).toHaveLength(1);
    // Operators only on the console; merchants get 403.
    expect((await t.call("GET", "/api/ops/miniprogram/wechat/audits", { token: a.token })).status).toBe(403);
    expect(
      (
        await t.call("POST", "/api/ops/miniprogram/templates", {
          token: a.token,
          body: { platform: "wechat", name: "x", userVersion: "1.0.0" },
        })
      ).status,
    ).toBe(403);
  });

  it("another merchant's consent naming A's mini-program is refused in three languages and changes nothing (issue 38 item 8)", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const cfg = await authorisedConfig(a);
    const appId = cfg.appId ?? "";
    const db = t.ctx.database.db;
    const state = async () => ({
      sim: await db
        .selectFrom("mp_sim_apps")
        .select(["nick_name", "access_token", "refresh_token", "authorized", "merchant_id"])
        .where("app_id", "=", appId)
        .executeTakeFirstOrThrow(),
      ours: await db
        .selectFrom("mp_authorizers")
        .select(["merchant_id", "config_id", "access_token", "refresh_token", "state"])
        .where("app_id", "=", appId)
        .executeTakeFirstOrThrow(),
      events: (await db.selectFrom("mp_sim_events").select("event").where("app_id", "=", appId).execute()).length,
    });
    const before = await state();
    expect(before.sim.merchant_id).toBe(Number(a.merchantId));

    // B asks for a consent of its own config and names A's mini-program on the platform's page.
    const created = await t.call<C>("PUT", `${U}/mpConfigs`, { token: b.token, body: configBody() });
    const auth = await t.call<{ url: string }>(
      "GET",
      `${U}/authUrl?configId=${created.body.data.id}&redirect=/sale/EquityApplet`,
      { token: b.token },
    );
    const code = encodeURIComponent(new URL(auth.body.data.url).searchParams.get("pre_auth_code") ?? "");
    const msgs: Record<"en" | "cn" | "tw", string> = {
      en: "This account is authorised by another merchant: only that merchant can authorise it again, and nothing was changed",
      cn: "该账号已由其他商户授权，只能由其所属商户重新授权，本次授权未做任何更改",
      tw: "該帳號已由其他商戶授權，只能由其所屬商戶重新授權，本次授權未做任何更改",
    };
    for (const lang of ["en", "cn", "tw"] as const) {
      const r = await t.call("POST", `/api/mp-platform/wechat/preauth/${code}/authorize`, {
        body: { nickName: before.sim.nick_name },
        lang,
      });
      expect([r.status, r.body.msg]).toEqual([409, msgs[lang]]);
    }
    // A's tokens on both sides, its binding and the platform's pushes are as they were; A still works.
    expect(await state()).toEqual(before);
    expect(
      (await t.call<{ needAuth: boolean }>("GET", `${U}/needAuth?configId=${cfg.id}`, { token: a.token })).body.data
        .needAuth,
    ).toBe(false);
    expect((await commit(a, cfg.id, "1.0.0")).body.code).toBe(1);
    // The refusal did not use B's code: B consents its own app with it.
    expect((await t.call<{ used: boolean }>("GET", `/api/mp-platform/wechat/preauth/${code}`)).body.data.used).toBe(
      false,
    );
    const own = await t.call<{ appId: string }>("POST", `/api/mp-platform/wechat/preauth/${code}/authorize`, {
      body: { nickName: `B Own ${++seq}` },
    });
    expect(own.body.code).toBe(1);
    expect(own.body.data.appId).not.toBe(appId);

    // A re-authorises its own app by the same name: allowed, tokens rotate, A's binding follows.
    const again = await t.call<{ url: string }>("GET", `${U}/authUrl?configId=${cfg.id}&redirect=/sale/EquityApplet`, {
      token: a.token,
    });
    const codeA = encodeURIComponent(new URL(again.body.data.url).searchParams.get("pre_auth_code") ?? "");
    const re = await t.call<{ appId: string; redirect: string }>(
      "POST",
      `/api/mp-platform/wechat/preauth/${codeA}/authorize`,
      { body: { nickName: before.sim.nick_name } },
    );
    expect(re.body.data.appId).toBe(appId);
    const rebound = await t.call<C>("PUT", `${U}/authCallback`, {
      token: a.token,
      body: { configId: Number(cfg.id), authCode: new URL(re.body.data.redirect).searchParams.get("auth_code") },
    });
    expect(rebound.body.data).toMatchObject({ appId, authorized: true });
    expect((await state()).ours.access_token).not.toBe(before.ours.access_token);
  });

  it("template library: validation, standard templates accept only extAppid/ext/window (85013 never reached by our ext), deletion", async () => {
    const bad = await t.call("POST", "/api/ops/miniprogram/templates", {
      token: ops.token,
      body: { platform: "wechat", name: "", userVersion: "1.0" },
      lang: "en",
    });
    expect(bad.body.msg).toBe("Please enter the template name");
    const std = await template("wechat", 1);
    const m = await registerMerchant(t);
    const cfg = await authorisedConfig(m, "wechat", std);
    expect((await commit(m, cfg.id, "1.0.0")).body.code).toBe(1);
    expect(
      (await t.call("DELETE", `/api/ops/miniprogram/templates/${std}`, { token: ops.token, lang: "en" })).body.msg,
    ).toBe("Configs use this template: it cannot be deleted");
    const spare = await template("wechat");
    expect((await t.call("DELETE", `/api/ops/miniprogram/templates/${spare}`, { token: ops.token })).body.code).toBe(1);
    const list = await t.call<{ list: { id: string }[] }>("GET", "/api/ops/miniprogram/templates?platform=wechat", {
      token: ops.token,
    });
    expect(list.body.data.list.some((x) => x.id === spare)).toBe(false);
  });
});

describe("wxa/getwxacodeunlimit on the local WeChat platform", () => {
  it("checks the token, scene and page like WeChat: 41030 without the version, 45009 over the minute's limit, 40169 long scene", async () => {
    const m = await registerMerchant(t);
    const c = await authorisedConfig(m);
    const appId = c.appId ?? "";
    const db = t.ctx.database.db;
    const token = async () =>
      (
        await db
          .selectFrom("mp_authorizers")
          .select("access_token")
          .where("app_id", "=", appId)
          .executeTakeFirstOrThrow()
      ).access_token;
    const sim = new LocalPlatform("wechat", {
      db,
      clock: t.clock,
      quotaLimit: 12,
      scanSeconds: 30,
      wxacodePerMinute: 2,
    });
    const input = {
      scene: "goods=42",
      page: "pages/goods/detail",
      width: 430,
      checkPath: true,
      envVersion: "trial" as const,
    };
    await expect(sim.unlimitedQrcode(await token(), input)).rejects.toMatchObject({ errcode: ERR.INVALID_PAGE });
    await expect(sim.unlimitedQrcode("not-a-token", input)).rejects.toMatchObject({ errcode: ERR.INVALID_TOKEN });
    expect((await commit(m, c.id, "1.0.0")).body.code).toBe(1);
    // The trial version exists now; the release does not.
    await expect(sim.unlimitedQrcode(await token(), { ...input, envVersion: "release" })).rejects.toMatchObject({
      errcode: ERR.INVALID_PAGE,
    });
    await expect(sim.unlimitedQrcode(await token(), { ...input, scene: "x".repeat(33) })).rejects.toMatchObject({
      errcode: ERR.INVALID_SCENE_LENGTH,
    });
    const img = await sim.unlimitedQrcode(await token(), input);
    expect(img.contentType).toBe("image/png");
    expect(img.data.subarray(1, 4).toString("latin1")).toBe("PNG");
    await sim.unlimitedQrcode(await token(), { ...input, checkPath: false, page: "pages/any" });
    await expect(sim.unlimitedQrcode(await token(), input)).rejects.toMatchObject({ errcode: ERR.CALL_LIMIT });
    t.clock.advance(60);
    expect((await sim.unlimitedQrcode(await token(), input)).contentType).toBe("image/png");
    const douyin = new LocalPlatform("douyin", { db, clock: t.clock, quotaLimit: 12, scanSeconds: 30 });
    await expect(douyin.unlimitedQrcode(await token(), input)).rejects.toMatchObject({ errcode: ERR.API_UNAUTHORIZED });
  });
});

describe("the Douyin set under tiktok/", () => {
  it("create, update, commit, submit on host apps, approve, release; 11404 before approval", async () => {
    const m = await registerMerchant(t);
    const tpl = await template("douyin");
    const created = await t.call<C>("POST", "/api/card-user/tiktok/miniPrograms", {
      token: m.token,
      body: configBody(),
    });
    expect(created.body.data.platform).toBe("douyin");
    const id = created.body.data.id;
    const upd = await t.call<C>("PUT", `/api/card-user/tiktok/miniPrograms/${id}`, {
      token: m.token,
      body: configBody({ name: "Acme Douyin Mall", theme: 1 }),
    });
    expect(upd.body.data.theme).toBe(1);
    // A WeChat config is not reachable through tiktok/.
    const wx = await t.call<C>("PUT", `${U}/mpConfigs`, { token: m.token, body: configBody() });
    expect(
      (
        await t.call("PUT", `/api/card-user/tiktok/miniPrograms/${wx.body.data.id}`, {
          token: m.token,
          body: configBody(),
        })
      ).status,
    ).toBe(404);

    const auth = await t.call<{ url: string }>("GET", `${U}/authUrl?configId=${id}&redirect=/providers/TiktokApplet`, {
      token: m.token,
    });
    const code = new URL(auth.body.data.url).searchParams.get("pre_auth_code") ?? "";
    const consent = await t.call<{ redirect: string; appId: string }>(
      "POST",
      `/api/mp-platform/douyin/preauth/${encodeURIComponent(code)}/authorize`,
      { body: { nickName: `Douyin ${++seq}` } },
    );
    expect(consent.body.data.appId).toMatch(/^tt[0-9a-f]{16}$/);
    await t.call("PUT", `${U}/authCallback`, {
      token: m.token,
      body: { configId: Number(id), authCode: new URL(consent.body.data.redirect).searchParams.get("auth_code") },
    });
    await t.call("POST", `${U}/templateParams`, {
      token: m.token,
      body: { configId: Number(id), templateId: Number(tpl), values: {} },
    });
    expect(
      (
        await t.call<C>("PUT", `/api/card-user/tiktok/miniPrograms/${id}/commit`, {
          token: m.token,
          body: { userVersion: "1.0.0" },
        })
      ).body.data.trial?.state,
    ).toBe("trial");
    t.clock.advance(31);
    const badHost = await t.call("PUT", `/api/card-user/tiktok/miniPrograms/${id}/submit`, {
      token: m.token,
      body: { hostNames: ["weibo"] },
      lang: "en",
    });
    expect(badHost.body.msg).toBe("Unknown host app");
    const sub = await t.call<C>("PUT", `/api/card-user/tiktok/miniPrograms/${id}/submit`, {
      token: m.token,
      body: { hostNames: ["douyin", "toutiao"] },
    });
    expect(sub.body.data.auditState).toBe("auditing");
    expect(
      (await t.call("PUT", `/api/card-user/tiktok/miniPrograms/${id}/release`, { token: m.token, lang: "en" })).body
        .msg,
    ).toMatch(/11404/);
    const auditId = await pending("douyin", consent.body.data.appId);
    expect(
      (await t.call("PUT", `/api/ops/miniprogram/douyin/audits/${auditId}/delay`, { token: ops.token })).body.code,
    ).toBe(1);
    expect((await t.call<C>("GET", `${U}/mpConfigs/${id}`, { token: m.token })).body.data.auditState).toBe("delayed");
    expect(
      (await t.call("PUT", `/api/ops/miniprogram/douyin/audits/${auditId}/approve`, { token: ops.token })).body.code,
    ).toBe(1);
    const hosts = await t.call<{ list: { hostName: string; approved: boolean | null }[] }>(
      "GET",
      `/api/card-user/tiktok/hostNames?configId=${id}`,
      { token: m.token },
    );
    expect(
      hosts.body.data.list
        .filter((h) => h.approved === true)
        .map((h) => h.hostName)
        .sort(),
    ).toEqual(["douyin", "toutiao"]);
    const rel = await t.call<C>("PUT", `/api/card-user/tiktok/miniPrograms/${id}/release`, {
      token: m.token,
      body: {},
    });
    expect(rel.body.data.publishState).toBe("published");
    const list = await t.call<{ total: number }>("GET", "/api/card-user/tiktok/miniPrograms", { token: m.token });
    expect(list.body.data.total).toBe(1);
    expect(
      (await t.call("GET", `/api/ops/miniprogram/douyin/audits/999999/approve`, { token: ops.token })).status,
    ).toBe(404);
    expect(
      (await t.call("PUT", `/api/ops/miniprogram/douyin/audits/999999/approve`, { token: ops.token, lang: "en" })).body
        .msg,
    ).toBe("This audit does not exist");
  });
});
