import {
  CODE,
  type MpCommitReq,
  type MpConfig,
  type MpPlatform,
  type MpSubmitReq,
  type MpVersion,
} from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { ERR, PlatformError, type PlatformPush, type UnlimitedQrcodeInput } from "../../platform/adapters/miniprogram";
import type { ConfigsService } from "./configs.service";
import { WITHDRAW_PER_DAY, WITHDRAW_PER_MONTH } from "../../platform/adapters/miniprogram";
import * as pipeline from "./pipeline.repo";
import { appearanceOf, extJsonOf, presentVersion } from "./presenter";
import * as repo from "./repo";
import { platformRefusal, type MiniprogramDeps } from "./shared";

/**
 * The code pipeline of a config's app: commit (a new experience version), the beta QR, review (submit,
 * withdraw, the platform's audit pushes), release and rollback, and the version history. Platform calls
 * happen outside our transactions (a remote platform cannot join them); what they changed is recorded in
 * ours right after.
 */
export class PipelineService {
  constructor(
    private readonly deps: MiniprogramDeps,
    private readonly configs: ConfigsService,
  ) {}
  private get db() {
    return this.deps.db;
  }

  // ---- the code pipeline ----

  /** `PUT mpConfigs/{id}/commit`: upload the template with the config as ext_json; a new experience version. */
  async commit(actor: Actor, id: number, req: MpCommitReq, platform?: MpPlatform): Promise<MpConfig> {
    const cfg = await this.configs.config(actor, id, platform);
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
    await this.configs.call(cfg, (a, token) =>
      a.commit(token, { templateId: tpl.id, extJson, userVersion: req.userVersion, userDesc: req.userDesc }),
    );
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      await pipeline.replaceTrial(tx, cfg.id);
      await pipeline.insertVersion(tx, {
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
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.commit",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { userVersion: req.userVersion, force: req.force },
      });
    });
    return this.configs.get(actor, id);
  }

  /** The experience version's QR: a PNG opening the mall preview `/mall/<appId>?v=beta`. */
  async betaQrcode(actor: Actor, id: number, origin: string): Promise<{ url: string; dataUrl: string }> {
    const cfg = await this.configs.config(actor, id);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    const [latest] = await repo.versionsOf(this.db, cfg.merchant_id, cfg.id, 1);
    if (!latest) throw conflict("mp.noBetaVersion");
    const url = `${origin}/mall/${encodeURIComponent(cfg.app_id)}?v=beta`;
    const img = await this.configs.call(cfg, (a, token) => a.trialQrcode(token, url));
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
    const adapter = this.configs.adapter("wechat");
    if (!adapter.unlimitedQrcode) throw platformRefusal(new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized"));
    const img = await this.configs.call(cfg, (a, token) => {
      if (!a.unlimitedQrcode) throw new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized");
      return a.unlimitedQrcode(token, input);
    });
    return { appId: cfg.app_id, dataUrl: `data:${img.contentType};base64,${img.data.toString("base64")}` };
  }

  async categories(actor: Actor, id: number) {
    const cfg = await this.configs.config(actor, id);
    return { list: await this.configs.call(cfg, (a, token) => a.categories(token)) };
  }

  /** `PUT mpConfig/{id}/submit`: the experience version goes to review (categories; Douyin: host apps). */
  async submit(actor: Actor, id: number, req: MpSubmitReq, platform?: MpPlatform): Promise<MpConfig> {
    const cfg = await this.configs.config(actor, id, platform);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    const [latest] = await repo.versionsOf(this.db, cfg.merchant_id, cfg.id, 1);
    if (!latest) throw new AppError(CODE.CONFLICT, "mp.err.85086", { errcode: ERR.NOT_COMMITTED });
    const hostNames = cfg.platform === "douyin" ? (req.hostNames ?? ["douyin"]) : [];
    if (cfg.platform === "douyin" && hostNames.length === 0) throw invalid("mp.hostRequired", "hostNames");
    const categories = req.categories ?? [];
    if (cfg.platform === "wechat" && categories.length === 0) throw invalid("mp.categoryEmpty", "categories");
    const { auditId } = await this.configs.call(cfg, (a, token) =>
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
        const copy = await pipeline.copyVersion(tx, {
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
        });
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
      await pipeline.setConfigStates(tx, cfg.id, { audit_state: "auditing", updated_at: now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.submit",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { auditId },
      });
    });
    return this.configs.get(actor, id);
  }

  /** `wxa/undocodeaudit`: take the version out of review (limited per day and month). */
  async withdraw(actor: Actor, id: number): Promise<MpConfig> {
    const cfg = await this.configs.config(actor, id);
    await this.configs.call(cfg, (a, token) => a.undoAudit(token));
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      await pipeline.withdrawInReview(tx, cfg.id, now);
      await pipeline.setConfigStates(tx, cfg.id, { audit_state: "withdrawn", updated_at: now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.withdraw",
        subjectType: "mp_config",
        subjectId: cfg.id,
      });
    });
    return this.configs.get(actor, id);
  }

  /** `PUT mpConfig/{id}/release`: publish the approved version. */
  async release(actor: Actor, id: number, platform?: MpPlatform): Promise<MpConfig> {
    const cfg = await this.configs.config(actor, id, platform);
    if (!cfg.app_id) throw conflict("mp.notAuthorized");
    await this.configs.call(cfg, (a, token) => a.release(token));
    const now = this.deps.clock.now();
    await withTx(this.db, async (tx) => {
      const approved = await pipeline.latestApproved(tx, cfg.id);
      if (!approved) return;
      await pipeline.setReleasedState(tx, cfg.id, "superseded");
      await repo.setVersionState(tx, approved.id, "released", { released_at: now });
      await pipeline.setConfigStates(tx, cfg.id, { publish_state: "published", updated_at: now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.release",
        subjectType: "mp_config",
        subjectId: cfg.id,
        detail: { versionId: approved.id },
      });
    });
    return this.configs.get(actor, id);
  }

  /** `wxa/revertcoderelease`: the previous release goes back online. */
  async rollback(actor: Actor, id: number): Promise<MpConfig> {
    const cfg = await this.configs.config(actor, id);
    await this.configs.call(cfg, (a, token) => a.rollback(token));
    await withTx(this.db, async (tx) => {
      const previous = await pipeline.previousRelease(tx, cfg.id);
      await pipeline.setReleasedState(tx, cfg.id, "rolled_back");
      if (previous) await repo.setVersionState(tx, previous.id, "released");
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.rollback",
        subjectType: "mp_config",
        subjectId: cfg.id,
      });
    });
    return this.configs.get(actor, id);
  }

  async versions(actor: Actor, id: number): Promise<{ list: MpVersion[] }> {
    const cfg = await this.configs.config(actor, id);
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
    const cfg = await this.configs.config(actor, id);
    const adapter = this.configs.adapter(cfg.platform);
    const q = await adapter.quota();
    const w =
      cfg.app_id && adapter.withdrawRest
        ? await adapter.withdrawRest(cfg.app_id)
        : { today: WITHDRAW_PER_DAY, month: WITHDRAW_PER_MONTH };
    return { ...q, withdrawTodayRest: w.today, withdrawMonthRest: w.month };
  }

  /** Douyin host apps of the last review, and their result. */
  async hostNames(actor: Actor, id: number) {
    const cfg = await this.configs.config(actor, id, "douyin");
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
    const merchantId = this.configs.tenant(actor);
    const own = await pipeline.versionWithScreenshot(this.db, merchantId, key);
    const data = own ? await this.deps.storage.get(`mp-audit/${key}`) : null;
    if (!data) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return data;
  }

  // ---- pushes ----

  async onPush(platform: MpPlatform, push: PlatformPush): Promise<void> {
    const now = this.deps.clock.now();
    if (!("auditId" in push)) {
      if (push.event === "unauthorized") await this.configs.markUnauthorized(push.appId);
      return;
    }
    const { auditId, reason, screenshots } = push;
    await withTx(this.db, async (tx) => {
      const version = await pipeline.lockVersionByAudit(tx, push.appId, auditId);
      if (!version || !["auditing", "delayed"].includes(version.state)) return;
      const state =
        push.event === "weapp_audit_success" ? "approved" : push.event === "weapp_audit_fail" ? "rejected" : "delayed";
      await repo.setVersionState(tx, version.id, state, {
        reason,
        screenshots: JSON.stringify(screenshots),
        ...(state !== "delayed" && { decided_at: now }),
      });
      await pipeline.setAuditStateOn(tx, version.config_id, platform, state, now);
    });
  }
}
