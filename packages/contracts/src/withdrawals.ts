import { z } from "zod";
import { emailField, newPasswordField } from "./accounts";
import { CURRENCIES } from "./enums";
import { calendarDate } from "./dates";
import { BANK_ACCOUNT_RE, MAX_AMOUNT, requestKeyField } from "./funds";
import { REVIEW_STATES } from "./onboarding";
import { pageOf, pageQuery } from "./paging";

/**
 * Withdrawals and their bank cards (spec 01 §3 Withdrawal bank card and Withdrawal record, §4 states,
 * §5 Withdrawal). Amounts are integers of minor units.
 */

const text = (empty: "card.bankEmpty" | "card.cityEmpty") =>
  z.string({ error: empty }).trim().min(1, { error: empty }).max(50, { error: "card.textLength" });

export const bankCardReq = z.strictObject({
  companyName: z
    .string({ error: "card.companyEmpty" })
    .trim()
    .min(1, { error: "card.companyEmpty" })
    .min(2, { error: "card.companyLength" })
    .max(100, { error: "card.companyLength" }),
  bank: text("card.bankEmpty"),
  city: text("card.cityEmpty"),
  account: z
    .string({ error: "card.accountEmpty" })
    .trim()
    .min(1, { error: "card.accountEmpty" })
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(BANK_ACCOUNT_RE, { error: "card.accountInvalid" })),
});
export type BankCardReq = z.infer<typeof bankCardReq>;

export const bankCard = z.object({
  id: z.string(),
  companyName: z.string(),
  bank: z.string(),
  city: z.string(),
  /** Masked except to operators. */
  account: z.string(),
  state: z.enum(REVIEW_STATES),
  rejectReason: z.string().nullable(),
  submittedAt: z.string(),
});
export type BankCard = z.infer<typeof bankCard>;

/** Which account a withdrawal takes from: purchasers their reserve account, suppliers their income. */
export const WITHDRAW_ACCOUNTS = ["reserve", "income"] as const;
export type WithdrawAccount = (typeof WITHDRAW_ACCOUNTS)[number];

export const withdrawReq = z.strictObject({
  amount: z
    .number({ error: "withdraw.amountEmpty" })
    .int({ error: "funds.amountInvalid" })
    .positive({ error: "funds.amountInvalid" })
    .max(MAX_AMOUNT, { error: "funds.amountTooLarge" }),
  account: z.enum(WITHDRAW_ACCOUNTS).default("income"),
  remark: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
  requestKey: requestKeyField,
});
export type WithdrawReq = z.input<typeof withdrawReq>;

/** Spec 01 §4: under review, first review passed, bank paying, success, failure. */
export const WITHDRAWAL_STATES = ["under_review", "first_review_passed", "bank_paying", "success", "failed"] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];
export const WITHDRAWAL_IN_PROGRESS: readonly WithdrawalState[] = [
  "under_review",
  "first_review_passed",
  "bank_paying",
];

const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });

export const withdrawal = z.object({
  id: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  account: z.enum(WITHDRAW_ACCOUNTS),
  amount: money,
  state: z.enum(WITHDRAWAL_STATES),
  /** The merchant's remark, or the reason of a failure. */
  remark: z.string(),
  failReason: z.string().nullable(),
  /** The T+1 automatic payout made this withdrawal. */
  automatic: z.boolean(),
  card: z.object({ companyName: z.string(), bank: z.string(), city: z.string(), account: z.string() }),
  createdAt: z.string(),
  firstReviewedBy: z.string().nullable(),
  secondReviewedBy: z.string().nullable(),
  payoutReference: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why an automatic payout waits for an operator (above the review threshold, a new merchant), in the reader's language. */
  reviewReason: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawal>;

export const withdrawalQuery = pageQuery.extend({
  state: z.enum(WITHDRAWAL_STATES).optional(),
  merchantId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});
export type WithdrawalQuery = z.infer<typeof withdrawalQuery>;
export const withdrawalPage = pageOf(withdrawal);

/** What an operator does to a withdrawal. */
export const WITHDRAWAL_ACTIONS = ["firstReview", "secondReview", "markPaid", "markFailed", "reject"] as const;
export type WithdrawalAction = (typeof WITHDRAWAL_ACTIONS)[number];
export const withdrawalActionReq = z.strictObject({
  action: z.enum(WITHDRAWAL_ACTIONS),
  reason: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
});

export const autoPayoutReq = z.strictObject({
  /** The business day whose closing income is paid out (YYYY-MM-DD, platform time); default yesterday. */
  day: calendarDate().optional(),
});
export const autoPayoutReply = z.object({
  day: z.string(),
  created: z.number().int(),
  held: z.number().int(),
  skipped: z.number().int(),
});

/** An operator adds another operator (withdrawals need two different reviewers). */
export const newOperatorReq = z.strictObject({ email: emailField, password: newPasswordField });
export type NewOperatorReq = z.infer<typeof newOperatorReq>;

/**
 * Payout instructions to the bank (issue 44): written in the review's transaction and submitted by a job,
 * once per reference. `pending`: not yet taken by the bank (a failed try says why and when it is tried
 * again); `submitted`: the bank has it and its result is still to come (mark the withdrawal paid or failed).
 */
export const PAYOUT_INSTRUCTION_OPEN_STATES = ["pending", "submitted"] as const;
export const payoutInstruction = z.object({
  withdrawalId: z.string(),
  reference: z.string(),
  state: z.enum(PAYOUT_INSTRUCTION_OPEN_STATES),
  amount: money,
  companyName: z.string(),
  bank: z.string(),
  account: z.string(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** When a pending instruction is tried (again); null once submitted. */
  nextAttemptAt: z.string().nullable(),
});
export type PayoutInstructionView = z.infer<typeof payoutInstruction>;
export const payoutInstructionQuery = pageQuery.extend({ state: z.enum(PAYOUT_INSTRUCTION_OPEN_STATES).optional() });
export type PayoutInstructionQuery = z.infer<typeof payoutInstructionQuery>;
export const payoutInstructionPage = pageOf(payoutInstruction);
export const payoutDispatchReply = z.object({
  /** Instructions the bank took in this run. */
  submitted: z.number().int(),
  /** Instructions whose try failed (tried again later). */
  failed: z.number().int(),
});
export type PayoutDispatchReply = z.infer<typeof payoutDispatchReply>;
