import { randomBytes } from "node:crypto";
import type { MpPlatform } from "@tessera/contracts";
import QRCode from "qrcode";
import { withTx, type Executor } from "../../../db/tx";
import {
  ERR,
  PlatformError,
  type AccountType,
  type AuditState,
  type AuditStatus,
  type AuthorizerTokens,
  type Category,
  type CommitInput,
  type MenuButton,
  type OfficialAccountApi,
  type PlatformAdapter,
  type PlatformPush,
  type SubmitInput,
  type UnlimitedQrcodeInput,
} from "./adapter";
import * as sim from "./local.repo";
import type { SimVersion } from "./tables";
import {
  ACCESS_TOKEN_SECONDS,
  PREAUTH_SECONDS,
  AUTH_CODE_SECONDS,
  PREVIOUS_TOKEN_SECONDS,
  WITHDRAW_PER_DAY,
  WITHDRAW_PER_MONTH,
  HISTORY_MAX,
  CATEGORIES,
  token,
  monthOf,
  dayOf,
  SCENE,
  PAGE,
  scopesOf,
  OFFICIAL_TEMPLATES,
  type LocalPlatformOptions,
  type SimAudit,
} from "./local.data";

export { ACCESS_TOKEN_SECONDS, AUTH_CODE_SECONDS, OFFICIAL_TEMPLATES, PREAUTH_SECONDS } from "./local.data";
export { WITHDRAW_PER_DAY, WITHDRAW_PER_MONTH, type LocalPlatformOptions, type SimAudit } from "./local.data";

/**
 * The LOCAL platform: runs the platform's side of the flow offline and visibly, with the real operation
 * names, states, token lifetimes, quotas, error codes and pushes. Its state lives in the mp_sim_* tables;
 * the operator console decides its audits (approve, reject with reason and screenshots, delay). Pushes go
 * to the listener after the platform's own transaction commits, as a real push would arrive afterwards.
 */
export class LocalPlatform implements PlatformAdapter {
  readonly kind = "local" as const;
  readonly #listeners: ((push: PlatformPush) => Promise<void>)[] = [];

  constructor(
    readonly platform: MpPlatform,
    private readonly o: LocalPlatformOptions,
  ) {}

  onPush(listener: (push: PlatformPush) => Promise<void>): void {
    this.#listeners.push(listener);
  }

  private async push(p: PlatformPush): Promise<void> {
    await sim.insertEvent(this.o.db, {
      platform: this.platform,
      app_id: p.appId,
      event: p.event,
      payload: JSON.stringify(p),
      at: this.o.clock.now(),
    });
    for (const l of this.#listeners) await l(p);
  }

  // ---- consent ----

  async authUrl(
    redirectUri: string,
    origin: string,
    accountType: AccountType = "miniprogram",
    merchantId?: number,
  ): Promise<{ url: string; expiresIn: number }> {
    if (accountType === "official" && this.platform !== "wechat") {
      throw new PlatformError(ERR.API_UNAUTHORIZED, "official accounts are WeChat's");
    }
    if (accountType === "life" && this.platform !== "douyin") {
      throw new PlatformError(ERR.API_UNAUTHORIZED, "local-life accounts are Douyin's");
    }
    const code = token("preauthcode@@@");
    await sim.insertPreauth(this.o.db, {
      code,
      platform: this.platform,
      redirect_uri: redirectUri,
      expires_at: new Date(this.o.clock.now().getTime() + PREAUTH_SECONDS * 1000),
      account_type: accountType,
      merchant_id: merchantId ?? null,
    });
    // WeChat's componentloginpage: auth_type 1 official accounts only, 2 mini-programs only.
    const q = new URLSearchParams({
      pre_auth_code: code,
      redirect_uri: redirectUri,
      ...(this.platform === "wechat" && { auth_type: accountType === "official" ? "1" : "2" }),
      ...(accountType === "life" && { scope: "life" }),
    });
    return { url: `${origin}/mp-platform/${this.platform}/authorize?${q.toString()}`, expiresIn: PREAUTH_SECONDS };
  }

  /** The local consent page: what a pre-auth code asks. */
  async preauthInfo(
    code: string,
  ): Promise<{ expired: boolean; used: boolean; scopes: string[]; accountType: AccountType }> {
    const row = await sim.preauth(this.o.db, this.platform, code);
    if (!row) return { expired: true, used: false, scopes: [], accountType: "miniprogram" };
    return {
      expired: new Date(row.expires_at) <= this.o.clock.now(),
      used: row.used_at !== null,
      scopes: scopesOf(this.platform, row.account_type),
      accountType: row.account_type,
    };
  }

  /**
   * The merchant consents on the local page: an app is made (or the named one re-authorised) and an auth code
   * issued. The page names the app by nickname only, so an app another merchant owns is refused ("taken") and
   * nothing changes: re-authorising rotates the app's tokens, which would cut its owner off.
   */
  async authorize(
    code: string,
    nickName: string,
  ): Promise<{ redirect: string; appId: string } | { refused: "expired" | "taken" }> {
    const now = this.o.clock.now();
    const result = await withTx(this.o.db, async (tx) => {
      const row = await sim.lockPreauth(tx, this.platform, code);
      if (!row || row.used_at !== null || new Date(row.expires_at) <= now) return { refused: "expired" as const };
      const existing = await sim.lockAppByName(tx, this.platform, nickName, row.account_type);
      // An owned app only by its owner (a pre-auth code from before owners were kept has none: refused too).
      if (existing && existing.merchant_id !== null && existing.merchant_id !== row.merchant_id) {
        return { refused: "taken" as const };
      }
      const prefix = row.account_type === "life" ? "dl" : this.platform === "wechat" ? "wx" : "tt";
      const appId = existing?.app_id ?? `${prefix}${randomBytes(8).toString("hex")}`;
      const tokens = {
        access_token: token("at_"),
        access_expires_at: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
        refresh_token: token("rt_"),
      };
      // An app nobody owned yet (made before owners were kept) becomes the consenting merchant's.
      if (existing) {
        await sim.updateApp(tx, appId, {
          ...tokens,
          authorized: true,
          merchant_id: existing.merchant_id ?? row.merchant_id,
        });
      } else {
        await sim.insertApp(tx, {
          app_id: appId,
          platform: this.platform,
          nick_name: nickName,
          account_type: row.account_type,
          merchant_id: row.merchant_id,
          ...tokens,
          created_at: now,
        });
      }
      const authCode = token("queryauthcode@@@");
      await sim.usePreauth(tx, code, {
        used_at: now,
        app_id: appId,
        auth_code: authCode,
        auth_code_expires_at: new Date(now.getTime() + AUTH_CODE_SECONDS * 1000),
      });
      const sep = row.redirect_uri.includes("?") ? "&" : "?";
      return {
        redirect: `${row.redirect_uri}${sep}auth_code=${encodeURIComponent(authCode)}&expires_in=${AUTH_CODE_SECONDS}`,
        appId,
        again: Boolean(existing),
      };
    });
    if ("refused" in result) return result;
    await this.push({ event: result.again ? "updateauthorized" : "authorized", appId: result.appId });
    return { redirect: result.redirect, appId: result.appId };
  }

  /** The merchant cancels the authorisation on the platform: tokens die, an `unauthorized` push follows. */
  async revoke(appId: string): Promise<boolean> {
    if (!(await sim.revokeApp(this.o.db, this.platform, appId))) return false;
    await this.push({ event: "unauthorized", appId });
    return true;
  }

  async queryAuth(authCode: string): Promise<AuthorizerTokens> {
    const now = this.o.clock.now();
    const row = await sim.preauthByAuthCode(this.o.db, this.platform, authCode);
    if (!row?.app_id || !row.auth_code_expires_at) {
      throw new PlatformError(ERR.AUTH_CODE_EXPIRED, "authorization code is invalid");
    }
    if (new Date(row.auth_code_expires_at) <= now) {
      throw new PlatformError(ERR.AUTH_CODE_EXPIRED, "authorization code expired");
    }
    const app = await this.app(this.o.db, row.app_id);
    return {
      appId: app.app_id,
      accountType: app.account_type,
      nickName: app.nick_name,
      accessToken: app.access_token,
      expiresIn: Math.max(0, Math.floor((new Date(app.access_expires_at).getTime() - now.getTime()) / 1000)),
      refreshToken: app.refresh_token,
      scopes: scopesOf(this.platform, app.account_type),
    };
  }

  async refreshToken(appId: string, refreshToken: string): Promise<AuthorizerTokens> {
    const now = this.o.clock.now();
    const app = await sim.appOn(this.o.db, this.platform, appId);
    if (!app?.authorized) throw new PlatformError(ERR.NOT_AUTHORIZED, "component is not authorized by this account");
    if (app.refresh_token !== refreshToken) throw new PlatformError(ERR.INVALID_TOKEN, "invalid refresh token");
    const accessToken = token("at_");
    const expires = new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000);
    await sim.updateApp(this.o.db, appId, {
      access_token: accessToken,
      access_expires_at: expires,
      previous_token: app.access_token,
      previous_until: new Date(now.getTime() + PREVIOUS_TOKEN_SECONDS * 1000),
    });
    return {
      appId,
      accountType: app.account_type,
      accessToken,
      expiresIn: ACCESS_TOKEN_SECONDS,
      refreshToken: app.refresh_token,
      scopes: scopesOf(this.platform, app.account_type),
    };
  }

  // ---- code management ----

  /** The app an access token belongs to; 40001 unknown, 42001 expired, 61003 no longer authorised. */
  private async appOfToken(db: Executor, accessToken: string) {
    const now = this.o.clock.now();
    const app = await sim.appByToken(db, this.platform, accessToken);
    if (!app) throw new PlatformError(ERR.INVALID_TOKEN, "invalid credential, access_token is invalid or not latest");
    if (!app.authorized) throw new PlatformError(ERR.NOT_AUTHORIZED, "component is not authorized by this account");
    const current = app.access_token === accessToken;
    const until = current ? new Date(app.access_expires_at) : app.previous_until ? new Date(app.previous_until) : now;
    if (!current && this.platform === "wechat") {
      throw new PlatformError(ERR.INVALID_TOKEN, "invalid credential, access_token is invalid or not latest");
    }
    if (until <= now) throw new PlatformError(ERR.TOKEN_EXPIRED, "access_token expired");
    return app;
  }

  private async app(db: Executor, appId: string) {
    const app = await sim.appById(db, appId);
    if (!app) throw new PlatformError(ERR.NOT_AUTHORIZED, "component is not authorized by this account");
    return app;
  }

  async commit(accessToken: string, input: CommitInput): Promise<void> {
    const now = this.o.clock.now();
    await withTx(this.o.db, async (tx) => {
      const app = await this.appOfToken(tx, accessToken);
      const tpl = await sim.liveTemplate(tx, this.platform, input.templateId);
      if (!tpl) throw new PlatformError(ERR.NO_TEMPLATE, "template not exist");
      let ext: unknown;
      try {
        ext = JSON.parse(input.extJson);
      } catch {
        throw new PlatformError(ERR.BAD_EXT_JSON, "invalid ext_json");
      }
      if (typeof ext !== "object" || ext === null || Array.isArray(ext)) {
        throw new PlatformError(ERR.BAD_EXT_JSON, "invalid ext_json");
      }
      // A standard template accepts only extAppid, ext and window.
      if (tpl.template_type === 1 && Object.keys(ext).some((k) => !["extAppid", "ext", "window"].includes(k))) {
        throw new PlatformError(ERR.BAD_EXT_JSON, "standard template ext_json accepts extAppid, ext, window");
      }
      const trial: SimVersion = {
        templateId: input.templateId,
        extJson: input.extJson,
        userVersion: input.userVersion,
        userDesc: input.userDesc,
        at: now.toISOString(),
      };
      await sim.updateApp(tx, app.app_id, { trial: JSON.stringify(trial) });
    });
  }

  async trialQrcode(accessToken: string, previewUrl: string): Promise<{ contentType: string; data: Buffer }> {
    const app = await this.appOfToken(this.o.db, accessToken);
    if (!app.trial) throw new PlatformError(ERR.NOT_COMMITTED, "need to commit code first");
    const data = await QRCode.toBuffer(previewUrl, { type: "png", width: 430, margin: 2, errorCorrectionLevel: "M" });
    return { contentType: "image/png", data };
  }

  /** getwxacodeunlimit calls of the current minute, by app. */
  private readonly wxacodeCalls = new Map<string, { minute: number; n: number }>();

  async unlimitedQrcode(
    accessToken: string,
    input: UnlimitedQrcodeInput,
  ): Promise<{ contentType: string; data: Buffer }> {
    if (this.platform !== "wechat") throw new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized");
    const app = await this.appOfToken(this.o.db, accessToken);
    if (input.scene.length > 32) {
      throw new PlatformError(ERR.INVALID_SCENE_LENGTH, "invalid length for scene, or the data is not json string");
    }
    if (!SCENE.test(input.scene)) throw new PlatformError(ERR.INVALID_SCENE_LENGTH, "invalid scene");
    if (input.page !== "" && !PAGE.test(input.page)) throw new PlatformError(ERR.INVALID_PAGE, "invalid page");
    // check_path: the page must exist in that version; the local app has a version once committed (trial) or released.
    const version = input.envVersion === "release" ? app.online : app.trial;
    if (input.checkPath && !version) throw new PlatformError(ERR.INVALID_PAGE, "invalid page");
    const minute = Math.floor(this.o.clock.now().getTime() / 60_000);
    const seen = this.wxacodeCalls.get(app.app_id);
    const n = seen && seen.minute === minute ? seen.n + 1 : 1;
    if (n > (this.o.wxacodePerMinute ?? 5000)) throw new PlatformError(ERR.CALL_LIMIT, "reach max api minute limit");
    this.wxacodeCalls.set(app.app_id, { minute, n });
    const width = Math.max(280, Math.min(1280, input.width));
    const url = `https://mp.weixin.qq.com/a/${encodeURIComponent(app.app_id)}/${input.page || "pages/index/index"}?scene=${encodeURIComponent(input.scene)}&env=${input.envVersion}`;
    const data = await QRCode.toBuffer(url, { type: "png", width, margin: 2, errorCorrectionLevel: "M" });
    return { contentType: "image/png", data };
  }

  async categories(accessToken: string): Promise<Category[]> {
    await this.appOfToken(this.o.db, accessToken);
    return CATEGORIES[this.platform];
  }

  async quota(): Promise<{ rest: number; limit: number }> {
    const row = await sim.quotaUsed(this.o.db, this.platform, monthOf(this.o.clock.now()));
    return { rest: Math.max(0, this.o.quotaLimit - (row?.used ?? 0)), limit: this.o.quotaLimit };
  }

  async submitAudit(accessToken: string, input: SubmitInput): Promise<{ auditId: string }> {
    const now = this.o.clock.now();
    return withTx(this.o.db, async (tx) => {
      const app = await this.appOfToken(tx, accessToken);
      await sim.lockApp(tx, app.app_id);
      if (!app.trial) throw new PlatformError(ERR.NOT_COMMITTED, "need to commit code before submit audit");
      const pending = await sim.pendingAudit(tx, app.app_id, false);
      if (pending) throw new PlatformError(ERR.AUDIT_IN_PROGRESS, "an audit is in progress");
      if (new Date(app.trial.at).getTime() + this.o.scanSeconds * 1000 > now.getTime()) {
        throw new PlatformError(ERR.PRIVACY_SCAN, "privacy scan of the code is not finished");
      }
      const valid = CATEGORIES[this.platform];
      if (
        this.platform === "wechat" &&
        input.itemList.some((i) => !valid.some((c) => c.firstClass === i.firstClass && c.secondClass === i.secondClass))
      ) {
        throw new PlatformError(ERR.BAD_AUDIT_ID, "category not allowed");
      }
      const month = monthOf(now);
      const quota = await sim.lockQuota(tx, this.platform, month);
      if (quota.used >= this.o.quotaLimit) throw new PlatformError(ERR.QUOTA, "submit audit reach limit");
      await sim.useQuota(tx, this.platform, month);
      const row = await sim.insertAudit(tx, {
        app_id: app.app_id,
        platform: this.platform,
        status: 2,
        version: JSON.stringify(app.trial),
        item_list: JSON.stringify(input.itemList),
        host_names: JSON.stringify(input.hostNames),
        submitted_at: now,
      });
      return { auditId: String(row.audit_id) };
    });
  }

  async auditStatus(accessToken: string, auditId: string): Promise<AuditState> {
    const app = await this.appOfToken(this.o.db, accessToken);
    const row = /^\d{1,18}$/.test(auditId) ? await sim.auditOf(this.o.db, app.app_id, Number(auditId)) : undefined;
    if (!row) throw new PlatformError(ERR.BAD_AUDIT_ID, "invalid auditid");
    return { auditId, status: row.status as AuditStatus, reason: row.reason, screenshots: row.screenshots };
  }

  async undoAudit(accessToken: string): Promise<void> {
    const now = this.o.clock.now();
    await withTx(this.o.db, async (tx) => {
      const app = await this.appOfToken(tx, accessToken);
      const pending = await sim.pendingAudit(tx, app.app_id, true);
      if (!pending) throw new PlatformError(ERR.NO_AUDIT, "no audit in progress");
      const counts = await sim.withdrawCounts(
        tx,
        app.app_id,
        new Date(`${dayOf(now)}T00:00:00Z`),
        new Date(`${monthOf(now)}-01T00:00:00Z`),
      );
      if (Number(counts.today) >= WITHDRAW_PER_DAY || Number(counts.month) >= WITHDRAW_PER_MONTH) {
        throw new PlatformError(ERR.WITHDRAW_LIMIT, "undo audit reach limit");
      }
      await sim.updateAudit(tx, pending.audit_id, { status: 3, decided_at: now });
      await sim.insertEvent(tx, {
        platform: this.platform,
        app_id: app.app_id,
        event: "undocodeaudit",
        payload: JSON.stringify({ auditId: String(pending.audit_id) }),
        at: now,
      });
    });
  }

  /** Withdrawals left today and this month for an app. */
  async withdrawRest(appId: string): Promise<{ today: number; month: number }> {
    const now = this.o.clock.now();
    const counts = await sim.withdrawCounts(
      this.o.db,
      appId,
      new Date(`${dayOf(now)}T00:00:00Z`),
      new Date(`${monthOf(now)}-01T00:00:00Z`),
    );
    return {
      today: Math.max(0, WITHDRAW_PER_DAY - Number(counts.today)),
      month: Math.max(0, WITHDRAW_PER_MONTH - Number(counts.month)),
    };
  }

  async release(accessToken: string): Promise<void> {
    const now = this.o.clock.now();
    await withTx(this.o.db, async (tx) => {
      const app = await this.appOfToken(tx, accessToken);
      const notApproved = this.platform === "douyin" ? ERR.DY_NOT_APPROVED : ERR.NOT_APPROVED;
      const last = await sim.lockLastAudit(tx, app.app_id);
      if (last?.status !== 0) throw new PlatformError(notApproved, "version not approved");
      const released = await sim.releaseOf(tx, app.app_id, String(last.audit_id));
      if (released) throw new PlatformError(notApproved, "version already released");
      const history = app.online ? [app.online, ...app.history].slice(0, HISTORY_MAX) : app.history;
      await sim.updateApp(tx, app.app_id, {
        online: JSON.stringify(last.version),
        history: JSON.stringify(history),
        can_rollback: true,
      });
      await sim.insertEvent(tx, {
        platform: this.platform,
        app_id: app.app_id,
        event: "release",
        payload: JSON.stringify({ auditId: String(last.audit_id) }),
        at: now,
      });
    });
  }

  async rollback(accessToken: string): Promise<void> {
    const now = this.o.clock.now();
    await withTx(this.o.db, async (tx) => {
      const app = await this.appOfToken(tx, accessToken);
      const [previous, ...rest] = app.history;
      if (!previous) throw new PlatformError(ERR.NO_ROLLBACK, "no history version to revert");
      if (this.platform === "douyin" && !app.can_rollback) {
        throw new PlatformError(ERR.DY_ROLLBACK_AGAIN, "rollback once per release");
      }
      await sim.updateApp(tx, app.app_id, {
        online: JSON.stringify(previous),
        history: JSON.stringify(rest),
        can_rollback: false,
        rolled_back_at: now,
      });
      await sim.insertEvent(tx, {
        platform: this.platform,
        app_id: app.app_id,
        event: "revertcoderelease",
        payload: "{}",
        at: now,
      });
    });
  }

  // ---- an official account's calls (what the binding enables) ----

  get official(): OfficialAccountApi | undefined {
    return this.platform === "wechat"
      ? {
          createMenu: (accessToken, buttons) => this.createMenu(accessToken, buttons),
          sendTemplate: (accessToken, msg) => this.sendTemplate(accessToken, msg),
        }
      : undefined;
  }

  private async officialApp(accessToken: string) {
    const app = await this.appOfToken(this.o.db, accessToken);
    if (app.account_type !== "official") throw new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized");
    return app;
  }

  private async record(appId: string, operation: string, payload: Record<string, unknown>): Promise<void> {
    await sim.insertCall(this.o.db, {
      platform: this.platform,
      app_id: appId,
      operation,
      payload: JSON.stringify(payload),
      at: this.o.clock.now(),
    });
  }

  /** `cgi-bin/menu/create`: at most 3 top-level buttons (40016), names up to 16 bytes (40018), http(s) links (40055). */
  async createMenu(accessToken: string, buttons: MenuButton[]): Promise<void> {
    const app = await this.officialApp(accessToken);
    if (buttons.length === 0 || buttons.length > 3) throw new PlatformError(40016, "invalid button size");
    if (buttons.some((b) => Buffer.byteLength(b.name) === 0 || Buffer.byteLength(b.name) > 16)) {
      throw new PlatformError(40018, "invalid button name size");
    }
    if (buttons.some((b) => !/^https?:\/\//.test(b.url) || b.url.length > 1024)) {
      throw new PlatformError(40055, "invalid button url domain");
    }
    await this.record(app.app_id, "cgi-bin/menu/create", {
      button: buttons.map((b) => ({ type: "view", name: b.name, url: b.url })),
    });
  }

  /** `cgi-bin/message/template/send`: one of the account's templates (40037), a follower's openid (40003). */
  async sendTemplate(
    accessToken: string,
    msg: { toUser: string; templateId: string; url: string; data: Record<string, string> },
  ): Promise<{ msgId: string }> {
    const app = await this.officialApp(accessToken);
    if (!OFFICIAL_TEMPLATES.some((t) => t.id === msg.templateId)) {
      throw new PlatformError(ERR.BAD_TEMPLATE_ID, "invalid template_id");
    }
    if (!/^[A-Za-z0-9_-]{6,64}$/.test(msg.toUser)) throw new PlatformError(ERR.BAD_OPENID, "invalid openid");
    const msgId = String(Date.now()) + String(randomBytes(2).readUInt16BE(0));
    const data = Object.fromEntries(Object.entries(msg.data).map(([k, v]) => [k, { value: v }]));
    await this.record(app.app_id, "cgi-bin/message/template/send", {
      touser: msg.toUser,
      template_id: msg.templateId,
      url: msg.url,
      data,
      msgid: msgId,
    });
    return { msgId };
  }

  /** What the platform answered for an app: the calls it would have acted on, newest first. */
  async calls(appId: string, limit = 50): Promise<{ operation: string; payload: Record<string, unknown>; at: Date }[]> {
    const rows = await sim.calls(this.o.db, this.platform, appId, limit);
    return rows.map((r) => ({ operation: r.operation, payload: r.payload, at: new Date(r.at) }));
  }

  // ---- the review, decided in the operator console ----

  async audits(q: { status?: number; page: number; pageSize: number }): Promise<{ list: SimAudit[]; total: number }> {
    const { rows, total } = await sim.auditsPage(this.o.db, this.platform, q);
    return {
      total,
      list: rows.map((r) => ({
        auditId: String(r.audit_id),
        platform: this.platform,
        appId: r.app_id,
        appName: r.nick_name,
        status: r.status as AuditStatus,
        version: r.version,
        itemList: r.item_list,
        hostNames: r.host_names,
        reason: r.reason,
        screenshots: r.screenshots,
        submittedAt: new Date(r.submitted_at),
        decidedAt: r.decided_at ? new Date(r.decided_at) : null,
      })),
    };
  }

  /**
   * The reviewer's decision: 0 approve, 1 reject (reason, screenshot keys), 4 delay (still pending; a final
   * decision follows). Returns false when the audit is not pending (decided or withdrawn).
   */
  async decide(
    auditId: number,
    status: 0 | 1 | 4,
    operatorId: number,
    reason: string | null,
    screenshots: string[],
  ): Promise<boolean> {
    const now = this.o.clock.now();
    const row = await withTx(this.o.db, async (tx) => {
      const audit = await sim.lockAudit(tx, this.platform, auditId);
      if (!audit || (audit.status !== 2 && audit.status !== 4)) return null;
      if (status === 4 && audit.status === 4) return null;
      await sim.updateAudit(tx, auditId, {
        status,
        reason,
        screenshots: JSON.stringify(screenshots),
        decided_at: status === 4 ? null : now,
        decided_by: operatorId,
      });
      return audit;
    });
    if (!row) return false;
    const event = status === 0 ? "weapp_audit_success" : status === 1 ? "weapp_audit_fail" : "weapp_audit_delay";
    await this.push({ event, appId: row.app_id, auditId: String(auditId), reason, screenshots });
    return true;
  }

  async auditExists(auditId: number): Promise<boolean> {
    return Boolean(await sim.auditOn(this.o.db, this.platform, auditId));
  }
}
