import { z } from "zod";
import { calendarDate } from "./dates";
import { BUSINESS_TYPES, CURRENCIES } from "./enums";
import { pageOf, pageQuery } from "./paging";

/**
 * Service-provider commission (spec 01 §2 `/providers` MonthlyCommission; issue 29). The operator sets
 * a provider's rules (a rate by business type and by brand, with validity dates); each month's close
 * turns the orders of the merchants the provider serves into accrual lines (successful orders of the
 * month) and clawback lines (refunds of the month, of orders of any month), per served merchant, into a
 * statement; once the refund window after the month has passed (payableFrom) the provider confirms a
 * statement and its closing amount moves into its fund (income) account through the ledger once. A negative month carries forward into the next one's opening.
 */

const PERIOD_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const periodField = z
  .string({ error: "commission.periodInvalid" })
  .regex(PERIOD_RE, { error: "commission.periodInvalid" });

export const commissionRuleReq = z
  .strictObject({
    providerId: z
      .string({ error: "commission.providerEmpty" })
      .regex(/^\d{1,18}$/, { error: "commission.providerEmpty" }),
    businessType: z.enum(BUSINESS_TYPES).nullable().optional().default(null),
    brandId: z
      .string()
      .regex(/^\d{1,18}$/, { error: "commission.brandInvalid" })
      .nullable()
      .optional()
      .default(null),
    rateBp: z
      .number({ error: "commission.rateInvalid" })
      .int({ error: "commission.rateInvalid" })
      .min(0, { error: "commission.rateInvalid" })
      .max(5_000, { error: "commission.rateInvalid" }),
    validFrom: calendarDate("commission.dateInvalid"),
    validTo: calendarDate("commission.dateInvalid").nullable().optional().default(null),
  })
  .refine((v) => v.validTo === null || v.validTo >= v.validFrom, {
    path: ["validTo"],
    error: "commission.dateRangeInvalid",
  });
export type CommissionRuleReq = z.infer<typeof commissionRuleReq>;

export const commissionRule = z.object({
  id: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  businessType: z.enum(BUSINESS_TYPES).nullable(),
  brandId: z.string().nullable(),
  rateBp: z.number().int(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  createdAt: z.string(),
});
export type CommissionRule = z.infer<typeof commissionRule>;
export const commissionRulesReply = z.array(commissionRule);
export const commissionRuleQuery = z.object({
  providerId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});

export const STATEMENT_STATES = ["draft", "paid", "carried"] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];

const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });
export const commissionStatement = z.object({
  id: z.string(),
  providerId: z.string(),
  period: z.string(),
  /** A negative closing of the month before, carried into this one. */
  opening: money,
  accrued: money,
  clawedBack: money,
  closing: money,
  lines: z.number().int(),
  state: z.enum(STATEMENT_STATES),
  closedAt: z.string(),
  /** The first day (YYYY-MM-DD, UTC+8) it can be confirmed: the month's last day plus the refund window's days. */
  payableFrom: z.string(),
  paidAt: z.string().nullable(),
});
export type CommissionStatement = z.infer<typeof commissionStatement>;
export const commissionStatementPage = pageOf(commissionStatement);
export const commissionStatementQuery = pageQuery.extend({ from: periodField.optional(), to: periodField.optional() });
export type CommissionStatementQuery = z.infer<typeof commissionStatementQuery>;

/** A statement per served merchant: its orders' accruals and its refunds' clawbacks. */
export const statementMerchantRow = z.object({
  merchantId: z.string(),
  merchantName: z.string(),
  side: z.enum(["brand", "vendor"]),
  orders: z.number().int(),
  basis: money,
  accrued: money,
  clawedBack: money,
  net: money,
});
export type StatementMerchantRow = z.infer<typeof statementMerchantRow>;
export const statementDetail = commissionStatement.extend({ merchants: z.array(statementMerchantRow) });
export type StatementDetail = z.infer<typeof statementDetail>;

export const closeReq = z.strictObject({ period: periodField });
export const closeReply = z.object({
  period: z.string(),
  statements: z.number().int(),
  lines: z.number().int(),
  rebates: z.number().int(),
  alreadyClosed: z.boolean(),
});
export type CloseReply = z.infer<typeof closeReply>;

/* ---------- purchaser rebates (sale/RebateRecord, sale/RebateFundChange) ---------- */

/** A tier: from this monthly volume (minor units) on, this rate. */
export const rebateTier = z.strictObject({
  minVolume: z
    .number({ error: "rebate.tierInvalid" })
    .int({ error: "rebate.tierInvalid" })
    .min(0, { error: "rebate.tierInvalid" })
    .max(10_000_000_000, { error: "rebate.tierInvalid" }),
  rateBp: z
    .number({ error: "rebate.tierInvalid" })
    .int({ error: "rebate.tierInvalid" })
    .min(1, { error: "rebate.tierInvalid" })
    .max(5_000, { error: "rebate.tierInvalid" }),
});
export const rebateRuleReq = z
  .strictObject({
    purchaserId: z
      .string()
      .regex(/^\d{1,18}$/, { error: "rebate.purchaserNotFound" })
      .nullable()
      .optional()
      .default(null),
    goodsId: z
      .string()
      .regex(/^\d{1,18}$/, { error: "rebate.goodsNotFound" })
      .nullable()
      .optional()
      .default(null),
    tiers: z
      .array(rebateTier, { error: "rebate.tierInvalid" })
      .min(1, { error: "rebate.tierInvalid" })
      .max(10, { error: "rebate.tierInvalid" }),
    validFrom: calendarDate("commission.dateInvalid"),
    validTo: calendarDate("commission.dateInvalid").nullable().optional().default(null),
  })
  .refine((v) => v.validTo === null || v.validTo >= v.validFrom, {
    path: ["validTo"],
    error: "commission.dateRangeInvalid",
  })
  .refine((v) => v.tiers.every((t, i) => i === 0 || t.minVolume > (v.tiers[i - 1]?.minVolume ?? -1)), {
    path: ["tiers"],
    error: "rebate.tiersOrder",
  });
export type RebateRuleReq = z.infer<typeof rebateRuleReq>;

export const rebateRule = z.object({
  id: z.string(),
  supplierId: z.string(),
  purchaserId: z.string().nullable(),
  /** The purchaser's and the goods' names for the list (null for "all"). */
  purchaserName: z.string().nullable(),
  goodsId: z.string().nullable(),
  goodsName: z.string().nullable(),
  tiers: z.array(z.object({ minVolume: z.number().int(), rateBp: z.number().int() })),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  createdAt: z.string(),
});
export type RebateRule = z.infer<typeof rebateRule>;
export const rebateRulesReply = z.array(rebateRule);

/**
 * The rule dialog's pickers, served beside the rules under the same page permission (a sub-account with
 * the rebate page but not the goods or docking page still fills them): the supplier's own goods matching
 * a keyword (name contains it, or code or id equals it), and the purchasers docked with it.
 */
export const rebateOption = z.object({ id: z.string(), name: z.string() });
export type RebateOption = z.infer<typeof rebateOption>;
export const rebateOptionsReply = z.array(rebateOption);
export const rebateGoodsOptionsQuery = z.object({ keyword: z.string().trim().max(100).optional() });
export type RebateGoodsOptionsQuery = z.infer<typeof rebateGoodsOptionsQuery>;

export const REBATE_STATES = ["due", "paid"] as const;
export const rebateStatement = z.object({
  id: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  purchaserId: z.string(),
  purchaserName: z.string(),
  period: z.string(),
  volume: money,
  rateBp: z.number().int(),
  amount: money,
  state: z.enum(REBATE_STATES),
  closedAt: z.string(),
  paidAt: z.string().nullable(),
});
export type RebateStatement = z.infer<typeof rebateStatement>;
export const rebateStatementPage = pageOf(rebateStatement);
export const rebateQuery = pageQuery.extend({ from: periodField.optional(), to: periodField.optional() });
export type RebateQuery = z.infer<typeof rebateQuery>;

/** A change of the rebate account (RebateFundChange). */
export const rebateChange = z.object({
  id: z.string(),
  time: z.string(),
  amount: money,
  balance: money,
  type: z.string(),
  reason: z.string(),
});
export const rebateChangePage = pageOf(rebateChange).extend({ balance: money });
export const rebateChangeQuery = pageQuery.extend({ from: calendarDate().optional(), to: calendarDate().optional() });
