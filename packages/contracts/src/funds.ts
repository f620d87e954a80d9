import { z } from "zod";
import { CURRENCIES, type Version } from "./enums";
import { calendarDate } from "./dates";
import { LEDGER_TRANSACTION_KINDS } from "./ledger";
import type { MessageKey } from "./messages";
import { pageOf, pageQuery } from "./paging";
import { NATIONAL_ID_RE, PERSON_NAME_RE } from "./validators";

/**
 * Funds: top-up notices, reserve transfers, operator credits and refunds, fund-change lists
 * (spec 01 §2 screens 5-8, §3 Fund change row, §5 Top-up). Amounts are integers of minor units.
 */

/** The largest single movement accepted: 100,000,000.00 in minor units. */
export const MAX_AMOUNT = 10_000_000_000;

export const amountField = z
  .number({ error: "funds.amountEmpty" })
  .int({ error: "funds.amountInvalid" })
  .positive({ error: "funds.amountInvalid" })
  .max(MAX_AMOUNT, { error: "funds.amountTooLarge" });

/** A client-chosen key per money-moving request: the same key retried never moves money twice. */
export const requestKeyField = z
  .string({ error: "funds.requestKeyInvalid" })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: "funds.requestKeyInvalid" });

export const reasonField = z
  .string({ error: "funds.reasonEmpty" })
  .trim()
  .min(1, { error: "funds.reasonEmpty" })
  .max(200, { error: "funds.reasonLength" });

export const PAYER_TYPES = ["company", "personal"] as const;
export type PayerType = (typeof PAYER_TYPES)[number];

/** Company registration numbers (unified social credit code, or a foreign company number). */
const COMPANY_NUMBER_RE = /^[A-Za-z0-9-]{4,30}$/;
/** Passport or foreign ID numbers of international payers. */
const PASSPORT_RE = /^[A-Za-z0-9]{5,20}$/;
/** The paying bank account: 6-34 letters or digits (mainland card numbers, IBANs). */
export const BANK_ACCOUNT_RE = /^[A-Za-z0-9]{6,34}$/;
const TRANSFER_REF_RE = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Is the payer's name and ID number correct for this payer type? Domestic personal payers give a national
 * ID (15 or 18 digits) and a person's name (spec 01 §5 helper validators); international ones a passport.
 * Returns the message key of the first problem, or null.
 */
export function payerProblem(
  version: Version,
  payerType: PayerType,
  name: string,
  idNumber: string,
): { field: "payerName" | "idNumber"; key: MessageKey } | null {
  if (payerType === "personal") {
    if (!PERSON_NAME_RE.test(name)) return { field: "payerName", key: "funds.payerNameInvalid" };
    const idOk =
      version === "domestic"
        ? NATIONAL_ID_RE.test(idNumber)
        : PASSPORT_RE.test(idNumber) || NATIONAL_ID_RE.test(idNumber);
    if (!idOk) return { field: "idNumber", key: "funds.idNumberInvalid" };
    return null;
  }
  if (name.length < 2 || name.length > 100) return { field: "payerName", key: "funds.payerNameInvalid" };
  if (!COMPANY_NUMBER_RE.test(idNumber)) return { field: "idNumber", key: "funds.idNumberInvalid" };
  return null;
}

export const topUpReq = z.strictObject({
  amount: amountField,
  payerType: z.enum(PAYER_TYPES, { error: "funds.payerTypeEmpty" }),
  payerName: z.string({ error: "funds.payerNameEmpty" }).trim().min(1, { error: "funds.payerNameEmpty" }),
  idNumber: z.string({ error: "funds.idNumberEmpty" }).trim().min(1, { error: "funds.idNumberEmpty" }),
  otherAccount: z
    .string({ error: "funds.otherAccountEmpty" })
    .trim()
    .min(1, { error: "funds.otherAccountEmpty" })
    .regex(BANK_ACCOUNT_RE, { error: "funds.otherAccountInvalid" }),
  transferRef: z
    .string({ error: "funds.transferRefEmpty" })
    .trim()
    .min(1, { error: "funds.transferRefEmpty" })
    .regex(TRANSFER_REF_RE, { error: "funds.transferRefInvalid" }),
  /** From `POST funds/proofs`: the uploaded image of the bank transfer. */
  proofId: z
    .string()
    .regex(/^[a-f0-9]{32}$/, { error: "funds.proofNotFound" })
    .optional(),
  /** The user ticked "the details above are correct" (spec 01 §5: confirmation before submit). */
  confirmed: z.literal(true, { error: "funds.confirmRequired" }),
  requestKey: requestKeyField,
});
export type TopUpReq = z.infer<typeof topUpReq>;

export const TOP_UP_STATES = ["pending", "confirmed", "rejected"] as const;
export type TopUpState = (typeof TOP_UP_STATES)[number];

const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });

export const topUpNotice = z.object({
  id: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  amount: money,
  fee: money,
  payerType: z.enum(PAYER_TYPES),
  payerName: z.string(),
  /** Masked except to operators. */
  idNumber: z.string(),
  otherAccount: z.string(),
  transferRef: z.string(),
  proofUrl: z.string().nullable(),
  state: z.enum(TOP_UP_STATES),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type TopUpNotice = z.infer<typeof topUpNotice>;

export const topUpListQuery = pageQuery.extend({
  state: z.enum(TOP_UP_STATES).optional(),
  merchantId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});
export type TopUpListQuery = z.infer<typeof topUpListQuery>;
export const topUpPage = pageOf(topUpNotice);

export const proofReply = z.object({ proofId: z.string(), url: z.string() });

/** The platform's bank account that purchasers transfer to (the top-up screen, spec 01 §2 screen 7). */
export const bankDetails = z.object({
  accountName: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  /** International transfers: the bank's SWIFT code and address. */
  swift: z.string().nullable(),
  bankAddress: z.string().nullable(),
  currency: z.enum(CURRENCIES),
  /** Fee taken from each confirmed top-up, in basis points (1/100 of a percent). */
  feeBasisPoints: z.number().int(),
});
export type BankDetails = z.infer<typeof bankDetails>;

export const rejectReq = z.strictObject({ reason: reasonField });
export const creditReq = z.strictObject({ amount: amountField, reason: reasonField, requestKey: requestKeyField });
export type CreditReq = z.infer<typeof creditReq>;
export const reserveTransferReq = z.strictObject({ amount: amountField, requestKey: requestKeyField });

/** The accounts a fund-change list can show. */
export const FUND_ACCOUNTS = ["reserve", "sup", "income"] as const;
export type FundAccount = (typeof FUND_ACCOUNTS)[number];

const dateField = calendarDate();
const minorUnits = z.coerce.number().int().min(0).max(MAX_AMOUNT);

export const fundChangeQuery = pageQuery
  .extend({
    account: z.enum(FUND_ACCOUNTS).optional(),
    /** Inclusive calendar days, in the platform's time zone. */
    from: dateField.optional(),
    to: dateField.optional(),
    type: z.enum(LEDGER_TRANSACTION_KINDS).optional(),
    /** Bounds on the absolute amount of the change, in minor units. */
    minAmount: minorUnits.optional(),
    maxAmount: minorUnits.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "funds.dateRangeInvalid" });
    }
    if (v.minAmount !== undefined && v.maxAmount !== undefined && v.minAmount > v.maxAmount) {
      ctx.addIssue({ code: "custom", path: ["minAmount"], message: "funds.amountRangeInvalid" });
    }
  });
export type FundChangeQuery = z.infer<typeof fundChangeQuery>;

export const fundChangeRow = z.object({
  id: z.string(),
  time: z.string(),
  /** Positive part of the change (0 when money left). */
  increase: z.number().int(),
  /** Money that left (0 when money came in), as a positive number. */
  expense: z.number().int(),
  balance: z.number().int(),
  currency: z.enum(CURRENCIES),
  type: z.enum(LEDGER_TRANSACTION_KINDS),
  reason: z.string(),
});
export type FundChangeRow = z.infer<typeof fundChangeRow>;
export const fundChangePage = pageOf(fundChangeRow).extend({ balance: money });

/** Statements (per day) and settlements (per month) of an account: `GET statements`, `GET settlements`. */
export const statementQuery = z
  .object({
    account: z.enum(FUND_ACCOUNTS).optional(),
    from: dateField,
    to: dateField,
  })
  .superRefine((v, ctx) => {
    if (v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "funds.dateRangeInvalid" });
    // At most about three years of days in one reply.
    if (Date.parse(v.to) - Date.parse(v.from) > 1100 * 86_400_000) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "funds.periodTooLong" });
    }
  });
export type StatementQuery = z.infer<typeof statementQuery>;

export const statementRow = z.object({
  period: z.string(),
  opening: z.number().int(),
  increase: z.number().int(),
  expense: z.number().int(),
  closing: z.number().int(),
  movements: z.number().int(),
});
export type StatementRow = z.infer<typeof statementRow>;
export const statementReply = z.object({
  currency: z.enum(CURRENCIES),
  account: z.enum(FUND_ACCOUNTS),
  rows: z.array(statementRow),
});
export type StatementReply = z.infer<typeof statementReply>;
