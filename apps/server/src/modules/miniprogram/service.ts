import type { MpPlatform } from "@tessera/contracts";
import type { PlatformPush } from "../../platform/adapters/miniprogram";
import { ConfigsService } from "./configs.service";
import { PipelineService } from "./pipeline.service";
import type { MiniprogramDeps } from "./shared";
import { TemplatesService } from "./templates.service";

export { extJsonOf } from "./presenter";
export { platformRefusal, type MallAppearance, type MiniprogramDeps } from "./shared";

/**
 * Mini-program storefronts: the merchant's mall config, its authorisation on the platform, commit, beta
 * QR, review, release and rollback through the platform adapter, and the version history. Platform calls
 * happen outside our transactions (a remote platform cannot join them); what they changed is recorded in
 * ours right after, and the platform's pushes (audit results, deauthorisation) update the same records.
 * The work is done by the feature services: configs (and their authorisation), templates, the pipeline.
 */
export class MiniprogramService {
  readonly configs: ConfigsService;
  readonly templateLibrary: TemplatesService;
  readonly pipeline: PipelineService;
  constructor(deps: MiniprogramDeps) {
    this.configs = new ConfigsService(deps);
    this.templateLibrary = new TemplatesService(deps, this.configs);
    this.pipeline = new PipelineService(deps, this.configs);
    for (const adapter of Object.values(deps.adapters)) adapter.onPush((push) => this.onPush(adapter.platform, push));
  }

  /* ---------- configs and their authorisation (configs.service.ts) ---------- */
  list: ConfigsService["list"] = (...a) => this.configs.list(...a);
  all: ConfigsService["all"] = (...a) => this.configs.all(...a);
  get: ConfigsService["get"] = (...a) => this.configs.get(...a);
  save: ConfigsService["save"] = (...a) => this.configs.save(...a);
  needAuth: ConfigsService["needAuth"] = (...a) => this.configs.needAuth(...a);
  authUrl: ConfigsService["authUrl"] = (...a) => this.configs.authUrl(...a);
  authCallback: ConfigsService["authCallback"] = (...a) => this.configs.authCallback(...a);
  configsOfApps: ConfigsService["configsOfApps"] = (...a) => this.configs.configsOfApps(...a);
  mallAppearance: ConfigsService["mallAppearance"] = (...a) => this.configs.mallAppearance(...a);

  /* ---------- templates (templates.service.ts) ---------- */
  templates: TemplatesService["templates"] = (...a) => this.templateLibrary.templates(...a);
  templateParams: TemplatesService["templateParams"] = (...a) => this.templateLibrary.templateParams(...a);
  saveTemplateParams: TemplatesService["saveTemplateParams"] = (...a) => this.templateLibrary.saveTemplateParams(...a);
  createTemplate: TemplatesService["createTemplate"] = (...a) => this.templateLibrary.createTemplate(...a);
  updateTemplate: TemplatesService["updateTemplate"] = (...a) => this.templateLibrary.updateTemplate(...a);
  deleteTemplate: TemplatesService["deleteTemplate"] = (...a) => this.templateLibrary.deleteTemplate(...a);
  recordReviewDecision: TemplatesService["recordReviewDecision"] = (...a) =>
    this.templateLibrary.recordReviewDecision(...a);

  /* ---------- the code pipeline (pipeline.service.ts) ---------- */
  commit: PipelineService["commit"] = (...a) => this.pipeline.commit(...a);
  betaQrcode: PipelineService["betaQrcode"] = (...a) => this.pipeline.betaQrcode(...a);
  unlimitedQrcode: PipelineService["unlimitedQrcode"] = (...a) => this.pipeline.unlimitedQrcode(...a);
  categories: PipelineService["categories"] = (...a) => this.pipeline.categories(...a);
  submit: PipelineService["submit"] = (...a) => this.pipeline.submit(...a);
  withdraw: PipelineService["withdraw"] = (...a) => this.pipeline.withdraw(...a);
  release: PipelineService["release"] = (...a) => this.pipeline.release(...a);
  rollback: PipelineService["rollback"] = (...a) => this.pipeline.rollback(...a);
  versions: PipelineService["versions"] = (...a) => this.pipeline.versions(...a);
  quota: PipelineService["quota"] = (...a) => this.pipeline.quota(...a);
  hostNames: PipelineService["hostNames"] = (...a) => this.pipeline.hostNames(...a);
  screenshot: PipelineService["screenshot"] = (...a) => this.pipeline.screenshot(...a);

  /** The platform's pushes: audit results (the pipeline) and deauthorisation. */
  onPush(platform: MpPlatform, push: PlatformPush): Promise<void> {
    return this.pipeline.onPush(platform, push);
  }
}
