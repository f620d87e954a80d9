import { describe, expect, it } from "vitest";
import { PlatformError } from "./adapter";
import { DouyinHttpAdapter, WechatHttpAdapter, decryptPush, encryptPush, msgSignature, type Fetch } from "./real";

/** A recording fetch: answers each call with the next canned platform reply and keeps the requests. */
function recorder(replies: (Record<string, unknown> | { image: Buffer })[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const f: Fetch = (url, init) => {
    calls.push({
      url,
      method: init.method,
      body: init.body === undefined ? undefined : (JSON.parse(init.body) as unknown),
    });
    const r = replies.shift() ?? { errcode: 0 };
    const isImage = "image" in r && Buffer.isBuffer(r.image);
    const data = isImage ? (r.image as Buffer) : Buffer.from(JSON.stringify(r));
    return Promise.resolve({
      status: 200,
      headers: { get: (n: string) => (n === "content-type" ? (isImage ? "image/jpeg" : "application/json") : null) },
      arrayBuffer: () =>
        Promise.resolve(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer),
    });
  };
  return { f, calls };
}

describe("WeChat third-party platform requests (documented shapes)", () => {
  it("component token from the verify ticket, pre-auth code and consent URL, query auth", async () => {
    const { f, calls } = recorder([
      { component_access_token: "CAT", expires_in: 7200 },
      { pre_auth_code: "PAC", expires_in: 600 },
      {
        authorization_info: {
          authorizer_appid: "wxf8b4f85f3a794e77",
          authorizer_access_token: "AAT",
          expires_in: 7200,
          authorizer_refresh_token: "ART",
          func_info: [{ funcscope_category: { id: 17 } }],
        },
      },
    ]);
    const wx = new WechatHttpAdapter({
      componentAppId: "wx_component",
      componentSecret: "secret",
      fetch: f,
      now: () => 0,
    });
    await expect(wx.componentToken()).rejects.toThrow(PlatformError);
    wx.setVerifyTicket("ticket@@@xyz");
    const auth = await wx.authUrl("https://t.example/sale/EquityApplet?configId=1");
    expect(calls[0]).toEqual({
      url: "https://api.weixin.qq.com/cgi-bin/component/api_component_token?",
      method: "POST",
      body: { component_appid: "wx_component", component_appsecret: "secret", component_verify_ticket: "ticket@@@xyz" },
    });
    expect(calls[1]).toEqual({
      url: "https://api.weixin.qq.com/cgi-bin/component/api_create_preauthcode?component_access_token=CAT",
      method: "POST",
      body: { component_appid: "wx_component" },
    });
    expect(auth.url).toBe(
      "https://mp.weixin.qq.com/cgi-bin/componentloginpage?component_appid=wx_component&pre_auth_code=PAC&redirect_uri=https%3A%2F%2Ft.example%2Fsale%2FEquityApplet%3FconfigId%3D1&auth_type=2",
    );
    const tokens = await wx.queryAuth("queryauthcode@@@abc");
    expect(calls[2]?.body).toEqual({ component_appid: "wx_component", authorization_code: "queryauthcode@@@abc" });
    expect(tokens).toEqual({
      appId: "wxf8b4f85f3a794e77",
      accessToken: "AAT",
      expiresIn: 7200,
      refreshToken: "ART",
      scopes: ["17"],
    });
  });

  it("getwxacodeunlimit: POST with the documented body; the image comes back, a JSON errcode (41030, 45009) becomes PlatformError", async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    const { f, calls } = recorder([
      { image: jpeg },
      { errcode: 41030, errmsg: "invalid page rid: 6523a1b2-1c2d3e4f-5a6b7c8d" },
      { errcode: 45009, errmsg: "reach max api daily quota limit" },
    ]);
    const wx = new WechatHttpAdapter({ componentAppId: "c", componentSecret: "s", fetch: f });
    const img = await wx.unlimitedQrcode("AAT", {
      scene: "goods=42",
      page: "pages/goods/detail",
      width: 430,
      checkPath: true,
      envVersion: "release",
    });
    expect(img).toEqual({ contentType: "image/jpeg", data: jpeg });
    expect(calls[0]).toEqual({
      url: "https://api.weixin.qq.com/wxa/getwxacodeunlimit?access_token=AAT",
      method: "POST",
      body: { scene: "goods=42", page: "pages/goods/detail", width: 430, check_path: true, env_version: "release" },
    });
    await expect(
      wx.unlimitedQrcode("AAT", { scene: "a", page: "pages/nope", width: 280, checkPath: true, envVersion: "release" }),
    ).rejects.toMatchObject({ errcode: 41030 });
    await expect(
      wx.unlimitedQrcode("AAT", { scene: "a", page: "", width: 280, checkPath: false, envVersion: "trial" }),
    ).rejects.toMatchObject({ errcode: 45009 });
    // No page: the home page (the field is left out).
    expect(calls[2]?.body).toEqual({ scene: "a", width: 280, check_path: false, env_version: "trial" });
  });

  it("commit with a numeric template_id, submit_audit item_list, release with {}, errcodes become PlatformError", async () => {
    const { f, calls } = recorder([
      { errcode: 0, errmsg: "ok" },
      { errcode: 0, auditid: 1234567 },
      { errcode: 0 },
      { errcode: 85009, errmsg: "already submit a version" },
      { image: Buffer.from([0xff, 0xd8, 0xff]) },
    ]);
    const wx = new WechatHttpAdapter({ componentAppId: "c", componentSecret: "s", fetch: f });
    await wx.commit("AAT", { templateId: 7, extJson: '{"extAppid":"wx1"}', userVersion: "1.0.0", userDesc: "d" });
    expect(calls[0]).toEqual({
      url: "https://api.weixin.qq.com/wxa/commit?access_token=AAT",
      method: "POST",
      body: { template_id: 7, ext_json: '{"extAppid":"wx1"}', user_version: "1.0.0", user_desc: "d" },
    });
    expect(
      await wx.submitAudit("AAT", {
        itemList: [{ firstClass: "商家自营", secondClass: "百货" }],
        hostNames: [],
        versionDesc: "v",
        feedbackInfo: "",
      }),
    ).toEqual({ auditId: "1234567" });
    expect(calls[1]?.body).toEqual({
      item_list: [{ first_class: "商家自营", second_class: "百货" }],
      version_desc: "v",
      feedback_info: "",
    });
    await wx.release("AAT");
    expect(calls[2]).toEqual({
      url: "https://api.weixin.qq.com/wxa/release?access_token=AAT",
      method: "POST",
      body: {},
    });
    await expect(wx.release("AAT")).rejects.toMatchObject({ errcode: 85009 });
    const qr = await wx.trialQrcode("AAT", "https://t.example/mall/wx1?v=beta");
    expect(qr.contentType).toBe("image/jpeg");
    expect(calls[4]?.url).toBe(
      `https://api.weixin.qq.com/wxa/get_qrcode?access_token=AAT&path=${encodeURIComponent("pages/index/index?v=beta&url=https%3A%2F%2Ft.example%2Fmall%2Fwx1%3Fv%3Dbeta")}`,
    );
  });

  it("an official account: consent with auth_type 1, menu/create with view buttons, template send with {value} data", async () => {
    const { f, calls } = recorder([
      { component_access_token: "CAT", expires_in: 7200 },
      { pre_auth_code: "PAC2", expires_in: 600 },
      { errcode: 0, errmsg: "ok" },
      { errcode: 0, errmsg: "ok", msgid: 200228332 },
      { errcode: 40037, errmsg: "invalid template_id" },
    ]);
    const wx = new WechatHttpAdapter({
      componentAppId: "wx_component",
      componentSecret: "secret",
      fetch: f,
      now: () => 0,
    });
    wx.setVerifyTicket("ticket@@@xyz");
    const auth = await wx.authUrl(
      "https://t.example/sale/WechatOfficial?bind=official",
      "https://t.example",
      "official",
    );
    expect(new URL(auth.url).searchParams.get("auth_type")).toBe("1");
    await wx.official.createMenu("OAT", [{ name: "Star Mall", url: "https://t.example/mall/wx1" }]);
    expect(calls[2]).toEqual({
      url: "https://api.weixin.qq.com/cgi-bin/menu/create?access_token=OAT",
      method: "POST",
      body: { button: [{ type: "view", name: "Star Mall", url: "https://t.example/mall/wx1" }] },
    });
    const sent = await wx.official.sendTemplate("OAT", {
      toUser: "oUser1",
      templateId: "TPL",
      url: "https://t.example/mall/wx1",
      data: { first: "Hello" },
    });
    expect(sent).toEqual({ msgId: "200228332" });
    expect(calls[3]).toEqual({
      url: "https://api.weixin.qq.com/cgi-bin/message/template/send?access_token=OAT",
      method: "POST",
      body: {
        touser: "oUser1",
        template_id: "TPL",
        url: "https://t.example/mall/wx1",
        data: { first: { value: "Hello" } },
      },
    });
    await expect(
      wx.official.sendTemplate("OAT", { toUser: "oUser1", templateId: "NOPE", url: "", data: {} }),
    ).rejects.toMatchObject({ errcode: 40037 });
  });
});

describe("Douyin third-party app requests", () => {
  it("tp token, upload, audit on host apps, release; err_no becomes PlatformError", async () => {
    const { f, calls } = recorder([
      { errno: 0, data: { component_access_token: "DCAT", expires_in: 7200 } },
      { errno: 0 },
      { errno: 0 },
      { errno: 11404, message: "version not audited" },
    ]);
    const dy = new DouyinHttpAdapter({ componentAppId: "tt_c", componentSecret: "s", fetch: f, now: () => 0 });
    dy.setTicket("T");
    await dy.componentToken();
    expect(calls[0]?.url).toBe(
      "https://open.microapp.bytedance.com/openapi/v1/auth/tp/token?component_appid=tt_c&component_appsecret=s&component_ticket=T",
    );
    await dy.commit("DAT", { templateId: 3, extJson: "{}", userVersion: "1.0.0", userDesc: "" });
    expect(calls[1]).toEqual({
      url: "https://open.microapp.bytedance.com/openapi/v1/microapp/package/upload?component_appid=tt_c&authorizer_access_token=DAT",
      method: "POST",
      body: { template_id: 3, ext_json: "{}", user_version: "1.0.0", user_desc: "" },
    });
    await dy.submitAudit("DAT", {
      itemList: [],
      hostNames: ["douyin", "toutiao"],
      versionDesc: "note",
      feedbackInfo: "",
    });
    expect(calls[2]?.body).toEqual({ hostNames: ["douyin", "toutiao"], auditNote: "note", auditWay: 0 });
    await expect(dy.release("DAT")).rejects.toMatchObject({ errcode: 11404 });
  });
});

describe("Douyin local-life authorisation (open.douyin.com OAuth 2.0)", () => {
  /** A fetch that keeps the raw bodies (the refresh call sends a form, not JSON). */
  function rawRecorder(replies: Record<string, unknown>[]) {
    const calls: { url: string; type: string | undefined; body: string | undefined }[] = [];
    const f: Fetch = (url, init) => {
      calls.push({ url, type: init.headers["content-type"], body: init.body });
      const data = Buffer.from(JSON.stringify(replies.shift() ?? {}));
      return Promise.resolve({
        status: 200,
        headers: { get: () => "application/json" },
        arrayBuffer: () => Promise.resolve(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
      });
    };
    return { f, calls };
  }
  const life = {
    clientKey: "awk_life",
    clientSecret: "life-secret",
    scopes: ["life.capacity.poi", "life.capacity.verify"],
  };

  it("the consent page, the code for the merchant's tokens, a refresh under the same refresh token", async () => {
    const { f, calls } = rawRecorder([
      {
        data: {
          access_token: "act.life1",
          expires_in: 1296000,
          open_id: "_000life_open_id",
          refresh_token: "rft.life1",
          refresh_expires_in: 2592000,
          scope: "life.capacity.poi,life.capacity.verify",
          error_code: 0,
          description: "",
        },
        message: "success",
      },
      {
        data: {
          access_token: "act.life2",
          expires_in: 1296000,
          open_id: "_000life_open_id",
          refresh_expires_in: 2592000,
          scope: "life.capacity.poi,life.capacity.verify",
          error_code: 0,
          description: "",
        },
        message: "success",
      },
    ]);
    const dy = new DouyinHttpAdapter({ componentAppId: "tt_c", componentSecret: "s", life, fetch: f, now: () => 0 });
    const auth = await dy.authUrl(
      "https://t.example/providers/LocaLivePlatform?brandId=7",
      "https://t.example",
      "life",
    );
    expect(auth).toEqual({
      url: "https://open.douyin.com/platform/oauth/connect/?client_key=awk_life&response_type=code&scope=life.capacity.poi%2Clife.capacity.verify&redirect_uri=https%3A%2F%2Ft.example%2Fproviders%2FLocaLivePlatform%3FbrandId%3D7&state=life",
      expiresIn: 600,
    });
    const tokens = await dy.queryAuth("code-from-douyin", "life");
    expect(calls[0]).toEqual({
      url: "https://open.douyin.com/oauth/access_token/",
      type: "application/json",
      body: JSON.stringify({
        client_key: "awk_life",
        client_secret: "life-secret",
        code: "code-from-douyin",
        grant_type: "authorization_code",
      }),
    });
    expect(tokens).toEqual({
      appId: "_000life_open_id",
      accountType: "life",
      accessToken: "act.life1",
      expiresIn: 1296000,
      refreshToken: "rft.life1",
      scopes: ["life.capacity.poi", "life.capacity.verify"],
    });
    const again = await dy.refreshToken("_000life_open_id", "rft.life1", "life");
    expect(calls[1]).toEqual({
      url: "https://open.douyin.com/oauth/refresh_token/",
      type: "application/x-www-form-urlencoded",
      body: "client_key=awk_life&grant_type=refresh_token&refresh_token=rft.life1",
    });
    expect(again).toMatchObject({ appId: "_000life_open_id", accessToken: "act.life2", refreshToken: "rft.life1" });
  });

  it("an expired code is the platform's error_code; without the open-platform app, local life is refused", async () => {
    const { f } = rawRecorder([{ data: { error_code: 10007, description: "code 过期" }, message: "error" }]);
    const dy = new DouyinHttpAdapter({ componentAppId: "tt_c", componentSecret: "s", life, fetch: f });
    await expect(dy.queryAuth("old-code", "life")).rejects.toMatchObject({ errcode: 10007 });
    const bare = new DouyinHttpAdapter({ componentAppId: "tt_c", componentSecret: "s", fetch: f });
    await expect(bare.authUrl("https://t.example/x", "https://t.example", "life")).rejects.toThrow(PlatformError);
  });
});

describe("push signature and encryption (recorded examples)", () => {
  it("msg_signature of a recorded callback (WeCom/WeChat share the algorithm)", () => {
    const encrypt = "9eOdb3odwWMVTiGRTm+uiVrx3SGwzjGyq6oWu4b2tWC51YbHQasEVD9ZdS6Nx+XBxB2C/qxZ8bl8+qRBUb8CVg==";
    expect(msgSignature("jF9WQd6XtH7", "1647328566", "1648278214", encrypt)).toBe(
      "0af7077e1d70aed01bf9a6f40b2b52a7536ec807",
    );
  });

  it("encrypts as the official sample (random aaaabbbbccccdddd) and decrypts it back", () => {
    const key = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
    const appId = "wxb11529c136998cb6";
    const enc = encryptPush(key, appId, "我是中文abcd123", "aaaabbbbccccdddd");
    expect(enc).toBe("jn1L23DB+6ELqJ+6bruv21Y6MD7KeIfP82D6gU39rmkgczbWwt5+3bnyg5K55bgVtVzd832WzZGMhkP72vVOfg==");
    const sig = msgSignature("pamtest", "1409304348", "xxxxxx", enc);
    expect(
      decryptPush(
        { token: "pamtest", encodingAesKey: key, appId },
        { msgSignature: sig, timestamp: "1409304348", nonce: "xxxxxx" },
        enc,
      ),
    ).toBe("我是中文abcd123");
    expect(() =>
      decryptPush(
        { token: "pamtest", encodingAesKey: key, appId },
        { msgSignature: "0".repeat(40), timestamp: "1409304348", nonce: "xxxxxx" },
        enc,
      ),
    ).toThrow(/signature/);
    expect(() =>
      decryptPush(
        { token: "pamtest", encodingAesKey: key, appId: "wxother" },
        { msgSignature: sig, timestamp: "1409304348", nonce: "xxxxxx" },
        enc,
      ),
    ).toThrow(/appid/);
  });
});
