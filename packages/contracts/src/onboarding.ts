import { z } from "zod";
import { emailField, loginPasswordField, money, newPasswordField, smsCodeField } from "./accounts";
import { API_PERMISSIONS, CURRENCIES, REAL_NAME_STATES } from "./enums";
import { isCalendarDate } from "./dates";
import { pageQuery } from "./paging";
import { isNationalId, isPersonName, MOBILE_RE, EMAIL_RE } from "./validators";

/**
 * Merchant onboarding calls (spec 01 §3 Account, §4 Real-name, §5 helper validators, §7 realNameInfo,
 * brander, passport/sub, api, realNameAuths). Issue messages are message keys (messages-onboarding.ts).
 */

/** Industries a merchant may declare (`PUT realNameAuths/{merchId}/industries`); labels live in the web locales. */
export const INDUSTRIES = [
  "retail",
  "catering",
  "telecom",
  "entertainment",
  "travel",
  "fuel",
  "finance",
  "education",
  "healthcare",
  "internet",
  "other",
] as const;
export type Industry = (typeof INDUSTRIES)[number];

const personName = (
  key: "profile.legalRepresentativeInvalid" | "profile.contactNameInvalid" | "realName.personNameInvalid",
) => z.string({ error: key }).trim().refine(isPersonName, { error: key });

/** A contact phone: a mainland mobile, or an international number with its country code. */
const contactPhone = z
  .string()
  .trim()
  .refine((v) => MOBILE_RE.test(v) || /^\+\d{6,15}$/.test(v), { error: "validation.mobileFormat" });

/* ---------- profile ---------- */

export const profileReply = z.object({
  merchantId: z.string(),
  companyName: z.string(),
  legalRepresentative: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  address: z.string().nullable(),
  industry: z.enum(INDUSTRIES).nullable(),
  /** Where the web app loads the logo from (with the session token), or null when none is set. */
  logoUrl: z.string().nullable(),
  realNameState: z.enum(REAL_NAME_STATES),
  apiPermission: z.enum(API_PERMISSIONS),
  updatedAt: z.string(),
});
export type ProfileReply = z.infer<typeof profileReply>;

/** `POST brander/update`: the editable profile. Empty optional fields clear them. */
export const profileUpdateReq = z.strictObject({
  companyName: z
    .string({ error: "profile.companyNameEmpty" })
    .trim()
    .min(1, { error: "profile.companyNameEmpty" })
    .max(100, { error: "profile.companyNameLength" }),
  legalRepresentative: z.union([z.literal(""), personName("profile.legalRepresentativeInvalid")]).default(""),
  contactName: z.union([z.literal(""), personName("profile.contactNameInvalid")]).default(""),
  contactPhone: z.union([z.literal(""), contactPhone]).default(""),
  contactEmail: z
    .union([z.literal(""), z.string().trim().regex(EMAIL_RE, { error: "validation.emailFormat" })])
    .default(""),
  address: z.string().trim().max(200, { error: "profile.addressLength" }).default(""),
});
export type ProfileUpdateReq = z.infer<typeof profileUpdateReq>;

export const industryReq = z.strictObject({ industry: z.enum(INDUSTRIES, { error: "profile.industryInvalid" }) });
export type IndustryReq = z.infer<typeof industryReq>;

/* ---------- real-name verification ---------- */

export const DOCUMENT_KINDS = ["license", "id_front", "id_back"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** Largest accepted image upload (licence, ID, logo). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const documentReply = z.object({
  documentId: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  width: z.number().int(),
  height: z.number().int(),
});
export type DocumentReply = z.infer<typeof documentReply>;

/** The fields a licence or ID image can yield; each is only present when the OCR adapter read it. */
export const licenseFields = z.object({
  companyName: z.string().optional(),
  licenseNumber: z.string().optional(),
  legalName: z.string().optional(),
  validUntil: z.string().optional(),
});
export const idFields = z.object({
  name: z.string().optional(),
  idNumber: z.string().optional(),
  validUntil: z.string().optional(),
});

/** `GET realNameAuths/bizLicenseImageText` and `idImageText`: which document to read. */
export const imageTextQuery = z.strictObject({ documentId: z.string().regex(/^\d{1,18}$/) });
export const bizLicenseTextReply = z.object({ adapter: z.string(), recognised: z.boolean(), fields: licenseFields });
export const idTextReply = z.object({ adapter: z.string(), recognised: z.boolean(), fields: idFields });
export type BizLicenseTextReply = z.infer<typeof bizLicenseTextReply>;
export type IdTextReply = z.infer<typeof idTextReply>;

/** A date as YYYY-MM-DD, or empty for "long-term" (permanent licences and IDs). */
const validUntil = z
  .string()
  .trim()
  .refine((v) => v === "" || isCalendarDate(v), { error: "realName.validUntilInvalid" })
  .default("");

const docId = z.string({ error: "validation.invalidParameter" }).regex(/^\d{1,18}$/);

/** The fields the merchant confirms, with the uploaded documents they come from. */
/** A passport or identity-card number as international documents print it (HK "A123456(7)"): 5-20 letters or digits once spaces, brackets and dashes go. */
export const isIdentityDocumentNumber = (v: string): boolean => /^[0-9A-Za-z]{5,20}$/.test(v.replace(/[\s()-]/g, ""));
const normaliseIdentityNumber = (v: string): string => (isNationalId(v) ? v : v.replace(/[\s()-]/g, "")).toUpperCase();

export const realNameSubmitReq = z.strictObject({
  licenseDocumentId: docId,
  idFrontDocumentId: docId,
  idBackDocumentId: docId,
  companyName: z
    .string({ error: "profile.companyNameEmpty" })
    .trim()
    .min(1, { error: "profile.companyNameEmpty" })
    .max(100, { error: "profile.companyNameLength" }),
  licenseNumber: z
    .string({ error: "realName.licenseNumberInvalid" })
    .trim()
    .regex(/^[0-9A-Za-z]{5,30}$/, { error: "realName.licenseNumberInvalid" })
    .transform((v) => v.toUpperCase()),
  licenseValidUntil: validUntil,
  legalName: personName("realName.personNameInvalid"),
  /**
   * A mainland national ID, or (international organisations: Hong Kong, Singapore, Europe, the Americas) a
   * passport or identity-card number; the service holds a domestic merchant to the national ID.
   */
  legalIdNumber: z
    .string({ error: "realName.idNumberInvalid" })
    .trim()
    .refine((v) => isNationalId(v) || isIdentityDocumentNumber(v), { error: "realName.idNumberInvalid" })
    .transform(normaliseIdentityNumber),
  idValidUntil: validUntil,
});
export type RealNameSubmitReq = z.infer<typeof realNameSubmitReq>;

export const REVIEW_STATES = ["pending", "approved", "rejected"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const realNameApplication = z.object({
  id: z.string(),
  state: z.enum(REVIEW_STATES),
  companyName: z.string(),
  licenseNumber: z.string(),
  licenseValidUntil: z.string().nullable(),
  legalName: z.string(),
  /** Masked for merchants (first 3 and last 4 digits); operators reviewing see it whole. */
  legalIdNumber: z.string(),
  idValidUntil: z.string().nullable(),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  rejectReason: z.string().nullable(),
  documents: z.object({ license: z.string(), idFront: z.string(), idBack: z.string() }),
});
export type RealNameApplication = z.infer<typeof realNameApplication>;

/** `GET realNameInfo`: the state shown in the header and the latest application. */
export const realNameInfoReply = z.object({
  merchantId: z.string(),
  state: z.enum(REAL_NAME_STATES),
  /** The date the verification lapses (the earlier of the two validity dates), null when permanent or none. */
  expiresOn: z.string().nullable(),
  latest: realNameApplication.nullable(),
});
export type RealNameInfoReply = z.infer<typeof realNameInfoReply>;

/** `GET realNameAuths/paymentAccount`: the reserve/payment account and the name it is held in. */
export const paymentAccountReply = z.object({
  merchantId: z.string(),
  accountName: z.string(),
  realNameState: z.enum(REAL_NAME_STATES),
  currency: z.enum(CURRENCIES),
  reserve: money,
  sup: money,
});
export type PaymentAccountReply = z.infer<typeof paymentAccountReply>;

/* ---------- API security ---------- */

export const apiInfoReply = z.object({
  permission: z.enum(API_PERMISSIONS),
  request: z
    .object({
      id: z.string(),
      state: z.enum(REVIEW_STATES),
      purpose: z.string(),
      requestedAt: z.string(),
      rejectReason: z.string().nullable(),
    })
    .nullable(),
  appKey: z.string().nullable(),
  /** The secret is never listed: only whether one exists and when it was issued. */
  hasSecret: z.boolean(),
  secretIssuedAt: z.string().nullable(),
  ipAllowlist: z.array(z.string()),
  callbackUrl: z.string().nullable(),
});
export type ApiInfoReply = z.infer<typeof apiInfoReply>;

export const apiApplyReq = z.strictObject({
  purpose: z
    .string()
    .trim()
    .min(1, { error: "validation.invalidParameter" })
    .max(500, { error: "review.reasonLength" }),
});
export type ApiApplyReq = z.infer<typeof apiApplyReq>;

export const API_IP_MAX = 20;

/** Parses an allowlist typed one per line (or comma-separated); returns the bad entry, if any. */
export function parseIpList(text: string): { ips: string[]; bad: string | null } {
  const ips = [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const bad = ips.find((ip) => !isIp(ip)) ?? (ips.length > API_IP_MAX ? (ips[API_IP_MAX] ?? null) : null);
  return { ips, bad };
}

const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
export function isIp(v: string): boolean {
  if (IPV4_RE.test(v)) return true;
  // IPv6: hex groups with at most one "::", as URL parsing normalises it.
  if (!/^[0-9a-fA-F:]+$/.test(v) || !v.includes(":")) return false;
  try {
    return new URL(`http://[${v}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

export const isCallbackUrl = (v: string): boolean => {
  if (v.length > 500) return false;
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
};

/** Form `POST api/ip`: the allowlist (one address per line) and the callback URL. */
export const apiIpReq = z.strictObject({
  ips: z.string().max(2000).default(""),
  callbackUrl: z
    .union([z.literal(""), z.string().trim().refine(isCallbackUrl, { error: "api.callbackInvalid" })])
    .default(""),
});
export type ApiIpReq = z.infer<typeof apiIpReq>;

/** Form `POST api/view` and `api/reset`: the login password again. */
export const apiPasswordReq = z.strictObject({ password: loginPasswordField });
export type ApiPasswordReq = z.infer<typeof apiPasswordReq>;
/**
 * Form `POST api/view`: the secret again after the login password, or after an SMS code sent (scene
 * viewApiSecret) to the user's own bound mobile number — one of the two.
 */
export const apiViewReq = z
  .strictObject({ password: loginPasswordField.optional(), smsCode: smsCodeField.optional() })
  .refine((v) => (v.password === undefined) !== (v.smsCode === undefined), {
    error: "api.viewProofRequired",
    path: ["password"],
  });
export type ApiViewReq = z.infer<typeof apiViewReq>;
export const apiSecretReply = z.object({ appKey: z.string(), secret: z.string(), issuedAt: z.string() });
export type ApiSecretReply = z.infer<typeof apiSecretReply>;

/* ---------- sub-accounts (sub-passports) ---------- */

/** A page key as in the web route table: "<area>/<Page>". */
export const MENU_KEY_RE = /^(sale|business|providers)\/[A-Za-z][A-Za-z0-9]{1,40}$/;

/**
 * The pages that show the company's money (fund changes, top-ups, withdrawals, statements, stored value):
 * a sub-account given none of them reads no balances in userInfo and its home shows no fund buttons
 * (issue 38 item 8, issue 40 item 12). The international areas share their role's keys.
 */
export const FUND_MENUS = [
  "sale/RechargeSheet",
  "sale/FundRelated",
  "sale/FundsChange",
  "sale/PurchaseFund",
  "sale/supRechargeOrder",
  "sale/WithdrawalRecord",
  "sale/RebateRecord",
  "sale/RebateFundChange",
  "sale/storedValue",
  "sale/storedFund",
  "business/ChangesFunds",
  "business/DailyFunds",
  "business/Billing",
  "business/WithdrawalRecordB",
  "business/storedFund",
  "business/Transfers",
  "providers/ChangesFundsP",
  "providers/WithdrawalRecordP",
  "providers/PurchaseFundSheet",
] as const;

/** Whether an account with these menus (null: the main account, every page) may see the company's balances. */
export function seesFunds(menus: readonly string[] | null): boolean {
  return menus === null || menus.some((m) => (FUND_MENUS as readonly string[]).includes(m));
}

/** Menus arrive as a JSON array or, from form bodies, as one comma-separated string. */
const menusField = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z
    .array(z.string().regex(MENU_KEY_RE, { error: "validation.invalidParameter" }), { error: "sub.menusEmpty" })
    .min(1, { error: "sub.menusEmpty" })
    .max(100),
);

const subName = z
  .string({ error: "sub.nameInvalid" })
  .trim()
  .min(2, { error: "sub.nameInvalid" })
  .max(30, { error: "sub.nameInvalid" });

export const subAccount = z.object({
  passportId: z.string(),
  email: z.string(),
  name: z.string(),
  menus: z.array(z.string()),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type SubAccount = z.infer<typeof subAccount>;

export const subSearchQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional() });
export type SubSearchQuery = z.infer<typeof subSearchQuery>;

export const subAddReq = z.strictObject({
  email: emailField,
  name: subName,
  password: newPasswordField,
  menus: menusField,
});
export type SubAddReq = z.infer<typeof subAddReq>;

/** Form `PUT passport/sub/update`: any of name, menus, a new password, enabled/disabled. */
export const subUpdateReq = z.strictObject({
  passportId: z.string().regex(/^\d{1,18}$/),
  name: subName.optional(),
  menus: menusField.optional(),
  password: newPasswordField.optional(),
  disabled: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean()).optional(),
});
export type SubUpdateReq = z.infer<typeof subUpdateReq>;

/** `GET /api/card-user/myMenus`: the pages this user may open; null for a main account (all pages). */
export const myMenusReply = z.object({ menus: z.array(z.string()).nullable() });
export type MyMenusReply = z.infer<typeof myMenusReply>;

/* ---------- service-provider binding ---------- */

/**
 * What a merchant binds a provider as: a brand (business/ServiceBind; the provider's BrandsList, and the
 * only kind a brand token can enter) or a vendor (sale/ServiceBind; the provider's VendorList).
 */
export const SERVICE_KINDS = ["brand", "vendor"] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];
const serviceKind = z.enum(SERVICE_KINDS, { error: "service.kindInvalid" });

/** `POST card-servicer/brander/service`: bind a service provider by its merchant ID, as a brand or a vendor. */
export const serviceBindReq = z.strictObject({
  providerId: z
    .string({ error: "service.providerNotFound" })
    .trim()
    .regex(/^\d{1,18}$/, { error: "service.providerNotFound" }),
  kind: serviceKind,
});
/** `GET card-servicer/brander/service?kind=`: this merchant's binding of one kind. */
export const serviceKindQuery = z.object({ kind: serviceKind });
export type ServiceBindReq = z.infer<typeof serviceBindReq>;

export const serviceBinding = z.object({
  id: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  merchantRealNameState: z.enum(REAL_NAME_STATES),
  providerId: z.string(),
  providerName: z.string(),
  kind: serviceKind,
  boundAt: z.string(),
});
export type ServiceBinding = z.infer<typeof serviceBinding>;

/** `POST card-servicer/brander`: the merchants a provider serves (searched by id or name). */
export const providerBrandsReq = pageQuery
  .extend({ keyword: z.string().trim().max(100).optional(), kind: serviceKind.optional() })
  .strict();
export type ProviderBrandsReq = z.infer<typeof providerBrandsReq>;

/** Operators grant or withdraw the service-provider role. */
export const providerRoleReq = z.strictObject({ grant: z.boolean() });
export type ProviderRoleReq = z.infer<typeof providerRoleReq>;

/**
 * Pages a provider may open inside a brand's context with a brand token (spec 01 §6: FaceValueCardP,
 * DiscountCardP, BrandAuthorizationP act on the brand's FaceValueCard, DiscountCard, BrandAuthorization;
 * RealNamePage?sellerBrand= acts on its real-name verification).
 */
export const BRAND_CONTEXT_MENUS = [
  "business/FaceValueCard",
  "business/DiscountCard",
  "business/BrandAuthorization",
  "business/AuthenticationB",
  "providers/brandShopCode",
  "providers/paymentApplication",
] as const;

/** The token exchange's reply: a token for x-auth-token, valid `expires_in` seconds, for brand `branderId`. */
export const brandTokenReply = z.object({
  token: z.string(),
  expires_in: z.number().int(),
  branderId: z.string(),
  menus: z.array(z.string()),
});
export type BrandTokenReply = z.infer<typeof brandTokenReply>;

/** A commitment letter upload (sale/commitLetter): every upload is a new version; the newest is current. */
export const commitLetter = z.object({
  id: z.string(),
  version: z.number().int(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  uploadedBy: z.string(),
  uploadedAt: z.string(),
  url: z.string(),
});
export type CommitLetter = z.infer<typeof commitLetter>;

export * from "./agreements";
