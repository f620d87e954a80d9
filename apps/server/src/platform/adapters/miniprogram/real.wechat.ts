import {
  ERR,
  PlatformError,
  type AccountType,
  type AuditState,
  type AuditStatus,
  type AuthorizerTokens,
  type Category,
  type CommitInput,
  type OfficialAccountApi,
  type PlatformAdapter,
  type PlatformPush,
  type SubmitInput,
  type UnlimitedQrcodeInput,
} from "./adapter";
import { type Fetch, type HttpAdapterOptions, defaultFetch, callPlatform, json, str, num } from "./real.http";

// ---------------------------------------------------------------- WeChat

const WX = "https://api.weixin.qq.com";

/**
 * WeChat open platform, third-party platform (`cgi-bin/component/*`, `wxa/*`). The component access token
 * needs the `component_verify_ticket` WeChat pushes every 10 minutes (setVerifyTicket).
 */
export class WechatHttpAdapter implements PlatformAdapter {
  readonly platform = "wechat" as const;
  readonly kind = "http" as const;
  readonly #fetch: Fetch;
  readonly #now: () => number;
  #ticket: string | null = null;
  #componentToken: { token: string; until: number } | null = null;
  readonly #listeners: ((push: PlatformPush) => Promise<void>)[] = [];

  constructor(private readonly o: HttpAdapterOptions) {
    this.#fetch = o.fetch ?? defaultFetch;
    this.#now = o.now ?? Date.now;
  }

  setVerifyTicket(ticket: string): void {
    this.#ticket = ticket;
  }
  onPush(listener: (push: PlatformPush) => Promise<void>): void {
    this.#listeners.push(listener);
  }

  private async request(
    method: "GET" | "POST",
    path: string,
    query: Record<string, string>,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const r = await callPlatform(this.#fetch, WX, method, path, query, body);
    const code = num(r.errcode);
    if (code !== 0) throw new PlatformError(code, str(r.errmsg));
    return r;
  }

  /** `cgi-bin/component/api_component_token` (2 h), cached until 5 minutes before it ends. */
  async componentToken(): Promise<string> {
    if (this.#componentToken && this.#componentToken.until > this.#now()) return this.#componentToken.token;
    if (!this.#ticket) throw new PlatformError(61004, "component_verify_ticket not received yet");
    const r = await this.request(
      "POST",
      "cgi-bin/component/api_component_token",
      {},
      {
        component_appid: this.o.componentAppId,
        component_appsecret: this.o.componentSecret,
        component_verify_ticket: this.#ticket,
      },
    );
    const token = str(r.component_access_token);
    this.#componentToken = { token, until: this.#now() + (num(r.expires_in) - 300) * 1000 };
    return token;
  }

  async authUrl(
    redirectUri: string,
    _origin?: string,
    accountType: AccountType = "miniprogram",
  ): Promise<{ url: string; expiresIn: number }> {
    if (accountType === "life") throw new PlatformError(ERR.API_UNAUTHORIZED, "local-life accounts are Douyin's");
    const r = await this.request(
      "POST",
      "cgi-bin/component/api_create_preauthcode",
      { component_access_token: await this.componentToken() },
      { component_appid: this.o.componentAppId },
    );
    // auth_type 1: official accounts only; 2: mini-programs only.
    const q = new URLSearchParams({
      component_appid: this.o.componentAppId,
      pre_auth_code: str(r.pre_auth_code),
      redirect_uri: redirectUri,
      auth_type: accountType === "official" ? "1" : "2",
    });
    return { url: `https://mp.weixin.qq.com/cgi-bin/componentloginpage?${q.toString()}`, expiresIn: num(r.expires_in) };
  }

  async queryAuth(authCode: string): Promise<AuthorizerTokens> {
    const r = await this.request(
      "POST",
      "cgi-bin/component/api_query_auth",
      { component_access_token: await this.componentToken() },
      { component_appid: this.o.componentAppId, authorization_code: authCode },
    );
    const info = (r.authorization_info ?? {}) as Record<string, unknown>;
    const funcs = Array.isArray(info.func_info) ? (info.func_info as { funcscope_category?: { id?: number } }[]) : [];
    return {
      appId: str(info.authorizer_appid),
      accessToken: str(info.authorizer_access_token),
      expiresIn: num(info.expires_in),
      refreshToken: str(info.authorizer_refresh_token),
      scopes: funcs.map((f) => String(f.funcscope_category?.id ?? "")),
    };
  }

  async refreshToken(appId: string, refreshToken: string): Promise<AuthorizerTokens> {
    const r = await this.request(
      "POST",
      "cgi-bin/component/api_authorizer_token",
      { component_access_token: await this.componentToken() },
      { component_appid: this.o.componentAppId, authorizer_appid: appId, authorizer_refresh_token: refreshToken },
    );
    return {
      appId,
      accessToken: str(r.authorizer_access_token),
      expiresIn: num(r.expires_in),
      refreshToken: str(r.authorizer_refresh_token) || refreshToken,
      scopes: [],
    };
  }

  /** An official account's calls: `cgi-bin/menu/create` (view buttons) and `cgi-bin/message/template/send`. */
  readonly official: OfficialAccountApi = {
    createMenu: async (accessToken, buttons) => {
      await this.request(
        "POST",
        "cgi-bin/menu/create",
        { access_token: accessToken },
        { button: buttons.map((b) => ({ type: "view", name: b.name, url: b.url })) },
      );
    },
    sendTemplate: async (accessToken, msg) => {
      const data = Object.fromEntries(Object.entries(msg.data).map(([k, v]) => [k, { value: v }]));
      const r = await this.request(
        "POST",
        "cgi-bin/message/template/send",
        { access_token: accessToken },
        { touser: msg.toUser, template_id: msg.templateId, url: msg.url, data },
      );
      return { msgId: typeof r.msgid === "number" || typeof r.msgid === "string" ? String(r.msgid) : "" };
    },
  };

  async commit(accessToken: string, input: CommitInput): Promise<void> {
    // template_id is a number: a quoted one gets 85014.
    await this.request(
      "POST",
      "wxa/commit",
      { access_token: accessToken },
      {
        template_id: input.templateId,
        ext_json: input.extJson,
        user_version: input.userVersion,
        user_desc: input.userDesc,
      },
    );
  }

  async trialQrcode(accessToken: string, previewUrl: string): Promise<{ contentType: string; data: Buffer }> {
    const path = `pages/index/index?v=beta&url=${encodeURIComponent(previewUrl)}`;
    const res = await this.#fetch(
      `${WX}/wxa/get_qrcode?${new URLSearchParams({ access_token: accessToken, path }).toString()}`,
      { method: "GET", headers: {} },
    );
    const type = res.headers.get("content-type") ?? "";
    if (!type.startsWith("image/")) {
      const r = await json(res);
      throw new PlatformError(num(r.errcode), str(r.errmsg));
    }
    return { contentType: type, data: Buffer.from(await res.arrayBuffer()) };
  }

  /** `POST wxa/getwxacodeunlimit?access_token=`: the image bytes, or a JSON errcode (41030, 45009, 40169...). */
  async unlimitedQrcode(
    accessToken: string,
    input: UnlimitedQrcodeInput,
  ): Promise<{ contentType: string; data: Buffer }> {
    const body = {
      scene: input.scene,
      page: input.page || undefined,
      width: input.width,
      check_path: input.checkPath,
      env_version: input.envVersion,
    };
    const res = await this.#fetch(
      `${WX}/wxa/getwxacodeunlimit?${new URLSearchParams({ access_token: accessToken }).toString()}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    );
    const type = res.headers.get("content-type") ?? "";
    if (!type.startsWith("image/")) {
      const r = await json(res);
      throw new PlatformError(num(r.errcode), str(r.errmsg));
    }
    return { contentType: type, data: Buffer.from(await res.arrayBuffer()) };
  }

  async categories(accessToken: string): Promise<Category[]> {
    const r = await this.request("GET", "wxa/get_category", { access_token: accessToken });
    const list = Array.isArray(r.category_list) ? (r.category_list as Record<string, unknown>[]) : [];
    return list.map((c) => ({
      firstClass: str(c.first_class),
      secondClass: str(c.second_class),
      firstId: num(c.first_id),
      secondId: num(c.second_id),
    }));
  }

  async submitAudit(accessToken: string, input: SubmitInput): Promise<{ auditId: string }> {
    const r = await this.request(
      "POST",
      "wxa/submit_audit",
      { access_token: accessToken },
      {
        item_list: input.itemList.map((i) => ({ first_class: i.firstClass, second_class: i.secondClass })),
        version_desc: input.versionDesc,
        feedback_info: input.feedbackInfo,
      },
    );
    return { auditId: str(r.auditid) };
  }

  async auditStatus(accessToken: string, auditId: string): Promise<AuditState> {
    const r = await this.request(
      "POST",
      "wxa/get_auditstatus",
      { access_token: accessToken },
      { auditid: Number(auditId) },
    );
    return {
      auditId,
      status: num(r.status) as AuditStatus,
      reason: str(r.reason) || null,
      screenshots: str(r.screenshot).split("|").filter(Boolean),
    };
  }

  async undoAudit(accessToken: string): Promise<void> {
    await this.request("GET", "wxa/undocodeaudit", { access_token: accessToken });
  }

  async release(accessToken: string): Promise<void> {
    // The body must be `{}` (44002 without it).
    await this.request("POST", "wxa/release", { access_token: accessToken }, {});
  }

  async rollback(accessToken: string): Promise<void> {
    await this.request("GET", "wxa/revertcoderelease", { access_token: accessToken });
  }

  quota(): Promise<{ rest: number; limit: number }> {
    // wxa/queryquota needs an authorizer's token; without one the platform's numbers are unknown here.
    return Promise.resolve({ rest: 0, limit: 0 });
  }
}
