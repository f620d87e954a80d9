import { z } from "zod";
import {
  API_PERMISSIONS,
  CODE_SCENES,
  CURRENCIES,
  INTERNATIONAL_CURRENCIES,
  MERCHANT_ROLES,
  REAL_NAME_STATES,
  USER_KINDS,
  VERSIONS,
} from "./enums";
import { isAllowedInternationalRegion } from "./regions";
import {
  EMAIL_RE,
  LOGIN_PASSWORD_MAX,
  LOGIN_PASSWORD_MIN,
  MOBILE_RE,
  PASSWORD_MAX,
  isStrongPassword,
} from "./validators";

/**
 * Account calls of spec 01 §7 (under /api/card-user/). Issue messages are message keys of `messages.ts`;
 * the server and the web render them in the user's language. The first issue is the one shown.
 */

export const emailField = z
  .string({ error: "validation.emailEmpty" })
  .trim()
  .min(1, { error: "validation.emailEmpty" })
  .max(254, { error: "validation.emailFormat" })
  .regex(EMAIL_RE, { error: "validation.emailFormat" })
  .transform((v) => v.toLowerCase());

export const mobileField = z
  .string({ error: "validation.mobileEmpty" })
  .trim()
  .min(1, { error: "validation.mobileEmpty" })
  .regex(MOBILE_RE, { error: "validation.mobileFormat" });

const emailCodeField = z
  .string({ error: "validation.emailCodeEmpty" })
  .trim()
  .min(1, { error: "validation.emailCodeEmpty" })
  .max(12, { error: "code.invalid" });

export const smsCodeField = z
  .string({ error: "validation.smsCodeEmpty" })
  .trim()
  .min(1, { error: "validation.smsCodeEmpty" })
  .max(12, { error: "code.invalid" });

/** Login check: length 3-21 only (spec 01 §5). */
export const loginPasswordField = z
  .string({ error: "validation.passwordEmpty" })
  .min(1, { error: "validation.passwordEmpty" })
  .min(LOGIN_PASSWORD_MIN, { error: "validation.passwordLength" })
  .max(LOGIN_PASSWORD_MAX, { error: "validation.passwordLength" });

/** Register/reset: at least 8 characters with three character classes. */
export const newPasswordField = z
  .string({ error: "validation.passwordEmpty" })
  .min(1, { error: "validation.passwordEmpty" })
  .max(PASSWORD_MAX, { error: "validation.passwordLength" })
  .refine(isStrongPassword, { error: "validation.passwordWeak" });

const confirmPasswordField = z
  .string({ error: "validation.confirmPasswordEmpty" })
  .min(1, { error: "validation.confirmPasswordEmpty" });

function passwordsMatch(v: { password: string; confirmPassword: string }, ctx: z.RefinementCtx): void {
  if (v.password !== v.confirmPassword) {
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "validation.passwordMismatch" });
  }
}

export const sendEmailReq = z.strictObject({ email: emailField, scene: z.enum(CODE_SCENES) });
export type SendEmailReq = z.infer<typeof sendEmailReq>;

export const sendSmsReq = z.strictObject({ phone: mobileField, scene: z.enum(CODE_SCENES) });
export type SendSmsReq = z.infer<typeof sendSmsReq>;

/** Reply to a code request: seconds until the code expires and until another may be sent. */
export const sendCodeReply = z.object({ expiresIn: z.number().int(), resendIn: z.number().int() });
export type SendCodeReply = z.infer<typeof sendCodeReply>;

export const registerReq = z
  .strictObject({
    email: emailField,
    emailCode: emailCodeField,
    password: newPasswordField,
    confirmPassword: confirmPasswordField,
    orgName: z
      .string({ error: "validation.orgNameEmpty" })
      .trim()
      .min(1, { error: "validation.orgNameEmpty" })
      .max(100, { error: "validation.orgNameLength" }),
    version: z.enum(VERSIONS).default("domestic"),
    /** International only: ISO 3166 code of the organisation's country or region. */
    country: z.string().trim().toUpperCase().optional(),
    /** International only: USD or HKD. Domestic accounts settle in CNY. */
    currency: z.enum(CURRENCIES).optional(),
  })
  .superRefine(passwordsMatch)
  .superRefine((v, ctx) => {
    if (v.version !== "international") return;
    if (!v.country) {
      ctx.addIssue({ code: "custom", path: ["country"], message: "validation.countryEmpty" });
    } else if (!isAllowedInternationalRegion(v.country)) {
      ctx.addIssue({ code: "custom", path: ["country"], message: "validation.countryNotAllowed" });
    }
    if (!v.currency) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: "validation.currencyEmpty" });
    } else if (!(INTERNATIONAL_CURRENCIES as readonly string[]).includes(v.currency)) {
      ctx.addIssue({ code: "custom", path: ["currency"], message: "validation.currencyInvalid" });
    }
  });
export type RegisterReq = z.infer<typeof registerReq>;

export const registerReply = z.object({ userId: z.string(), merchantId: z.string() });
export type RegisterReply = z.infer<typeof registerReply>;

/** `GET common/config`: what the web app needs to know about this server. */
export const commonConfigReply = z.object({
  /** The local mail/SMS adapters are active: the dev mailbox exists. */
  devOutbox: z.boolean(),
  tokenTtlSeconds: z.number().int(),
  /** The IANA zone every time is shown in (TZ_DISPLAY; Asia/Shanghai unless set). */
  timeZone: z.string(),
});
export type CommonConfigReply = z.infer<typeof commonConfigReply>;

export const loginReq = z.strictObject({
  email: emailField,
  password: loginPasswordField,
  /** Which login page the user is on; an account logs in only on the version it registered in. */
  version: z.enum(VERSIONS).default("domestic"),
});
export type LoginReq = z.infer<typeof loginReq>;

export const loginReply = z.object({ token: z.string(), expires_in: z.number().int() });
export type LoginReply = z.infer<typeof loginReply>;

export const resetPasswordReq = z
  .strictObject({
    email: emailField,
    emailCode: emailCodeField,
    password: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .superRefine(passwordsMatch);
export type ResetPasswordReq = z.infer<typeof resetPasswordReq>;

export const userPhoneReq = z.strictObject({ phone: mobileField, smsCode: smsCodeField });
export type UserPhoneReq = z.infer<typeof userPhoneReq>;

export const userEmailReq = z.strictObject({ email: emailField, emailCode: emailCodeField });
export type UserEmailReq = z.infer<typeof userEmailReq>;

export const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });
export type Money = z.infer<typeof money>;

export const merchantInfo = z.object({
  merchantId: z.string(),
  name: z.string(),
  roles: z.array(z.enum(MERCHANT_ROLES)),
  version: z.enum(VERSIONS),
  country: z.string().nullable(),
  currency: z.enum(CURRENCIES),
  realNameState: z.enum(REAL_NAME_STATES),
  apiPermission: z.enum(API_PERMISSIONS),
});
export type MerchantInfo = z.infer<typeof merchantInfo>;

export const userInfo = z.object({
  userId: z.string(),
  kind: z.enum(USER_KINDS),
  loginAccount: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  merchant: merchantInfo.nullable(),
  /**
   * The merchant's balances in its currency: the purchaser's SUP and reserve/payment accounts, the
   * supplier's income account. Null for a sub-account given no funds page (FUND_MENUS).
   */
  balances: z
    .object({
      sup: money,
      reserve: money,
      income: money,
      /** Test money from the sandbox payment adapter (issue 37): shown apart, never withdrawable. */
      sandboxIncome: money,
    })
    .nullable(),
  /**
   * Chat identities for merchant staff (spec 03 brand chat): the brand's IM user and token (branderId is
   * the merchant id, its IM user "b<merchantId>") and the staff member's own ("u<userId>"), with the app
   * key to connect with. Tokens are valid for the IM token TTL.
   */
  brandInfo: z
    .object({
      branderId: z.string(),
      branderImToken: z.string(),
      imUser: z.string(),
      imToken: z.string(),
      appKey: z.string(),
    })
    .nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const validateTokenReq = z.strictObject({ token: z.string().min(1).max(200) });
export const validateTokenReply = z.object({
  valid: z.boolean(),
  expires_in: z.number().int(),
  userId: z.string().nullable(),
});
export type ValidateTokenReply = z.infer<typeof validateTokenReply>;

export const dictEntry = z.object({ value: z.union([z.string(), z.number()]), label: z.string() });
export const dictAll = z.record(z.string(), z.array(dictEntry));
export type DictAll = z.infer<typeof dictAll>;
