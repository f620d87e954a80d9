import {
  CODE,
  type MpConfig,
  type MpConfigQuery,
  type MpConfigReq,
  type MpPlatform,
  type Page,
} from "@tessera/contracts";
import { withTx, isUniqueViolation } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { ERR, PlatformError, type PlatformAdapter } from "../../platform/adapters/miniprogram";
import { appearanceOf, extJsonOf, presentVersion } from "./presenter";
import * as repo from "./repo";
import type { ConfigRow } from "./repo";
import { REFRESH_MARGIN_MS, notFound, platformRefusal, type MallAppearance, type MiniprogramDeps } from "./shared";

/**
 * The merchant's mall configs and their authorisation on the platform: the configs themselves, the
 * consent and the authorizer's tokens (refreshed before they end, a revoked app marked so), the platform
 * calls made with them, and the configs as the API and the mall see them. The template and code-pipeline
 * services work on a config through this one.
 */
export class ConfigsService {
  constructor(private readonly deps: MiniprogramDeps) {}

  private get db() {
    return this.deps.db;
  }
  adapter(platform: MpPlatform): PlatformAdapter {
    return this.deps.adapters[platform];
  }
  tenant(actor: Actor): number {
    if (actor.merchantId === null) throw new AppError(CODE.FORBIDDEN, "auth.forbidden");
    return actor.merchantId;
  }
  async config(actor: Actor, id: number, platform?: MpPlatform): Promise<ConfigRow> {
    const row = await repo.findConfig(this.db, this.tenant(actor), id);
    if (!row) throw notFound();
    if (platform && row.platform !== platform) throw notFound();
    return row;
  }

  // ---- configs ----

  async list(actor: Actor, q: MpConfigQuery): Promise<Page<MpConfig>> {
    const merchantId = this.tenant(actor);
    const { rows, total } = await repo.listConfigs(this.db, merchantId, q);
    return { list: await this.present(merchantId, rows), total, page: q.page, pageSize: q.pageSize };
  }

  async all(actor: Actor): Promise<{ id: string; name: string; platform: MpPlatform; appId: string | null }[]> {
    return (await repo.allConfigs(this.db, this.tenant(actor))).map((r) => ({
      id: String(r.id),
      name: r.name,
      platform: r.platform,
      appId: r.app_id,
    }));
  }

  async get(actor: Actor, id: number, platform?: MpPlatform): Promise<MpConfig> {
    const row = await this.config(actor, id, platform);
    const [one] = await this.present(row.merchant_id, [row]);
    if (!one) throw notFound();
    return one;
  }

  /** `PUT mpConfigs`: create (no id) or update; the required fields of spec §5 are checked by the schema. */
  async save(actor: Actor, req: MpConfigReq, platform?: MpPlatform): Promise<MpConfig> {
    const merchantId = this.tenant(actor);
    const now = this.deps.clock.now();
    const plat = platform ?? req.platform;
    if (req.templateId) {
      const tpl = await repo.findTemplate(this.db, req.templateId);
      if (tpl?.platform !== plat) throw invalid("mp.templateNotFound", "templateId");
    }
    const values = {
      config_code: req.configCode,
      name: req.name,
      category: req.category,
      description: req.description,
      theme: req.theme,
      nav_menus: JSON.stringify(req.navMenus),
      bottom_menus: JSON.stringify(req.bottomMenus),
      customer_service: req.customerService || null,
      domain: req.domain || null,
      sms_signature: req.smsSignature || null,
      pay_on_platform: req.payOnPlatform,
      validity_days: req.validityDays ?? null,
      allow_topup_account_change: req.allowTopupAccountChange,
      ...(req.templateId !== undefined && { template_id: req.templateId }),
      updated_at: now,
    };
    const id = await withTx(this.db, async (tx) => {
      try {
        if (req.id) {
          const row = await repo.findConfig(tx, merchantId, req.id, true);
          if (!row) throw notFound();
          if (row.platform !== plat) throw platform ? notFound() : conflict("mp.platformMismatch", "platform");
          await repo.updateConfig(tx, merchantId, row.id, values);
          return row.id;
        }
        const rowId = await repo.insertConfig(tx, merchantId, values, {
          platform: plat,
          createdBy: actor.userId,
          createdAt: now,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "miniprogram.create",
          subjectType: "mp_config",
          subjectId: rowId,
        });
        return rowId;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict("mp.configCodeTaken", "configCode");
        throw err;
      }
    });
    return this.get(actor, id);
  }

  // ---- authorisation ----

  async needAuth(
    actor: Actor,
    id: number,
  ): Promise<{ needAuth: boolean; appId: string | null; reason: "none" | "expired" | "revoked" | null }> {
    const cfg = await this.config(actor, id);
    if (!cfg.app_id) return { needAuth: true, appId: null, reason: "none" };
    const auth = await repo.findAuthorizer(this.db, cfg.app_id);
    if (auth?.state !== "authorized") return { needAuth: true, appId: cfg.app_id, reason: "revoked" };
    return { needAuth: false, appId: cfg.app_id, reason: null };
  }

  async authUrl(
    actor: Actor,
    id: number,
    redirectPath: string,
    origin: string,
  ): Promise<{ url: string; expiresIn: number }> {
    const cfg = await this.config(actor, id);
    const path = redirectPath.startsWith("/") && !redirectPath.startsWith("//") ? redirectPath : "/";
    const sep = path.includes("?") ? "&" : "?";
    try {
      return await this.adapter(cfg.platform).authUrl(
        `${origin}${path}${sep}configId=${cfg.id}`,
        origin,
        "miniprogram",
        cfg.merchant_id,
      );
    } catch (err) {
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
  }

  /** The consent page came back with an auth code: query the tokens and bind the app to the config. */
  async authCallback(actor: Actor, id: number, authCode: string): Promise<MpConfig> {
    const cfg = await this.config(actor, id);
    let tokens;
    try {
      tokens = await this.adapter(cfg.platform).queryAuth(authCode);
    } catch (err) {
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
    // An official or local-life account's consent does not give a mini-program.
    if (tokens.accountType !== undefined && tokens.accountType !== "miniprogram") throw conflict("mp.accountTypeWrong");
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      const bound = await repo.configIdOfApp(tx, tokens.appId);
      if (bound && bound.id !== cfg.id) throw conflict("mp.appTaken");
      if (cfg.app_id && cfg.app_id !== tokens.appId) {
        const versions = await repo.anyVersion(tx, cfg.id);
        if (versions) throw conflict("mp.appTaken");
      }
      const row = {
        platform: cfg.platform,
        merchant_id: cfg.merchant_id,
        config_id: cfg.id,
        access_token: tokens.accessToken,
        access_expires_at: new Date(now.getTime() + tokens.expiresIn * 1000),
        refresh_token: tokens.refreshToken,
        scopes: JSON.stringify(tokens.scopes),
        state: "authorized" as const,
        authorized_at: now,
        updated_at: now,
      };
      const existing = await repo.findAuthorizer(tx, tokens.appId);
      if (existing && existing.merchant_id !== cfg.merchant_id) throw conflict("mp.appTaken");
      if (existing) await repo.updateAuthorizer(tx, tokens.appId, row);
      else await repo.insertAuthorizer(tx, tokens.appId, row);
      await repo.bindConfigApp(tx, cfg.id, tokens.appId, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.authorize",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { appId: tokens.appId },
      });
    });
    return this.get(actor, id);
  }

  /** A live access token of the config's app: refreshed when (nearly) expired; a revoked app needs authorising again. */
  private async tokenOf(cfg: ConfigRow, force = false): Promise<string> {
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    const auth = await repo.findAuthorizer(this.db, cfg.app_id);
    if (!auth) throw conflict("mp.notAuthorized");
    if (auth.state !== "authorized") throw conflict("mp.authRevoked");
    const now = this.deps.clock.now();
    if (!force && new Date(auth.access_expires_at).getTime() - REFRESH_MARGIN_MS > now.getTime()) {
      return auth.access_token;
    }
    try {
      const t = await this.adapter(cfg.platform).refreshToken(auth.app_id, auth.refresh_token);
      await repo.updateAuthorizer(this.db, auth.app_id, {
        access_token: t.accessToken,
        access_expires_at: new Date(now.getTime() + t.expiresIn * 1000),
        refresh_token: t.refreshToken,
        updated_at: now,
      });
      return t.accessToken;
    } catch (err) {
      if (err instanceof PlatformError && err.errcode === ERR.NOT_AUTHORIZED) {
        await this.markUnauthorized(auth.app_id);
        throw conflict("mp.authRevoked");
      }
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
  }

  /** Calls the platform with the app's token; an expired or superseded token is refreshed once. */
  async call<T>(cfg: ConfigRow, op: (adapter: PlatformAdapter, token: string) => Promise<T>): Promise<T> {
    const adapter = this.adapter(cfg.platform);
    try {
      return await op(adapter, await this.tokenOf(cfg));
    } catch (err) {
      if (err instanceof PlatformError && (err.errcode === ERR.TOKEN_EXPIRED || err.errcode === ERR.INVALID_TOKEN)) {
        try {
          return await op(adapter, await this.tokenOf(cfg, true));
        } catch (again) {
          if (again instanceof PlatformError) throw platformRefusal(again);
          throw again;
        }
      }
      if (err instanceof PlatformError && err.errcode === ERR.NOT_AUTHORIZED && cfg.app_id) {
        await this.markUnauthorized(cfg.app_id);
        throw conflict("mp.authRevoked");
      }
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
  }

  async markUnauthorized(appId: string): Promise<void> {
    await repo.updateAuthorizer(this.db, appId, { state: "unauthorized", updated_at: this.deps.clock.now() });
  }

  /** The merchant of each app (operator console). */
  async configsOfApps(appIds: string[]): Promise<Map<string, string>> {
    if (appIds.length === 0) return new Map();
    const rows = await repo.configMerchantsOfApps(this.db, appIds);
    return new Map(rows.flatMap((r) => (r.app_id ? [[r.app_id, String(r.merchant_id)] as const] : [])));
  }

  // ---- the mall's view ----

  /** The released version's config, or the committed (experience) one for "beta"; null when none. */
  async mallAppearance(appId: string, version: "beta" | "release"): Promise<MallAppearance | null> {
    const cfg = await repo.configByApp(this.db, appId);
    if (!cfg) return null;
    const row = await repo.appearanceRow(this.db, cfg.id, appId, version);
    return row ? (row.appearance as MallAppearance) : null;
  }

  // ---- presentation ----

  private async present(merchantId: number, rows: ConfigRow[]): Promise<MpConfig[]> {
    const versions = await repo.versionsOfConfigs(
      this.db,
      merchantId,
      rows.map((r) => r.id),
    );
    const templateIds = [...new Set(rows.map((r) => r.template_id).filter((t): t is number => t !== null))];
    const tpls = templateIds.length ? await repo.templatesByIds(this.db, templateIds) : [];
    const appIds = rows.map((r) => r.app_id).filter((a): a is string => a !== null);
    const auths = appIds.length ? await repo.authorizerStates(this.db, appIds) : [];
    return rows.map((r) => {
      const mine = versions.filter((v) => v.config_id === r.id);
      const tpl = tpls.find((t) => t.id === r.template_id);
      const trial = mine[0] ?? null;
      const auditV = mine.find((v) => v.audit_id !== null) ?? null;
      const online = mine.find((v) => v.state === "released") ?? null;
      const current = tpl && r.app_id ? extJsonOf(r, r.app_id, tpl, appearanceOf(r, r.app_id, tpl)) : null;
      return {
        id: String(r.id),
        merchantId: String(r.merchant_id),
        platform: r.platform,
        configCode: r.config_code,
        name: r.name,
        category: r.category,
        description: r.description,
        templateId: r.template_id === null ? null : String(r.template_id),
        templateName: tpl?.name ?? null,
        templateParams: r.template_params,
        theme: r.theme,
        navMenus: r.nav_menus,
        bottomMenus: r.bottom_menus,
        customerService: r.customer_service,
        domain: r.domain,
        smsSignature: r.sms_signature,
        payOnPlatform: r.pay_on_platform,
        validityDays: r.validity_days,
        allowTopupAccountChange: r.allow_topup_account_change,
        appId: r.app_id,
        authorized: auths.some((a) => a.app_id === r.app_id && a.state === "authorized"),
        auditState: r.audit_state,
        publishState: r.publish_state,
        trial: trial ? presentVersion(trial) : null,
        audit: auditV ? presentVersion(auditV) : null,
        online: online ? presentVersion(online) : null,
        changedSinceCommit: current !== null && (trial === null || trial.ext_json !== current),
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
      };
    });
  }
}
