/**
 * The helper validators of spec 01 §5, shared by server schemas and web forms.
 */
export const EMAIL_RE =
  /^[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
/** Mainland mobile number: 11 digits starting with 1. */
export const MOBILE_RE = /^1\d{10}$/;
/** QQ-style number: 5-15 digits, not starting with 0. */
export const QQ_RE = /^[1-9]\d{4,14}$/;
/** Account name: 6-20 characters of letters, digits, - or _, starting with a letter, - or _. */
export const ACCOUNT_NAME_RE = /^[A-Za-z_-][A-Za-z0-9_-]{5,19}$/;
/** National ID: 15 digits, or 17 digits followed by a digit or X. */
export const NATIONAL_ID_RE = /^(?:\d{15}|\d{17}[\dXx])$/;
/** Person name: 2-30 letters or Chinese characters (a middle dot or space between Latin names is allowed). */
export const PERSON_NAME_RE = /^(?=.{2,30}$)[A-Za-z\u4e00-\u9fa5][A-Za-z\u4e00-\u9fa5·. ]*[A-Za-z\u4e00-\u9fa5]$/;

export const LOGIN_PASSWORD_MIN = 3;
export const LOGIN_PASSWORD_MAX = 21;
export const STRONG_PASSWORD_MIN = 8;
/** Register/reset passwords must also pass the login length check, so they are capped at 21 too. */
export const PASSWORD_MAX = LOGIN_PASSWORD_MAX;

export const isEmail = (v: string): boolean => EMAIL_RE.test(v);
export const isMobile = (v: string): boolean => MOBILE_RE.test(v);
export const isQq = (v: string): boolean => QQ_RE.test(v);
export const isAccountName = (v: string): boolean => ACCOUNT_NAME_RE.test(v);
export const isNationalId = (v: string): boolean => NATIONAL_ID_RE.test(v);
export const isPersonName = (v: string): boolean => PERSON_NAME_RE.test(v);

/** Counts the character classes (upper, lower, digit, special) present in a password. */
export function passwordClasses(v: string): number {
  return [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(v)).length;
}

/** Register/reset rule: at least 8 characters and at least three of the four classes. */
export function isStrongPassword(v: string): boolean {
  return v.length >= STRONG_PASSWORD_MIN && v.length <= PASSWORD_MAX && passwordClasses(v) >= 3;
}

/** The search bar's number input keeps digits only, up to 18 (spec 01 §2). */
export function digitsOnly(v: string, max = 18): string {
  return v.replace(/\D/g, "").slice(0, max);
}
