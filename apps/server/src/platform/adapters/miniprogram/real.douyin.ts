import {
  ERR,
  PlatformError,
  type AccountType,
  type AuditState,
  type AuditStatus,
  type AuthorizerTokens,
  type Category,
  type CommitInput,
  type PlatformAdapter,
  type PlatformPush,
  type SubmitInput,
} from "./adapter";
import { type Fetch, type HttpAdapterOptions, defaultFetch, callPlatform, json, str, num } from "./real.http";

const DY = "https://open.microapp.bytedance.com/openapi";
/** Douyin's open platform: where local-life merchants authorise (OAuth 2.0 `platform/oauth/connect`). */
const DY_OPEN = "https://open.douyin.com";
/** How long Douyin's authorisation code lives (documented: 10 minutes). */
const DY_OAUTH_CODE_SECONDS = 600;

/** Douyin third-party app (`open.microapp.bytedance.com/openapi/v1|v2`); replies carry `errno` / `message`. */
export class DouyinHttpAdapter implements PlatformAdapter {
  readonly platform = "douyin" as const;
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

  setTicket(ticket: string): void {
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
    const r = await callPlatform(this.#fetch, DY, method, path, query, body);
    const code = num(r.errno ?? r.err_no);
    if (code !== 0) throw new PlatformError(code, str(r.message ?? r.err_tips));
    return r.data && typeof r.data === "object" ? (r.data as Record<string, unknown>) : r;
  }

  /** `v1/auth/tp/token` (2 h; the previous one stays valid 5 minutes). */
  async componentToken(): Promise<string> {
    if (this.#componentToken && this.#componentToken.until > this.#now()) return this.#componentToken.token;
    if (!this.#ticket) throw new PlatformError(40010, "component_ticket not received yet");
    const r = await this.request("GET", "v1/auth/tp/token", {
      component_appid: this.o.componentAppId,
      component_appsecret: this.o.componentSecret,
      component_ticket: this.#ticket,
    });
    const token = str(r.component_access_token);
    this.#componentToken = { token, until: this.#now() + (num(r.expires_in) - 300) * 1000 };
    return token;
  }

  private async tp(): Promise<Record<string, string>> {
    return { component_appid: this.o.componentAppId, component_access_token: await this.componentToken() };
  }

  async authUrl(
    redirectUri: string,
    _origin?: string,
    accountType: AccountType = "miniprogram",
  ): Promise<{ url: string; expiresIn: number }> {
    if (accountType === "life") return this.lifeAuthUrl(redirectUri);
    if (accountType !== "miniprogram") {
      throw new PlatformError(ERR.API_UNAUTHORIZED, `${accountType} authorisation is not available on this adapter`);
    }
    const r = await this.request("POST", "v2/auth/pre_auth_code", await this.tp(), { pre_auth_code_type: 1 });
    const q = new URLSearchParams({
      component_appid: this.o.componentAppId,
      pre_auth_code: str(r.pre_auth_code),
      redirect_uri: redirectUri,
    });
    return {
      url: `https://open.microapp.bytedance.com/mappconsole/tp/authorization?${q.toString()}`,
      expiresIn: num(r.expires_in),
    };
  }

  // ---- local-life accounts: OAuth 2.0 on Douyin's open platform ----

  private lifeApp(): { clientKey: string; clientSecret: string; scopes: string[] } {
    if (!this.o.life) {
      throw new PlatformError(
        ERR.API_UNAUTHORIZED,
        "local-life authorisation needs the open-platform app (MP_DOUYIN_LIFE_CLIENT_KEY)",
      );
    }
    return this.o.life;
  }

  /** `platform/oauth/connect`: the merchant's consent page; it returns to redirectUri with `code` (and our `state`). */
  private lifeAuthUrl(redirectUri: string): { url: string; expiresIn: number } {
    const app = this.lifeApp();
    const q = new URLSearchParams({
      client_key: app.clientKey,
      response_type: "code",
      scope: app.scopes.join(","),
      redirect_uri: redirectUri,
      state: "life",
    });
    return { url: `${DY_OPEN}/platform/oauth/connect/?${q.toString()}`, expiresIn: DY_OAUTH_CODE_SECONDS };
  }

  /** One open-platform OAuth call; its `data` carries `error_code` (0 when done) and `description`. */
  private async lifeCall(
    path: string,
    body: Record<string, string>,
    encoding: "json" | "form",
  ): Promise<Record<string, unknown>> {
    const res = await this.#fetch(`${DY_OPEN}/${path}`, {
      method: "POST",
      headers: { "content-type": encoding === "json" ? "application/json" : "application/x-www-form-urlencoded" },
      body: encoding === "json" ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });
    const r = await json(res);
    const data = r.data && typeof r.data === "object" ? (r.data as Record<string, unknown>) : {};
    const code = num(data.error_code);
    if (code !== 0) throw new PlatformError(code, str(data.description) || str(r.message));
    return data;
  }

  /** The merchant's account on Douyin is its `open_id`; the scopes it granted come back comma-separated. */
  private lifeTokens(d: Record<string, unknown>, fallbackRefresh = ""): AuthorizerTokens {
    return {
      appId: str(d.open_id),
      accountType: "life",
      accessToken: str(d.access_token),
      expiresIn: num(d.expires_in),
      refreshToken: str(d.refresh_token) || fallbackRefresh,
      scopes: str(d.scope).split(",").filter(Boolean),
    };
  }

  private tokens(r: Record<string, unknown>, fallbackRefresh = ""): AuthorizerTokens {
    return {
      appId: str(r.authorizer_appid),
      accessToken: str(r.authorizer_access_token),
      expiresIn: num(r.expires_in),
      refreshToken: str(r.authorizer_refresh_token) || fallbackRefresh,
      scopes: [],
    };
  }

  async queryAuth(authCode: string, accountType?: AccountType): Promise<AuthorizerTokens> {
    if (accountType === "life") {
      const app = this.lifeApp();
      // `oauth/access_token`: JSON body; the access token lives 15 days, its refresh token 30.
      return this.lifeTokens(
        await this.lifeCall(
          "oauth/access_token/",
          {
            client_key: app.clientKey,
            client_secret: app.clientSecret,
            code: authCode,
            grant_type: "authorization_code",
          },
          "json",
        ),
      );
    }
    return this.tokens(
      await this.request("GET", "v1/oauth/token", {
        ...(await this.tp()),
        authorization_code: authCode,
        grant_type: "app_to_tp_authorization_code",
      }),
    );
  }

  async refreshToken(appId: string, refreshToken: string, accountType?: AccountType): Promise<AuthorizerTokens> {
    if (accountType === "life") {
      // `oauth/refresh_token`: a form body; a new access token under the same refresh token.
      const t = this.lifeTokens(
        await this.lifeCall(
          "oauth/refresh_token/",
          { client_key: this.lifeApp().clientKey, grant_type: "refresh_token", refresh_token: refreshToken },
          "form",
        ),
        refreshToken,
      );
      return { ...t, appId };
    }
    const t = this.tokens(
      await this.request("GET", "v1/oauth/token", {
        ...(await this.tp()),
        authorizer_refresh_token: refreshToken,
        grant_type: "app_to_tp_refresh_token",
      }),
      refreshToken,
    );
    return { ...t, appId };
  }

  private app(accessToken: string): Record<string, string> {
    return { component_appid: this.o.componentAppId, authorizer_access_token: accessToken };
  }

  async commit(accessToken: string, input: CommitInput): Promise<void> {
    await this.request("POST", "v1/microapp/package/upload", this.app(accessToken), {
      template_id: input.templateId,
      ext_json: input.extJson,
      user_version: input.userVersion,
      user_desc: input.userDesc,
    });
  }

  async trialQrcode(accessToken: string, previewUrl: string): Promise<{ contentType: string; data: Buffer }> {
    const path = `pages/index/index?v=beta&url=${encodeURIComponent(previewUrl)}`;
    const res = await this.#fetch(
      `${DY}/v1/microapp/app/qrcode?${new URLSearchParams(this.app(accessToken)).toString()}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version: "latest", path }),
      },
    );
    const type = res.headers.get("content-type") ?? "";
    if (!type.startsWith("image/")) {
      const r = await json(res);
      throw new PlatformError(num(r.errno), str(r.message));
    }
    return { contentType: type, data: Buffer.from(await res.arrayBuffer()) };
  }

  async categories(accessToken: string): Promise<Category[]> {
    const r = await this.request("GET", "v1/microapp/app/get_category", this.app(accessToken));
    const list = Array.isArray(r.categories) ? (r.categories as Record<string, unknown>[]) : [];
    return list.map((c) => ({
      firstClass: str(c.first_class),
      secondClass: str(c.second_class),
      firstId: num(c.first_id),
      secondId: num(c.second_id),
    }));
  }

  async submitAudit(accessToken: string, input: SubmitInput): Promise<{ auditId: string }> {
    await this.request("POST", "v2/microapp/package/audit", this.app(accessToken), {
      hostNames: input.hostNames,
      auditNote: input.versionDesc.slice(0, 200),
      auditWay: 0,
    });
    // Douyin has no audit id: the version under audit is read from package/versions.
    return { auditId: `dy-${this.#now()}` };
  }

  async auditStatus(accessToken: string, auditId: string): Promise<AuditState> {
    const r = await this.request("GET", "v1/microapp/package/versions", this.app(accessToken));
    const audit = (r.audit ?? {}) as Record<string, unknown>;
    // Douyin: 0 auditing, 1 passed, 2 failed, 3 withdrawn → WeChat's 2, 0, 1, 3.
    const map: Record<number, AuditStatus> = { 0: 2, 1: 0, 2: 1, 3: 3 };
    return { auditId, status: map[num(audit.status)] ?? 2, reason: str(audit.reason) || null, screenshots: [] };
  }

  async undoAudit(accessToken: string): Promise<void> {
    await this.request("POST", "v1/microapp/package/revoke_audit", this.app(accessToken), {});
  }

  async release(accessToken: string): Promise<void> {
    await this.request("POST", "v1/microapp/package/release", this.app(accessToken), {});
  }

  async rollback(accessToken: string): Promise<void> {
    await this.request("POST", "v1/microapp/package/rollback", this.app(accessToken), {});
  }

  quota(): Promise<{ rest: number; limit: number }> {
    return Promise.resolve({ rest: 0, limit: 0 });
  }
}
