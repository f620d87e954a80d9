import { CODE, type MpPlatform, type MpTemplate, type MpTemplateReq } from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { ConfigsService } from "./configs.service";
import { presentTemplate, valuesOf } from "./presenter";
import { recordOperatorAction } from "../ops";
import * as repo from "./repo";
import type { MiniprogramDeps } from "./shared";
import * as templates from "./templates.repo";

/** The template library (the operators') and a config's choice of template and its params (the merchant's). */
export class TemplatesService {
  constructor(
    private readonly deps: MiniprogramDeps,
    private readonly configs: ConfigsService,
  ) {}
  private get db() {
    return this.deps.db;
  }

  async templates(platform: MpPlatform): Promise<MpTemplate[]> {
    return (await repo.templates(this.db, platform)).map(presentTemplate);
  }

  async templateParams(actor: Actor, configId: number) {
    const cfg = await this.configs.config(actor, configId);
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
    const cfg = await this.configs.config(actor, req.configId);
    const tpl = await repo.findTemplate(this.db, req.templateId);
    if (tpl?.platform !== cfg.platform) throw invalid("mp.templateNotFound", "templateId");
    const keys = new Set(tpl.params.map((p) => p.key));
    const values = Object.fromEntries(Object.entries(req.values).filter(([k]) => keys.has(k)));
    await templates.setConfigTemplate(this.db, cfg.merchant_id, cfg.id, {
      template_id: tpl.id,
      template_params: JSON.stringify(values),
      updated_at: this.deps.clock.now(),
    });
    return this.templateParams(actor, cfg.id);
  }

  async createTemplate(operator: Actor, req: MpTemplateReq): Promise<MpTemplate> {
    const now = this.deps.clock.now();
    const row = await withTx(this.db, async (tx) => {
      const n = await templates.countLive(tx, req.platform);
      if (Number(n.n) >= 200) throw conflict("mp.templateLimit");
      const r = await templates.insertTemplate(tx, {
        platform: req.platform,
        name: req.name,
        template_type: req.templateType,
        user_version: req.userVersion,
        description: req.description,
        params: JSON.stringify(req.params),
        created_at: now,
        updated_at: now,
      });
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
    const row = await templates.updateTemplate(this.db, id, {
      name: req.name,
      template_type: req.templateType,
      user_version: req.userVersion,
      description: req.description,
      params: JSON.stringify(req.params),
      updated_at: this.deps.clock.now(),
    });
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
    const used = await templates.configUsing(this.db, id);
    if (used) throw conflict("mp.templateInUse");
    await templates.deleteTemplate(this.db, id, this.deps.clock.now());
    await audit(this.db, {
      actorUserId: operator.userId,
      action: "miniprogram.template.delete",
      subjectType: "mp_template",
      subjectId: id,
    });
    return { deleted: true };
  }

  /**
   * An operator's decision on a mini-program review of the local platform, in the console's audit log
   * (issue 40, item 16): approved, delayed or rejected, with the reason.
   */
  async recordReviewDecision(
    operatorUserId: number,
    d: { platform: MpPlatform; auditId: number; status: 0 | 1 | 4; reason: string | null },
  ): Promise<void> {
    const decision = d.status === 0 ? "approved" : d.status === 1 ? "rejected" : "delayed";
    await recordOperatorAction(this.db, {
      operatorUserId,
      action: `miniprogram.review.${decision}`,
      subjectType: "mp_audit",
      subjectId: `${d.platform}:${d.auditId}`,
      before: { state: "auditing" },
      after: { state: decision },
      reason: d.reason,
      ip: null,
      now: this.deps.clock.now(),
    });
  }
}
