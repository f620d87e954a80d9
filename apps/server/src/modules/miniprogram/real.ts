import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
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

/**
 * The real platform adapters (MP_ADAPTER=http): HTTP to the documented open APIs. They cannot be reached
 * from the build machine, so their request building and the push signature/encryption are tested against
 * recorded examples (real.test.ts) through the injectable `fetch`.
 */

export type Fetch = (
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface HttpAdapterOptions {
  componentAppId: string;
  componentSecret: string;
  /**
   * Douyin only: the open-platform app (open.douyin.com) through which local-life merchants authorise,
   * with the scopes it asks for. Without it, local-life authorisation is refused.
   */
  life?: { clientKey: string; clientSecret: string; scopes: string[] } | undefined;
  fetch?: Fetch;
  now?: () => number;
}

const defaultFetch: Fetch = (url, init) => fetch(url, init);

async function json(res: Awaited<ReturnType<Fetch>>): Promise<Record<string, unknown>> {
  const text = Buffer.from(await res.arrayBuffer()).toString("utf8");
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    throw new PlatformError(-1, `bad reply (${res.status})`);
  }
}
/** One JSON call to a platform's open API (both platforms take query parameters and an optional JSON body). */
async function callPlatform(
  fetchFn: Fetch,
  base: string,
  method: "GET" | "POST",
  path: string,
  query: Record<string, string>,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const url = `${base}/${path}?${new URLSearchParams(query).toString()}`;
  return json(
    await fetchFn(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
}
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const num = (v: unknown): number => (typeof v === "number" ? v : Number(v) || 0);

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

// ---------------------------------------------------------------- Douyin

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

// ---------------------------------------------------------------- pushes (WeChat message crypto)

/** `msg_signature`: SHA-1 of token, timestamp, nonce and the encrypted text, sorted and joined. */
export function msgSignature(token: string, timestamp: string, nonce: string, encrypt: string): string {
  return createHash("sha1").update([token, timestamp, nonce, encrypt].sort().join("")).digest("hex");
}

function aesKey(encodingAesKey: string): Buffer {
  const key = Buffer.from(`${encodingAesKey}=`, "base64");
  if (key.length !== 32) throw new PlatformError(-40004, "illegal EncodingAESKey");
  return key;
}

/** Encrypts a push body as WeChat does: AES-256-CBC (IV = key[0..16]) of random16 ‖ len32BE ‖ msg ‖ appId, PKCS#7 to 32 bytes. */
export function encryptPush(
  encodingAesKey: string,
  appId: string,
  msg: string,
  random16: string = randomBytes(8).toString("hex"),
): string {
  const key = aesKey(encodingAesKey);
  const body = Buffer.from(msg, "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  const plain = Buffer.concat([Buffer.from(random16, "utf8"), len, body, Buffer.from(appId, "utf8")]);
  const pad = 32 - (plain.length % 32);
  const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString(
    "base64",
  );
}

/** Checks the signature and decrypts a push; throws -40001 on a bad signature, -40005 on another app's message. */
export function decryptPush(
  o: { token: string; encodingAesKey: string; appId: string },
  q: { msgSignature: string; timestamp: string; nonce: string },
  encrypt: string,
): string {
  if (msgSignature(o.token, q.timestamp, q.nonce, encrypt) !== q.msgSignature) {
    throw new PlatformError(-40001, "signature mismatch");
  }
  const key = aesKey(o.encodingAesKey);
  const decipher = createDecipheriv("aes-256-cbc", key, key.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(Buffer.from(encrypt, "base64")), decipher.final()]);
  const pad = plain[plain.length - 1] ?? 0;
  const content = plain.subarray(16, plain.length - (pad >= 1 && pad <= 32 ? pad : 0));
  const len = content.readUInt32BE(0);
  const msg = content.subarray(4, 4 + len).toString("utf8");
  if (content.subarray(4 + len).toString("utf8") !== o.appId) throw new PlatformError(-40005, "appid mismatch");
  return msg;
}
