import { z } from "zod";
import { pageOf, pageQuery } from "./paging";

/**
 * Mini-program storefronts (issue 30 part A; spec 01 §3 Mini-program mall fields, §4 audit and publish
 * states, §5 required fields, §7 Mini-program social platform and the tiktok/ set). A merchant's mall
 * config on a platform (WeChat third-party platform or Douyin), its authorised app, the versions it
 * commits, submits for review and releases.
 */

export const MP_PLATFORMS = ["wechat", "douyin"] as const;
export type MpPlatform = (typeof MP_PLATFORMS)[number];
/** Spec §4: audit not submitted, under review (incl. delayed), approved, rejected (and withdrawn by the merchant). */
export const MP_AUDIT_STATES = ["not_submitted", "auditing", "delayed", "approved", "rejected", "withdrawn"] as const;
export type MpAuditState = (typeof MP_AUDIT_STATES)[number];
export const MP_PUBLISH_STATES = ["unpublished", "published"] as const;
export const MP_VERSION_STATES = [
  "trial",
  "auditing",
  "delayed",
  "approved",
  "rejected",
  "withdrawn",
  "released",
  "superseded",
  "rolled_back",
  "replaced",
] as const;
/** Douyin's audit hosts (package/audit `hostNames` ⊆ these). */
export const DOUYIN_HOSTS = ["toutiao", "douyin", "tt_lite", "douyin_lite", "xigua", "huoshan"] as const;
/** Review submission is advised at 17:00 (spec 01 §4, §9). */
export const MP_ADVISED_SUBMIT_HOUR = 17;

const text = (max: number, error: "mp.textTooLong" = "mp.textTooLong") => z.string().trim().max(max, { error });
const required = (
  error: "mp.nameEmpty" | "mp.configIdEmpty" | "mp.categoryEmpty" | "mp.descEmpty" | "mp.menuNameEmpty",
  max: number,
) => z.string({ error }).trim().min(1, { error }).max(max, { error: "mp.textTooLong" });
const id = z.coerce.number({ error: "validation.invalidParameter" }).int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The pages of the mall's storefront a menu may open (issue 40 item 14): home, the goods and gift-pack
 * lists, the cart and the orders. A menu opens one of them or an https link; anything else ("/my") would
 * silently open the home page, so it is refused.
 */
export const MALL_MENU_TARGETS = ["/", "/goods", "/bags", "/cart", "/orders"] as const;
export type MallMenuTarget = (typeof MALL_MENU_TARGETS)[number];

/** Whether a menu target is one of the storefront's pages (written with or without slashes) or an https link. */
export function isMallMenuTarget(target: string): boolean {
  const t = target.trim();
  if (/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(t)) return true;
  const page = `/${t.replace(/^\/+|\/+$/g, "").toLowerCase()}`;
  return page === "/home" || (MALL_MENU_TARGETS as readonly string[]).includes(page);
}

export const mpMenuItem = z.object({
  title: required("mp.menuNameEmpty", 20),
  target: z
    .string()
    .trim()
    .max(200, { error: "mp.textTooLong" })
    .default("/")
    .refine(isMallMenuTarget, { error: "mp.menuTargetInvalid" }),
});
export type MpMenuItem = z.infer<typeof mpMenuItem>;

/** `PUT mpConfigs` (and tiktok/miniPrograms): create (no id) or update a mall config; §5 required fields. */
export const mpConfigReq = z.strictObject({
  id: id.optional(),
  platform: z.enum(MP_PLATFORMS, { error: "mp.platformInvalid" }).default("wechat"),
  configCode: required("mp.configIdEmpty", 40).regex(/^[A-Za-z0-9_-]+$/, { error: "mp.configIdFormat" }),
  name: required("mp.nameEmpty", 30),
  category: required("mp.categoryEmpty", 60),
  description: required("mp.descEmpty", 200),
  templateId: id.nullable().optional(),
  theme: z.coerce
    .number({ error: "mp.themeInvalid" })
    .int({ error: "mp.themeInvalid" })
    .min(1, { error: "mp.themeInvalid" })
    .max(4, { error: "mp.themeInvalid" })
    .default(1),
  navMenus: z.array(mpMenuItem).max(10, { error: "mp.tooManyMenus" }).default([]),
  bottomMenus: z.array(mpMenuItem).max(5, { error: "mp.tooManyMenus" }).default([]),
  customerService: text(60).nullable().optional(),
  domain: z
    .string()
    .trim()
    .max(120, { error: "mp.textTooLong" })
    .regex(/^$|^(?:https:\/\/)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\/?$/, { error: "mp.domainInvalid" })
    .nullable()
    .optional(),
  smsSignature: text(20).nullable().optional(),
  payOnPlatform: z.boolean().default(false),
  validityDays: z.coerce
    .number({ error: "mp.validityInvalid" })
    .int({ error: "mp.validityInvalid" })
    .min(1, { error: "mp.validityInvalid" })
    .max(3650, { error: "mp.validityInvalid" })
    .nullable()
    .optional(),
  allowTopupAccountChange: z.boolean().default(false),
});
export type MpConfigReq = z.infer<typeof mpConfigReq>;

export const mpVersion = z.object({
  id: z.string(),
  userVersion: z.string(),
  userDesc: z.string(),
  templateId: z.string(),
  state: z.enum(MP_VERSION_STATES),
  auditId: z.string().nullable(),
  categories: z.array(z.object({ firstClass: z.string(), secondClass: z.string() })),
  hostNames: z.array(z.string()),
  reason: z.string().nullable(),
  screenshots: z.array(z.string()),
  committedAt: z.string(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  releasedAt: z.string().nullable(),
});
export type MpVersion = z.infer<typeof mpVersion>;

export const mpConfig = z.object({
  id: z.string(),
  merchantId: z.string(),
  platform: z.enum(MP_PLATFORMS),
  configCode: z.string(),
  name: z.string(),
  category: z.string(),
  description: z.string(),
  templateId: z.string().nullable(),
  templateName: z.string().nullable(),
  templateParams: z.record(z.string(), z.string()),
  theme: z.number().int(),
  navMenus: z.array(z.object({ title: z.string(), target: z.string() })),
  bottomMenus: z.array(z.object({ title: z.string(), target: z.string() })),
  customerService: z.string().nullable(),
  domain: z.string().nullable(),
  smsSignature: z.string().nullable(),
  payOnPlatform: z.boolean(),
  validityDays: z.number().int().nullable(),
  allowTopupAccountChange: z.boolean(),
  appId: z.string().nullable(),
  authorized: z.boolean(),
  auditState: z.enum(MP_AUDIT_STATES),
  publishState: z.enum(MP_PUBLISH_STATES),
  /** The version committed last (the experience version), under review, and online. */
  trial: mpVersion.nullable(),
  audit: mpVersion.nullable(),
  online: mpVersion.nullable(),
  /** Whether the config changed since the last commit (a new commit is needed to ship it). */
  changedSinceCommit: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MpConfig = z.infer<typeof mpConfig>;
export const mpConfigPage = pageOf(mpConfig);
export const mpConfigQuery = pageQuery.extend({
  platform: z.enum(MP_PLATFORMS, { error: "mp.platformInvalid" }).optional(),
  name: z.string().trim().max(30).optional(),
});
export type MpConfigQuery = z.infer<typeof mpConfigQuery>;
export const mpConfigBrief = z.object({
  id: z.string(),
  name: z.string(),
  platform: z.enum(MP_PLATFORMS),
  appId: z.string().nullable(),
});

export const mpConfigIdQuery = z.object({ configId: id });
export const mpNeedAuthReply = z.object({
  needAuth: z.boolean(),
  appId: z.string().nullable(),
  reason: z.enum(["none", "expired", "revoked"]).nullable(),
});
export const mpAuthUrlReply = z.object({ url: z.string(), expiresIn: z.number().int() });
export const mpAuthCallbackReq = z.strictObject({
  configId: id,
  authCode: z.string().trim().min(1, { error: "mp.authCodeInvalid" }).max(100, { error: "mp.authCodeInvalid" }),
});

export const mpTemplateParamDef = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,29}$/, { error: "mp.paramKeyInvalid" }),
  label: z.string().trim().min(1, { error: "mp.paramLabelEmpty" }).max(30, { error: "mp.textTooLong" }),
  type: z.enum(["text", "color", "boolean", "number"]).default("text"),
  default: z.string().max(200, { error: "mp.textTooLong" }).default(""),
});
export const mpTemplate = z.object({
  id: z.string(),
  platform: z.enum(MP_PLATFORMS),
  name: z.string(),
  templateType: z.number().int(),
  userVersion: z.string(),
  description: z.string(),
  params: z.array(mpTemplateParamDef),
  createdAt: z.string(),
});
export type MpTemplate = z.infer<typeof mpTemplate>;
export const mpTemplateQuery = z.object({
  platform: z.enum(MP_PLATFORMS, { error: "mp.platformInvalid" }).default("wechat"),
});
export const mpTemplateReq = z.strictObject({
  platform: z.enum(MP_PLATFORMS, { error: "mp.platformInvalid" }),
  name: z.string().trim().min(1, { error: "mp.templateNameEmpty" }).max(40, { error: "mp.textTooLong" }),
  templateType: z.union([z.literal(0), z.literal(1)]).default(0),
  userVersion: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, { error: "mp.userVersionInvalid" }),
  description: z.string().trim().max(200, { error: "mp.textTooLong" }).default(""),
  params: z.array(mpTemplateParamDef).max(30).default([]),
});
export type MpTemplateReq = z.infer<typeof mpTemplateReq>;
export const mpTemplateParamsReply = z.object({
  configId: z.string(),
  templateId: z.string().nullable(),
  params: z.array(mpTemplateParamDef),
  values: z.record(z.string(), z.string()),
});
export const mpTemplateParamsReq = z.strictObject({
  configId: id,
  templateId: id,
  values: z.record(z.string().max(30), z.string().max(200, { error: "mp.textTooLong" })).default({}),
});

export const mpCommitReq = z.strictObject({
  userVersion: z
    .string()
    .trim()
    .regex(/^\d+\.\d+\.\d+$/, { error: "mp.userVersionInvalid" }),
  userDesc: z.string().trim().max(200, { error: "mp.textTooLong" }).default(""),
  /** Force upload: commit even when nothing changed since the last commit. */
  force: z.boolean().default(false),
});
export type MpCommitReq = z.infer<typeof mpCommitReq>;
export const mpCategory = z.object({
  firstClass: z.string(),
  secondClass: z.string(),
  firstId: z.number().int(),
  secondId: z.number().int(),
});
export const mpCategoriesReply = z.object({ list: z.array(mpCategory) });
export const mpSubmitReq = z.strictObject({
  categories: z
    .array(
      z.object({
        firstClass: z.string().trim().min(1, { error: "mp.categoryEmpty" }).max(30),
        secondClass: z.string().trim().min(1, { error: "mp.categoryEmpty" }).max(30),
      }),
    )
    .min(1, { error: "mp.categoryEmpty" })
    .max(5, { error: "mp.tooManyCategories" })
    .optional(),
  hostNames: z
    .array(z.enum(DOUYIN_HOSTS, { error: "mp.hostInvalid" }))
    .max(6)
    .optional(),
  versionDesc: z.string().trim().max(200, { error: "mp.textTooLong" }).default(""),
  feedbackInfo: z.string().trim().max(200, { error: "mp.textTooLong" }).default(""),
});
export type MpSubmitReq = z.infer<typeof mpSubmitReq>;
export const mpBetaQrReply = z.object({ url: z.string(), dataUrl: z.string() });
export const mpQuotaReply = z.object({
  rest: z.number().int(),
  limit: z.number().int(),
  withdrawTodayRest: z.number().int(),
  withdrawMonthRest: z.number().int(),
});
export const mpVersionsReply = z.object({ list: z.array(mpVersion) });
export const mpHostNamesReply = z.object({
  list: z.array(z.object({ hostName: z.enum(DOUYIN_HOSTS), approved: z.boolean().nullable() })),
});

/** Operator console: an audit of the local platform. */
export const mpAuditItem = z.object({
  auditId: z.string(),
  platform: z.enum(MP_PLATFORMS),
  appId: z.string(),
  appName: z.string(),
  merchantId: z.string().nullable(),
  userVersion: z.string(),
  userDesc: z.string(),
  status: z.number().int(),
  categories: z.array(z.object({ firstClass: z.string(), secondClass: z.string() })),
  hostNames: z.array(z.string()),
  reason: z.string().nullable(),
  screenshots: z.array(z.string()),
  previewUrl: z.string(),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
});
export const mpAuditPage = pageOf(mpAuditItem);
export const mpAuditQuery = pageQuery.extend({ status: z.coerce.number().int().min(0).max(4).optional() });
export const mpRejectReq = z.strictObject({
  reason: z.string().trim().min(1, { error: "mp.reasonEmpty" }).max(500, { error: "mp.textTooLong" }),
  /** Screenshots as data URLs (PNG or JPEG, ≤ 1 MB each). */
  screenshots: z
    .array(
      z
        .string()
        .max(1_400_000, { error: "mp.screenshotInvalid" })
        .regex(/^data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/=]+$/, { error: "mp.screenshotInvalid" }),
    )
    .max(5)
    .default([]),
});
export const mpPreauthInfo = z.object({
  platform: z.enum(MP_PLATFORMS),
  expired: z.boolean(),
  used: z.boolean(),
  scopes: z.array(z.string()),
  accountType: z.enum(["miniprogram", "official", "life"]).default("miniprogram"),
});
export const mpAuthorizeReq = z.strictObject({
  nickName: z.string().trim().min(1, { error: "mp.nameEmpty" }).max(30, { error: "mp.textTooLong" }),
});
export const mpAuthorizeReply = z.object({ redirect: z.string(), appId: z.string() });

/* ---------- official accounts (WechatOfficial, DockWechat) and local-life accounts (LocaLivePlatform) ---------- */

export const MP_ACCOUNT_KINDS = ["official", "life"] as const;
export type MpAccountKind = (typeof MP_ACCOUNT_KINDS)[number];
export const MP_ACCOUNT_STATES = ["authorized", "unauthorized", "unbound"] as const;

/** An official account (公众号, WeChat) or local-life account (Douyin local services) a merchant bound. */
export const mpAccount = z.object({
  id: z.string(),
  kind: z.enum(MP_ACCOUNT_KINDS),
  platform: z.enum(MP_PLATFORMS),
  appId: z.string(),
  name: z.string(),
  brandId: z.string().nullable(),
  /** The functions the account authorised to the platform. */
  scopes: z.array(z.string()),
  state: z.enum(MP_ACCOUNT_STATES),
  /** The menu set on the official account (links to the mall), when set. */
  menu: z.array(z.object({ name: z.string(), url: z.string() })).nullable(),
  authorizedAt: z.string(),
  updatedAt: z.string(),
});
export type MpAccount = z.infer<typeof mpAccount>;

/** A call the (local) platform answered for the account: what it would have sent. */
export const mpPlatformCall = z.object({
  operation: z.string(),
  payload: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type MpPlatformCall = z.infer<typeof mpPlatformCall>;

export const mpOfficialReply = z.object({
  account: mpAccount.nullable(),
  /** The released malls the menu links to. */
  mallLinks: z.array(z.object({ name: z.string(), url: z.string() })),
  /** The account's message templates (template messages it may send). */
  templates: z.array(z.object({ id: z.string(), title: z.string() })),
  calls: z.array(mpPlatformCall),
});
export type MpOfficialReply = z.infer<typeof mpOfficialReply>;

export const mpAccountAuthUrlQuery = z.object({
  redirect: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/)
    .max(200),
  brandId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const mpAccountCallbackReq = z.strictObject({
  authCode: z.string().trim().min(1, { error: "mp.authCodeInvalid" }).max(100, { error: "mp.authCodeInvalid" }),
  brandId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const mpTemplateMessageReq = z.strictObject({
  openId: z
    .string({ error: "mp.openIdEmpty" })
    .trim()
    .min(1, { error: "mp.openIdEmpty" })
    .max(64, { error: "mp.textTooLong" }),
  templateId: z
    .string({ error: "mp.templateRequired" })
    .trim()
    .min(1, { error: "mp.templateRequired" })
    .max(64, { error: "mp.textTooLong" }),
});

/** LocaLivePlatform: the brands a provider serves and their local-life authorisation. */
export const mpLifeBrand = z.object({ brandId: z.string(), brandName: z.string(), account: mpAccount.nullable() });
export const mpLifeBrandsReply = z.object({ list: z.array(mpLifeBrand) });
export type MpLifeBrand = z.infer<typeof mpLifeBrand>;
