import {
  CODE,
  isMessageKey,
  type MpCommitReq,
  type MpConfig,
  type MpConfigQuery,
  type MpConfigReq,
  type MpPlatform,
  type MpSubmitReq,
  type MpTemplate,
  type MpTemplateReq,
  type MpVersion,
  type Page,
} from "@tessera/contracts";
import { sql } from "kysely";
import { withTx, isUniqueViolation, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { FileStorage } from "../../platform/storage";
import { ERR, PlatformError, type PlatformAdapter, type PlatformPush, type UnlimitedQrcodeInput } from "./adapter";
import { WITHDRAW_PER_DAY, WITHDRAW_PER_MONTH } from "./local";
import * as repo from "./repo";
import type { ConfigRow, TemplateRow, VersionRow } from "./repo";
import type { MenuItem } from "./tables";

/** What the customer mall renders (the contract the mall module consumes). */
export interface MallAppearance {
  configId: number;
  merchantId: number;
  platform: "wechat" | "douyin";
  appId: string;
  name: string;
  template: string;
  theme: 1 | 2 | 3 | 4;
  navMenus: { title: string; target: string }[];
  bottomMenus: { title: string; target: string }[];
  customerService: string | null;
  smsSignature: string | null;
  validityDays: number | null;
  payOnPlatform: boolean;
  allowTopupAccountChange: boolean;
}

export interface MiniprogramDeps {
  db: Db;
  clock: Clock;
  adapters: Record<MpPlatform, PlatformAdapter>;
  storage: FileStorage;
}

/** Refresh the authorizer token this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const THEME_COLOURS = ["#e4393c", "#1677ff", "#13a35b", "#222222"] as const;

const notFound = () => new AppError(CODE.NOT_FOUND, "mp.configNotFound");
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A platform's refusal as a readable message (its code kept in the text). */
export function platformRefusal(err: PlatformError): AppError {
  const key = `mp.err.${err.errcode}`;
  if (isMessageKey(key)) return new AppError(CODE.CONFLICT, key, { errcode: err.errcode });
  return new AppError(CODE.CONFLICT, "mp.err.unknown", { errcode: err.errcode });
}

/**
 * Mini-program storefronts: the merchant's mall config, its authorisation on the platform, commit, beta
 * QR, review, release and rollback through the platform adapter, and the version history. Platform calls
 * happen outside our transactions (a remote platform cannot join them); what they changed is recorded in
 * ours right after, and the platform's pushes (audit results, deauthorisation) update the same records.
 */
export class MiniprogramService {
  constructor(private readonly deps: MiniprogramDeps) {
    for (const adapter of Object.values(deps.adapters)) adapter.onPush((push) => this.onPush(adapter.platform, push));
  }

  private get db() {
    return this.deps.db;
  }
  private adapter(platform: MpPlatform): PlatformAdapter {
    return this.deps.adapters[platform];
  }
  private tenant(actor: Actor): number {
    if (actor.merchantId === null) throw new AppError(CODE.FORBIDDEN, "auth.forbidden");
    return actor.merchantId;
  }
  private async config(actor: Actor, id: number, platform?: MpPlatform): Promise<ConfigRow> {
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
          await tx
            .updateTable("mp_configs")
            .set(values)
            .where("id", "=", row.id)
            .where("merchant_id", "=", merchantId)
            .execute();
          return row.id;
        }
        const row = await tx
          .insertInto("mp_configs")
          .values({ ...values, merchant_id: merchantId, platform: plat, created_by: actor.userId, created_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        await audit(tx, {
          actorUserId: actor.userId,
          action: "miniprogram.create",
          subjectType: "mp_config",
          subjectId: row.id,
        });
        return row.id;
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
      const bound = await tx
        .selectFrom("mp_configs")
        .select(["id"])
        .where("app_id", "=", tokens.appId)
        .executeTakeFirst();
      if (bound && bound.id !== cfg.id) throw conflict("mp.appTaken");
      if (cfg.app_id && cfg.app_id !== tokens.appId) {
        const versions = await tx
          .selectFrom("mp_versions")
          .select("id")
          .where("config_id", "=", cfg.id)
          .limit(1)
          .executeTakeFirst();
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
      if (existing) await tx.updateTable("mp_authorizers").set(row).where("app_id", "=", tokens.appId).execute();
      else {
        await tx
          .insertInto("mp_authorizers")
          .values({ app_id: tokens.appId, ...row })
          .execute();
      }
      await tx
        .updateTable("mp_configs")
        .set({ app_id: tokens.appId, updated_at: now })
        .where("id", "=", cfg.id)
        .execute();
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
      await this.db
        .updateTable("mp_authorizers")
        .set({
          access_token: t.accessToken,
          access_expires_at: new Date(now.getTime() + t.expiresIn * 1000),
          refresh_token: t.refreshToken,
          updated_at: now,
        })
        .where("app_id", "=", auth.app_id)
        .execute();
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
  private async call<T>(cfg: ConfigRow, op: (adapter: PlatformAdapter, token: string) => Promise<T>): Promise<T> {
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

  private async markUnauthorized(appId: string): Promise<void> {
    await this.db
      .updateTable("mp_authorizers")
      .set({ state: "unauthorized", updated_at: this.deps.clock.now() })
      .where("app_id", "=", appId)
      .execute();
  }

  // ---- templates ----

  async templates(platform: MpPlatform): Promise<MpTemplate[]> {
    return (await repo.templates(this.db, platform)).map(presentTemplate);
  }

  async templateParams(actor: Actor, configId: number) {
    const cfg = await this.config(actor, configId);
    const tpl = cfg.template_id ? await repo.findTemplate(this.db, cfg.template_id) : undefined;
    return {
      configId: String(cfg.id),
      templateId: tpl ? String(tpl.id) : null,
      params: tpl?.params ?? [],
      values: tpl ? valuesOf(tpl, cfg.template_params) : {},
    };
  }

  /** `POST templateParams`: choose the template and set its params for the config. */
  async saveTemplateParams(
    actor: Actor,
    req: { configId: number; templateId: number; values: Record<string, string> },
  ) {
    const cfg = await this.config(actor, req.configId);
    const tpl = await repo.findTemplate(this.db, req.templateId);
    if (tpl?.platform !== cfg.platform) throw invalid("mp.templateNotFound", "templateId");
    const keys = new Set(tpl.params.map((p) => p.key));
    const values = Object.fromEntries(Object.entries(req.values).filter(([k]) => keys.has(k)));
    await this.db
      .updateTable("mp_configs")
      .set({ template_id: tpl.id, template_params: JSON.stringify(values), updated_at: this.deps.clock.now() })
      .where("id", "=", cfg.id)
      .where("merchant_id", "=", cfg.merchant_id)
      .execute();
    return this.templateParams(actor, cfg.id);
  }

  async createTemplate(operator: Actor, req: MpTemplateReq): Promise<MpTemplate> {
    const now = this.deps.clock.now();
    const row = await withTx(this.db, async (tx) => {
      const n = await tx
        .selectFrom("mp_templates")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("platform", "=", req.platform)
        .where("deleted_at", "is", null)
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= 200) throw conflict("mp.templateLimit");
      const r = await tx
        .insertInto("mp_templates")
        .values({
          platform: req.platform,
          name: req.name,
          template_type: req.templateType,
          user_version: req.userVersion,
          description: req.description,
          params: JSON.stringify(req.params),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(tx, {
        actorUserId: operator.userId,
        action: "miniprogram.template.create",
        subjectType: "mp_template",
        subjectId: r.id,
      });
      return r;
    });
    return presentTemplate(row);
  }

  async updateTemplate(operator: Actor, id: number, req: MpTemplateReq): Promise<MpTemplate> {
    const tpl = await repo.findTemplate(this.db, id);
    if (!tpl) throw new AppError(CODE.NOT_FOUND, "mp.templateNotFound");
    const row = await this.db
      .updateTable("mp_templates")
      .set({
        name: req.name,
        template_type: req.templateType,
        user_version: req.userVersion,
        description: req.description,
        params: JSON.stringify(req.params),
        updated_at: this.deps.clock.now(),
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(this.db, {
      actorUserId: operator.userId,
      action: "miniprogram.template.update",
      subjectType: "mp_template",
      subjectId: id,
    });
    return presentTemplate(row);
  }

  async deleteTemplate(operator: Actor, id: number): Promise<{ deleted: true }> {
    const tpl = await repo.findTemplate(this.db, id);
    if (!tpl) throw new AppError(CODE.NOT_FOUND, "mp.templateNotFound");
    const used = await this.db
      .selectFrom("mp_configs")
      .select("id")
      .where("template_id", "=", id)
      .limit(1)
      .executeTakeFirst();
    if (used) throw conflict("mp.templateInUse");
    await this.db.updateTable("mp_templates").set({ deleted_at: this.deps.clock.now() }).where("id", "=", id).execute();
    await audit(this.db, {
      actorUserId: operator.userId,
      action: "miniprogram.template.delete",
      subjectType: "mp_template",
      subjectId: id,
    });
    return { deleted: true };
  }

  // ---- the code pipeline ----

  /** `PUT mpConfigs/{id}/commit`: upload the template with the config as ext_json; a new experience version. */
  async commit(actor: Actor, id: number, req: MpCommitReq, platform?: MpPlatform): Promise<MpConfig> {
    const cfg = await this.config(actor, id, platform);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    if (!cfg.template_id) throw conflict("mp.templateRequired");
    const tpl = await repo.findTemplate(this.db, cfg.template_id);
    if (!tpl) throw new AppError(CODE.CONFLICT, "mp.err.85014", { errcode: ERR.NO_TEMPLATE });
    const appearance = appearanceOf(cfg, cfg.app_id, tpl);
    const extJson = extJsonOf(cfg, cfg.app_id, tpl, appearance);
    const [latest] = await repo.versionsOf(this.db, cfg.merchant_id, cfg.id, 1);
    if (!req.force && latest?.ext_json === extJson && latest.template_id === tpl.id) {
      throw conflict("mp.nothingChanged");
    }
    await this.call(cfg, (a, token) =>
      a.commit(token, { templateId: tpl.id, extJson, userVersion: req.userVersion, userDesc: req.userDesc }),
    );
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      await tx
        .updateTable("mp_versions")
        .set({ state: "replaced" })
        .where("config_id", "=", cfg.id)
        .where("state", "=", "trial")
        .execute();
      await tx
        .insertInto("mp_versions")
        .values({
          config_id: cfg.id,
          merchant_id: cfg.merchant_id,
          app_id: cfg.app_id ?? "",
          template_id: tpl.id,
          user_version: req.userVersion,
          user_desc: req.userDesc,
          ext_json: extJson,
          appearance: JSON.stringify(appearance),
          categories: "[]",
          host_names: "[]",
          screenshots: "[]",
          committed_at: now,
        })
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.commit",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { userVersion: req.userVersion, force: req.force },
      });
    });
    return this.get(actor, id);
  }

  /** The experience version's QR: a PNG opening the mall preview `/mall/<appId>?v=beta`. */
  async betaQrcode(actor: Actor, id: number, origin: string): Promise<{ url: string; dataUrl: string }> {
    const cfg = await this.config(actor, id);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    const [latest] = await repo.versionsOf(this.db, cfg.merchant_id, cfg.id, 1);
    if (!latest) throw conflict("mp.noBetaVersion");
    const url = `${origin}/mall/${encodeURIComponent(cfg.app_id)}?v=beta`;
    const img = await this.call(cfg, (a, token) => a.trialQrcode(token, url));
    return { url, dataUrl: `data:${img.contentType};base64,${img.data.toString("base64")}` };
  }

  /**
   * `wxa/getwxacodeunlimit` for the merchant's authorised WeChat mini-program (its newest bound config):
   * the platform's image as a data URL. No bound app: mp.notAuthorized; the platform's refusals (41030 page,
   * 45009 limit, ...) as mp.err.<code>.
   */
  async unlimitedQrcode(merchantId: number, input: UnlimitedQrcodeInput): Promise<{ appId: string; dataUrl: string }> {
    const cfg = (await repo.allConfigs(this.db, merchantId)).find((c) => c.platform === "wechat" && c.app_id !== null);
    if (!cfg?.app_id) throw conflict("mp.notAuthorized");
    const adapter = this.adapter("wechat");
    if (!adapter.unlimitedQrcode) throw platformRefusal(new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized"));
    const img = await this.call(cfg, (a, token) => {
      if (!a.unlimitedQrcode) throw new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized");
      return a.unlimitedQrcode(token, input);
    });
    return { appId: cfg.app_id, dataUrl: `data:${img.contentType};base64,${img.data.toString("base64")}` };
  }

  async categories(actor: Actor, id: number) {
    const cfg = await this.config(actor, id);
    return { list: await this.call(cfg, (a, token) => a.categories(token)) };
  }

  /** `PUT mpConfig/{id}/submit`: the experience version goes to review (categories; Douyin: host apps). */
  async submit(actor: Actor, id: number, req: MpSubmitReq, platform?: MpPlatform): Promise<MpConfig> {
    const cfg = await this.config(actor, id, platform);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    const [latest] = await repo.versionsOf(this.db, cfg.merchant_id, cfg.id, 1);
    if (!latest) throw new AppError(CODE.CONFLICT, "mp.err.85086", { errcode: ERR.NOT_COMMITTED });
    const hostNames = cfg.platform === "douyin" ? (req.hostNames ?? ["douyin"]) : [];
    if (cfg.platform === "douyin" && hostNames.length === 0) throw invalid("mp.hostRequired", "hostNames");
    const categories = req.categories ?? [];
    if (cfg.platform === "wechat" && categories.length === 0) throw invalid("mp.categoryEmpty", "categories");
    const { auditId } = await this.call(cfg, (a, token) =>
      a.submitAudit(token, {
        itemList: categories,
        hostNames,
        versionDesc: req.versionDesc,
        feedbackInfo: req.feedbackInfo,
      }),
    );
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      // A resubmit of a version already reviewed records a new row for the new audit.
      let versionId = latest.id;
      if (latest.audit_id !== null) {
        const copy = await tx
          .insertInto("mp_versions")
          .values({
            config_id: cfg.id,
            merchant_id: cfg.merchant_id,
            app_id: latest.app_id,
            template_id: latest.template_id,
            user_version: latest.user_version,
            user_desc: latest.user_desc,
            ext_json: latest.ext_json,
            appearance: JSON.stringify(latest.appearance),
            categories: "[]",
            host_names: "[]",
            screenshots: "[]",
            committed_at: latest.committed_at,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        versionId = copy.id;
        if (latest.state !== "released" && latest.state !== "superseded" && latest.state !== "rolled_back") {
          await repo.setVersionState(tx, latest.id, "replaced");
        }
      }
      await repo.setVersionState(tx, versionId, "auditing", {
        audit_id: auditId,
        submitted_at: now,
        categories: JSON.stringify(categories),
        host_names: JSON.stringify(hostNames),
        version_desc: req.versionDesc,
        reason: null,
        screenshots: "[]",
      });
      await tx
        .updateTable("mp_configs")
        .set({ audit_state: "auditing", updated_at: now })
        .where("id", "=", cfg.id)
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.submit",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { auditId },
      });
    });
    return this.get(actor, id);
  }

  /** `wxa/undocodeaudit`: take the version out of review (limited per day and month). */
  async withdraw(actor: Actor, id: number): Promise<MpConfig> {
    const cfg = await this.config(actor, id);
    await this.call(cfg, (a, token) => a.undoAudit(token));
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      await tx
        .updateTable("mp_versions")
        .set({ state: "withdrawn", decided_at: now })
        .where("config_id", "=", cfg.id)
        .where("state", "in", ["auditing", "delayed"])
        .execute();
      await tx
        .updateTable("mp_configs")
        .set({ audit_state: "withdrawn", updated_at: now })
        .where("id", "=", cfg.id)
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.withdraw",
        subjectType: "mp_config",
        subjectId: cfg.id,
      });
    });
    return this.get(actor, id);
  }

  /** `PUT mpConfig/{id}/release`: publish the approved version. */
  async release(actor: Actor, id: number, platform?: MpPlatform): Promise<MpConfig> {
    const cfg = await this.config(actor, id, platform);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    await this.call(cfg, (a, token) => a.release(token));
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      const approved = await tx
        .selectFrom("mp_versions")
        .select("id")
        .where("config_id", "=", cfg.id)
        .where("state", "=", "approved")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      if (!approved) return;
      await tx
        .updateTable("mp_versions")
        .set({ state: "superseded" })
        .where("config_id", "=", cfg.id)
        .where("state", "=", "released")
        .execute();
      await repo.setVersionState(tx, approved.id, "released", { released_at: now });
      await tx
        .updateTable("mp_configs")
        .set({ publish_state: "published", updated_at: now })
        .where("id", "=", cfg.id)
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.release",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { versionId: approved.id },
      });
    });
    return this.get(actor, id);
  }

  /** `wxa/revertcoderelease`: the previous release goes back online. */
  async rollback(actor: Actor, id: number): Promise<MpConfig> {
    const cfg = await this.config(actor, id);
    await this.call(cfg, (a, token) => a.rollback(token));
    await withTx(this.db, async (tx) => {
      const previous = await tx
        .selectFrom("mp_versions")
        .select("id")
        .where("config_id", "=", cfg.id)
        .where("state", "=", "superseded")
        .orderBy("released_at", "desc")
        .limit(1)
        .executeTakeFirst();
      await tx
        .updateTable("mp_versions")
        .set({ state: "rolled_back" })
        .where("config_id", "=", cfg.id)
        .where("state", "=", "released")
        .execute();
      if (previous) await repo.setVersionState(tx, previous.id, "released");
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.rollback",
        subjectType: "mp_config",
        subjectId: cfg.id,
      });
    });
    return this.get(actor, id);
  }

  async versions(actor: Actor, id: number): Promise<{ list: MpVersion[] }> {
    const cfg = await this.config(actor, id);
    return {
      list: (await repo.versionsOf(this.db, cfg.merchant_id, cfg.id))
        .filter((v) => v.state !== "replaced")
        .map(presentVersion),
    };
  }

  async quota(
    actor: Actor,
    id: number,
  ): Promise<{ rest: number; limit: number; withdrawTodayRest: number; withdrawMonthRest: number }> {
    const cfg = await this.config(actor, id);
    const adapter = this.adapter(cfg.platform);
    const q = await adapter.quota();
    const w =
      cfg.app_id && adapter.withdrawRest
        ? await adapter.withdrawRest(cfg.app_id)
        : { today: WITHDRAW_PER_DAY, month: WITHDRAW_PER_MONTH };
    return { ...q, withdrawTodayRest: w.today, withdrawMonthRest: w.month };
  }

  /** Douyin host apps of the last review, and their result. */
  async hostNames(actor: Actor, id: number) {
    const cfg = await this.config(actor, id, "douyin");
    const [last] = (await repo.versionsOf(this.db, cfg.merchant_id, cfg.id, 20)).filter((v) => v.audit_id !== null);
    const hosts = ["toutiao", "douyin", "tt_lite", "douyin_lite", "xigua", "huoshan"] as const;
    const decided =
      last && ["approved", "released", "superseded", "rolled_back"].includes(last.state)
        ? true
        : last?.state === "rejected"
          ? false
          : null;
    return { list: hosts.map((h) => ({ hostName: h, approved: last?.host_names.includes(h) ? decided : null })) };
  }

  /** Screenshot a reviewer attached to a rejection of one of the merchant's versions. */
  async screenshot(actor: Actor, key: string): Promise<Buffer> {
    const merchantId = this.tenant(actor);
    const own = await this.db
      .selectFrom("mp_versions")
      .select("id")
      .where("merchant_id", "=", merchantId)
      .where(sql<boolean>`screenshots @> ${JSON.stringify([key])}::jsonb`)
      .executeTakeFirst();
    const data = own ? await this.deps.storage.get(`mp-audit/${key}`) : null;
    if (!data) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return data;
  }

  // ---- pushes ----

  async onPush(platform: MpPlatform, push: PlatformPush): Promise<void> {
    const now = this.deps.clock.now();
    if (!("auditId" in push)) {
      if (push.event === "unauthorized") await this.markUnauthorized(push.appId);
      return;
    }
    const { auditId, reason, screenshots } = push;
    await withTx(this.db, async (tx) => {
      const version = await tx
        .selectFrom("mp_versions")
        .selectAll()
        .where("audit_id", "=", auditId)
        .where("app_id", "=", push.appId)
        .forUpdate()
        .executeTakeFirst();
      if (!version || !["auditing", "delayed"].includes(version.state)) return;
      const state =
        push.event === "weapp_audit_success" ? "approved" : push.event === "weapp_audit_fail" ? "rejected" : "delayed";
      await repo.setVersionState(tx, version.id, state, {
        reason,
        screenshots: JSON.stringify(screenshots),
        ...(state !== "delayed" && { decided_at: now }),
      });
      await tx
        .updateTable("mp_configs")
        .set({ audit_state: state, updated_at: now })
        .where("id", "=", version.config_id)
        .where("platform", "=", platform)
        .execute();
    });
  }

  /** The merchant of each app (operator console). */
  async configsOfApps(appIds: string[]): Promise<Map<string, string>> {
    if (appIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("mp_configs")
      .select(["app_id", "merchant_id"])
      .where("app_id", "in", appIds)
      .execute();
    return new Map(rows.flatMap((r) => (r.app_id ? [[r.app_id, String(r.merchant_id)] as const] : [])));
  }

  // ---- the mall's view ----

  /** The released version's config, or the committed (experience) one for "beta"; null when none. */
  async mallAppearance(appId: string, version: "beta" | "release"): Promise<MallAppearance | null> {
    const cfg = await repo.configByApp(this.db, appId);
    if (!cfg) return null;
    let q = this.db
      .selectFrom("mp_versions")
      .select("appearance")
      .where("config_id", "=", cfg.id)
      .where("app_id", "=", appId);
    q = version === "release" ? q.where("state", "=", "released") : q.where("state", "!=", "replaced");
    const row = await q.orderBy("id", "desc").limit(1).executeTakeFirst();
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
    const tpls = templateIds.length
      ? await this.db.selectFrom("mp_templates").selectAll().where("id", "in", templateIds).execute()
      : [];
    const appIds = rows.map((r) => r.app_id).filter((a): a is string => a !== null);
    const auths = appIds.length
      ? await this.db.selectFrom("mp_authorizers").select(["app_id", "state"]).where("app_id", "in", appIds).execute()
      : [];
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

function valuesOf(tpl: TemplateRow, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(tpl.params.map((p) => [p.key, values[p.key] ?? p.default]));
}

function appearanceOf(cfg: ConfigRow, appId: string, tpl: TemplateRow): MallAppearance {
  return {
    configId: cfg.id,
    merchantId: cfg.merchant_id,
    platform: cfg.platform,
    appId,
    name: cfg.name,
    template: tpl.name,
    theme: Math.min(4, Math.max(1, cfg.theme)) as 1 | 2 | 3 | 4,
    navMenus: cfg.nav_menus.map((m: MenuItem) => ({ title: m.title, target: m.target })),
    bottomMenus: cfg.bottom_menus.map((m: MenuItem) => ({ title: m.title, target: m.target })),
    customerService: cfg.customer_service,
    smsSignature: cfg.sms_signature,
    validityDays: cfg.validity_days,
    payOnPlatform: cfg.pay_on_platform,
    allowTopupAccountChange: cfg.allow_topup_account_change,
  };
}

/** The ext_json of a commit: the merchant config read by `wx.getExtConfigSync`; a standard template takes only extAppid, ext, window. */
export function extJsonOf(cfg: ConfigRow, appId: string, tpl: TemplateRow, appearance: MallAppearance): string {
  const window = {
    navigationBarTitleText: cfg.name,
    navigationBarBackgroundColor: THEME_COLOURS[appearance.theme - 1],
  };
  const ext = { ...appearance, templateParams: valuesOf(tpl, cfg.template_params), domain: cfg.domain };
  if (tpl.template_type === 1) return JSON.stringify({ extAppid: appId, ext, window });
  return JSON.stringify({
    extEnable: true,
    extAppid: appId,
    directCommit: false,
    ext,
    window,
    ...(cfg.bottom_menus.length > 0 && {
      tabBar: {
        list: cfg.bottom_menus.map((m: MenuItem) => ({ text: m.title, pagePath: m.target.replace(/^\//, "") })),
      },
    }),
  });
}

function presentTemplate(t: TemplateRow): MpTemplate {
  return {
    id: String(t.id),
    platform: t.platform,
    name: t.name,
    templateType: t.template_type,
    userVersion: t.user_version,
    description: t.description,
    params: t.params,
    createdAt: new Date(t.created_at).toISOString(),
  };
}

function presentVersion(v: VersionRow): MpVersion {
  return {
    id: String(v.id),
    userVersion: v.user_version,
    userDesc: v.user_desc,
    templateId: String(v.template_id),
    state: v.state,
    auditId: v.audit_id,
    categories: v.categories,
    hostNames: v.host_names,
    reason: v.reason,
    screenshots: v.screenshots,
    committedAt: new Date(v.committed_at).toISOString(),
    submittedAt: iso(v.submitted_at),
    decidedAt: iso(v.decided_at),
    releasedAt: iso(v.released_at),
  };
}
