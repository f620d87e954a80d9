/** Enumerations shared by server, web and the dictionary endpoint (`GET dict/all`). */

export const CURRENCIES = ["CNY", "USD", "HKD"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const INTERNATIONAL_CURRENCIES = ["USD", "HKD"] as const satisfies readonly Currency[];
/** Minor units per major unit; every amount on the wire and in the database is an integer of minor units. */
export const CURRENCY_MINOR_DIGITS: Record<Currency, number> = { CNY: 2, USD: 2, HKD: 2 };

/** Domestic accounts use the Chinese version and settle in CNY; international ones settle in USD or HKD. */
export const VERSIONS = ["domestic", "international"] as const;
export type Version = (typeof VERSIONS)[number];

/** Kinds of user: merchant staff, end customers, platform operators (spec 01 §6). */
export const USER_KINDS = ["merchant", "customer", "operator"] as const;
export type UserKind = (typeof USER_KINDS)[number];

/** What a merchant may act as; product types sale 1, business 2, providers 3 (spec 01 §9). */
export const MERCHANT_ROLES = ["sale", "business", "providers"] as const;
export type MerchantRole = (typeof MERCHANT_ROLES)[number];
export const PRODUCT_TYPE: Record<MerchantRole, number> = { sale: 1, business: 2, providers: 3 };

export const REAL_NAME_STATES = ["not_verified", "verified", "expired"] as const;
export type RealNameState = (typeof REAL_NAME_STATES)[number];

export const API_PERMISSIONS = ["opened", "not_opened"] as const;
export type ApiPermission = (typeof API_PERMISSIONS)[number];

/** signAgreement: the SMS code that confirms an agreement signature (reserve authorisation, e-signature). */
export const CODE_SCENES = [
  "register",
  "resetPassword",
  "changeEmail",
  "bindPhone",
  "signAgreement",
  "transitAuth",
  "viewApiSecret",
  "customerLogin",
  "cardPassword",
] as const;
export type CodeScene = (typeof CODE_SCENES)[number];

export const OUTBOX_CHANNELS = ["email", "sms"] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** Invoice types of spec 01 §9. */
export const INVOICE_TYPES = ["ordinary_0", "ordinary_1", "ordinary_3", "vat_3", "vat_6", "vat_9", "vat_13"] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/** Goods business types of spec 01 §3. */
export const BUSINESS_TYPES = [
  "top_up",
  "fuel",
  "takeaway",
  "coupon",
  "card_voucher",
  "in_store",
  "fee",
  "card_secret",
  "self_run_card_secret",
  "combo",
] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

/** Colour themes kept in the `colorChose` cookie. */
export const COLOR_THEMES = [1, 2, 3, 4] as const;
export type ColorTheme = (typeof COLOR_THEMES)[number];
