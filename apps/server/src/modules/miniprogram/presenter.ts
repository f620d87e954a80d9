import type { MpTemplate, MpVersion } from "@tessera/contracts";
import type { ConfigRow, TemplateRow, VersionRow } from "./repo";
import { iso, type MallAppearance } from "./shared";
import type { MenuItem } from "./tables";

/** How configs' versions and templates are shown, and what a commit uploads (the appearance, the ext_json). */

const THEME_COLOURS = ["#e4393c", "#1677ff", "#13a35b", "#222222"] as const;

export function valuesOf(tpl: TemplateRow, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(tpl.params.map((p) => [p.key, values[p.key] ?? p.default]));
}

export function appearanceOf(cfg: ConfigRow, appId: string, tpl: TemplateRow): MallAppearance {
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

export function presentTemplate(t: TemplateRow): MpTemplate {
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

export function presentVersion(v: VersionRow): MpVersion {
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
