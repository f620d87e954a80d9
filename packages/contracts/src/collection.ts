import { z } from "zod";
import { money } from "./accounts";
import { calendarDate } from "./dates";
import { requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";
import { paymentAction } from "./payments";

/**
 * Payment collection (收款, issue 27; spec 01 §2 aggregateIncoming, paymentApplication, receipt,
 * receiptB, WechatRefundOrder; §3 payment apply record, payment order, payment code; §7
 * paymentApplyRecords, paymentOrders, subPassports/{passportId}/paymentCodes, wechat/industries).
 * Aggregated onboarding follows WeChat Pay's applyment4sub states; amounts are minor units.
 */

export const APPLY_STATES = [
  "EDITTING",
  "AUDITING",
  "REJECTED",
  "TO_BE_CONFIRMED",
  "TO_BE_SIGNED",
  "SIGNING",
  "FINISHED",
  "CANCELED",
] as const;
export type ApplyState = (typeof APPLY_STATES)[number];
export const PAY_ORDER_STATES = ["NOTPAY", "SUCCESS", "CLOSED"] as const;
export type PayOrderState = (typeof PAY_ORDER_STATES)[number];
export const PAY_REFUND_STATES = ["PROCESSING", "SUCCESS", "FAILURE"] as const;
export type PayRefundState = (typeof PAY_REFUND_STATES)[number];

/** WeChat Pay industry categories (settlement rules) offered to small and micro merchants; the fee in basis points. */
export const WECHAT_INDUSTRIES = [
  { code: "716", name: { cn: "餐饮", tw: "餐飲", en: "Catering" }, feeBps: 38 },
  { code: "717", name: { cn: "食品生鲜", tw: "食品生鮮", en: "Food and fresh produce" }, feeBps: 38 },
  { code: "718", name: { cn: "零售", tw: "零售", en: "Retail" }, feeBps: 60 },
  { code: "719", name: { cn: "休闲娱乐", tw: "休閒娛樂", en: "Leisure and entertainment" }, feeBps: 60 },
  { code: "720", name: { cn: "生活服务", tw: "生活服務", en: "Local services" }, feeBps: 60 },
  { code: "721", name: { cn: "酒店住宿", tw: "酒店住宿", en: "Hotels" }, feeBps: 60 },
  { code: "728", name: { cn: "教育培训", tw: "教育培訓", en: "Education and training" }, feeBps: 60 },
] as const;

const idString = z.string().regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const req = (
  error:
    | "collection.companyEmpty"
    | "collection.legalEmpty"
    | "collection.contactEmpty"
    | "collection.bankEmpty"
    | "collection.accountNameEmpty",
  max: number,
) => z.string({ error }).trim().max(max, { error: "collection.textTooLong" });

/** An application as saved (a draft may be incomplete; submitting checks every field). */
export const applyReq = z.strictObject({
  companyName: req("collection.companyEmpty", 100).default(""),
  creditCode: z.string().trim().toUpperCase().max(18, { error: "collection.creditCodeInvalid" }).default(""),
  legalPerson: req("collection.legalEmpty", 30).default(""),
  legalIdNo: z.string().trim().toUpperCase().max(18, { error: "collection.idNoInvalid" }).default(""),
  contactName: req("collection.contactEmpty", 30).default(""),
  contactPhone: z.string().trim().max(11, { error: "collection.phoneInvalid" }).default(""),
  industryCode: z.string().trim().max(10).default(""),
  bankName: req("collection.bankEmpty", 60).default(""),
  bankAccount: z.string().trim().max(30, { error: "collection.bankAccountInvalid" }).default(""),
  bankAccountName: req("collection.accountNameEmpty", 100).default(""),
  licenceImage: z.string().trim().max(200).default(""),
  /** The legal person's ID card, front (portrait side; applyment4sub id_card_copy) and back (national emblem side; id_card_national). */
  idCardFront: z.string().trim().max(200).default(""),
  idCardBack: z.string().trim().max(200).default(""),
});
export type ApplyReq = z.infer<typeof applyReq>;

export const applyRecord = z.object({
  id: z.string(),
  businessCode: z.string(),
  state: z.enum(APPLY_STATES),
  companyName: z.string(),
  creditCode: z.string(),
  legalPerson: z.string(),
  /** Masked once submitted. */
  legalIdNo: z.string(),
  contactName: z.string(),
  contactPhone: z.string(),
  industryCode: z.string(),
  industryName: z.string(),
  bankName: z.string(),
  bankAccount: z.string(),
  bankAccountName: z.string(),
  licenceImage: z.string(),
  licenceUrl: z.string().nullable(),
  idCardFront: z.string(),
  idCardFrontUrl: z.string().nullable(),
  idCardBack: z.string(),
  idCardBackUrl: z.string().nullable(),
  rejectReason: z.string().nullable(),
  signUrl: z.string().nullable(),
  subMchid: z.string().nullable(),
  feeBps: z.number().int(),
  submittedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ApplyRecord = z.infer<typeof applyRecord>;
export const applyRecordPage = pageOf(applyRecord);

export const industry = z.object({ code: z.string(), name: z.string(), feeBps: z.number().int() });
export const industriesReply = z.array(industry);

/* ---------- collection codes ---------- */

export const payCodeReq = z.strictObject({
  name: z
    .string({ error: "collection.codeNameEmpty" })
    .trim()
    .min(1, { error: "collection.codeNameEmpty" })
    .max(40, { error: "collection.textTooLong" }),
  storeId: idString.nullable().default(null),
  /** The amount the code collects (a price tag); null: the payer enters it. */
  amount: z
    .number({ error: "collection.amountInvalid" })
    .int({ error: "collection.amountInvalid" })
    .min(1, { error: "collection.amountInvalid" })
    .max(5_000_000, { error: "collection.amountTooLarge" })
    .nullable()
    .default(null),
});
export const payCode = z.object({
  id: z.string(),
  passportId: z.string(),
  name: z.string(),
  storeId: z.string().nullable(),
  amount: z.number().int().nullable(),
  url: z.string(),
  createdAt: z.string(),
});
export type PayCode = z.infer<typeof payCode>;
export const payCodePage = pageOf(payCode);
/** `GET paymentCodes?storeId=`: the collection codes bound to a store (BrandStore shows them with the store). */
export const storePayCodeQuery = pageQuery.extend({ storeId: idString });

/** What the payer's page shows for a code (public). */
export const payCodeInfo = z.object({
  merchantName: z.string(),
  codeName: z.string(),
  currency: z.enum(["CNY", "USD", "HKD"]),
  /** The amount the code fixes (the payer cannot change it); null: the payer enters one up to `limit`. */
  amount: z.number().int().nullable(),
  /** The collection account's per-payment limit, minor units. */
  limit: z.number().int(),
});
export type PayCodeInfo = z.infer<typeof payCodeInfo>;
export const payReq = z.strictObject({
  amount: z
    .number({ error: "collection.amountInvalid" })
    .int({ error: "collection.amountInvalid" })
    .min(1, { error: "collection.amountInvalid" })
    .max(5_000_000, { error: "collection.amountTooLarge" }),
  note: z.string().trim().max(60, { error: "collection.textTooLong" }).default(""),
  requestKey: requestKeyField,
});

/* ---------- payment orders and refunds ---------- */

export const payOrder = z.object({
  id: z.string(),
  orderNo: z.string(),
  codeName: z.string(),
  amount: money,
  fee: money,
  net: money,
  refunded: money,
  state: z.enum(PAY_ORDER_STATES),
  note: z.string(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  /** A NOTPAY order's pending payment: what the payer does next (WeChat Pay); absent otherwise. */
  payAction: paymentAction.optional(),
});
export type PayOrder = z.infer<typeof payOrder>;
export const payOrderPage = pageOf(payOrder);
export const payOrderQuery = pageQuery.extend({
  state: z.enum(PAY_ORDER_STATES).optional(),
  orderNo: z.string().trim().max(40).optional(),
  from: calendarDate("validation.invalidParameter").optional(),
  to: calendarDate("validation.invalidParameter").optional(),
  branderId: idString.optional(),
});
export type PayOrderQuery = z.infer<typeof payOrderQuery>;

export const payRefundReq = z.strictObject({
  orderId: idString,
  amount: z
    .number({ error: "collection.refundInvalid" })
    .int({ error: "collection.refundInvalid" })
    .min(1, { error: "collection.refundInvalid" })
    .max(5_000_000, { error: "collection.refundTooLarge" }),
  reason: z.string().trim().max(80, { error: "collection.textTooLong" }).default(""),
  requestKey: requestKeyField,
});
export const payRefund = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  amount: money,
  /** The share of the payment's fee this refund gave back (from the platform's fees; the merchant's income paid the rest). */
  feeBack: money,
  state: z.enum(PAY_REFUND_STATES),
  reason: z.string(),
  failReason: z.string().nullable(),
  createdAt: z.string(),
});
export type PayRefund = z.infer<typeof payRefund>;
export const payRefundPage = pageOf(payRefund);
export const payRefundQuery = pageQuery.extend({
  orderId: idString.optional(),
  state: z.enum(PAY_REFUND_STATES).optional(),
});
