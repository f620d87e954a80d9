import { z } from "zod";
import { calendarDate } from "./dates";
import { CURRENCIES, INVOICE_TYPES, type InvoiceType } from "./enums";
import { amountField, requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";
import { EMAIL_RE } from "./validators";

/**
 * Invoices (spec 01 §2 `/sale` Invoice, InvoiceRecord, TicketSignature; §3 invoice types; §9 rates).
 * A merchant's invoiceable amount per invoice type is what it spent (successful orders, less their
 * successful refunds) less what it has asked for or been issued; red-letter reversal gives an issued
 * invoice's amount back. Amounts are integers of minor units, tax-inclusive.
 */

export const INVOICE_STATES = ["requested", "issued", "delivered", "refused", "reversed"] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** 普通发票 (ordinary) or 增值税专用发票 (VAT special): special invoices need the buyer's bank and address. */
export const INVOICE_CATEGORIES = ["ordinary", "special"] as const;
export type InvoiceCategory = (typeof INVOICE_CATEGORIES)[number];
export const invoiceCategoryOf = (t: InvoiceType): InvoiceCategory => (t.startsWith("vat_") ? "special" : "ordinary");

/** 统一社会信用代码 (GB 32100-2015): 18 characters, the last a check character. */
const USCC_CHARS = "0123456789ABCDEFGHJKLMNPQRTUWXY";
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
export function isCreditCode(v: string): boolean {
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += USCC_CHARS.indexOf(v.charAt(i)) * (USCC_WEIGHTS[i] ?? 0);
  const check = (31 - (sum % 31)) % 31;
  return USCC_CHARS.charAt(check) === v.charAt(17);
}

const text = (max: number, error: "invoice.titleNameEmpty" | "invoice.fieldTooLong" = "invoice.fieldTooLong") =>
  z.string({ error }).trim().max(max, { error: "invoice.fieldTooLong" });
const optionalText = (max: number) => text(max).optional().default("");
const emailField = z
  .string({ error: "validation.emailEmpty" })
  .trim()
  .min(1, { error: "validation.emailEmpty" })
  .max(100, { error: "validation.emailFormat" })
  .regex(EMAIL_RE, { error: "validation.emailFormat" });
const taxIdField = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => v === "" || isCreditCode(v), { error: "invoice.taxIdInvalid" });
const bankAccountField = z
  .string()
  .trim()
  .refine((v) => v === "" || /^\d{8,30}$/.test(v), { error: "invoice.bankAccountInvalid" });

/** The buyer on an invoice (抬头): name and tax id; a VAT special invoice adds address, phone, bank and account. */
export const invoiceTitleFields = z.strictObject({
  name: text(100, "invoice.titleNameEmpty").min(1, { error: "invoice.titleNameEmpty" }),
  taxId: taxIdField.optional().default(""),
  address: optionalText(120),
  phone: z
    .string()
    .trim()
    .refine((v) => v === "" || /^[0-9+\-() ]{5,20}$/.test(v), { error: "invoice.phoneInvalid" })
    .optional()
    .default(""),
  bank: optionalText(100),
  bankAccount: bankAccountField.optional().default(""),
});
export type InvoiceTitleFields = z.infer<typeof invoiceTitleFields>;

/** The rule of §9 on a title for a category: special needs tax id, address and phone, bank and account. */
export function titleProblems(
  category: InvoiceCategory,
  t: InvoiceTitleFields,
): { path: string; message: "invoice.taxIdRequired" | "invoice.bankRequired" | "invoice.addressRequired" }[] {
  if (category !== "special") return [];
  const out: { path: string; message: "invoice.taxIdRequired" | "invoice.bankRequired" | "invoice.addressRequired" }[] =
    [];
  if (!t.taxId) out.push({ path: "taxId", message: "invoice.taxIdRequired" });
  if (!t.bank || !t.bankAccount) out.push({ path: !t.bank ? "bank" : "bankAccount", message: "invoice.bankRequired" });
  if (!t.address || !t.phone) out.push({ path: !t.address ? "address" : "phone", message: "invoice.addressRequired" });
  return out;
}

export const invoiceReq = z
  .strictObject({
    invoiceType: z.enum(INVOICE_TYPES, { error: "invoice.typeEmpty" }),
    amount: amountField,
    title: invoiceTitleFields,
    /** Where the invoice is mailed; empty: the delivery email of the e-signature settings. */
    email: z
      .union([z.literal(""), emailField])
      .optional()
      .default(""),
    remark: optionalText(200),
    requestKey: requestKeyField,
  })
  .superRefine((v, ctx) => {
    for (const p of titleProblems(invoiceCategoryOf(v.invoiceType), v.title)) {
      ctx.addIssue({ code: "custom", path: ["title", p.path], message: p.message });
    }
  });
export type InvoiceReq = z.infer<typeof invoiceReq>;

export const invoiceQuery = pageQuery.extend({
  state: z.enum(INVOICE_STATES).optional(),
  invoiceType: z.enum(INVOICE_TYPES).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type InvoiceQuery = z.infer<typeof invoiceQuery>;
export const opsInvoiceQuery = invoiceQuery.extend({
  merchantId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});
export type OpsInvoiceQuery = z.infer<typeof opsInvoiceQuery>;

const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });

export const invoice = z.object({
  id: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  invoiceType: z.enum(INVOICE_TYPES),
  category: z.enum(INVOICE_CATEGORIES),
  /** Tax rate in basis points (600 = 6%). */
  rateBp: z.number().int(),
  amount: money,
  taxAmount: money,
  title: z.object({
    name: z.string(),
    taxId: z.string(),
    address: z.string(),
    phone: z.string(),
    bank: z.string(),
    bankAccount: z.string(),
  }),
  email: z.string(),
  remark: z.string(),
  state: z.enum(INVOICE_STATES),
  refuseReason: z.string().nullable(),
  invoiceNo: z.string().nullable(),
  redInvoiceNo: z.string().nullable(),
  reverseReason: z.string().nullable(),
  createdAt: z.string(),
  issuedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  reversedAt: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoice>;
export const invoicePage = pageOf(invoice);

/** One invoice type's figures for a merchant: spent, asked for (pending), issued, and what is left. */
export const invoiceableRow = z.object({
  invoiceType: z.enum(INVOICE_TYPES),
  category: z.enum(INVOICE_CATEGORIES),
  rateBp: z.number().int().nullable(),
  /** Whether the type may be requested today (a rate valid today). */
  available: z.boolean(),
  spent: money,
  pending: money,
  invoiced: money,
  invoiceable: money,
});
export type InvoiceableRow = z.infer<typeof invoiceableRow>;
export const invoiceableReply = z.array(invoiceableRow);

/** The tax rates as data, with the days they apply (`GET invoice/rates`). */
export const invoiceRate = z.object({
  invoiceType: z.enum(INVOICE_TYPES),
  category: z.enum(INVOICE_CATEGORIES),
  rateBp: z.number().int(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
});
export const invoiceRatesReply = z.array(invoiceRate);

/** Saved titles (TicketSignature). */
export const invoiceTitleReq = z.strictObject({
  ...invoiceTitleFields.shape,
  isDefault: z.boolean().optional().default(false),
});
export type InvoiceTitleReq = z.infer<typeof invoiceTitleReq>;
export const invoiceTitle = z.object({
  id: z.string(),
  name: z.string(),
  taxId: z.string(),
  address: z.string(),
  phone: z.string(),
  bank: z.string(),
  bankAccount: z.string(),
  isDefault: z.boolean(),
  /** Whether the title is complete enough for a VAT special invoice. */
  specialReady: z.boolean(),
  createdAt: z.string(),
});
export type InvoiceTitle = z.infer<typeof invoiceTitle>;
export const invoiceTitlesReply = z.array(invoiceTitle);

/** The e-signature settings (TicketSignature): who signs for invoices, where they are delivered. */
export const invoiceSettingsReq = z.strictObject({
  eSign: z.boolean(),
  signerName: text(30),
  signerPhone: z
    .string()
    .trim()
    .refine((v) => v === "" || /^1\d{10}$/.test(v), { error: "validation.mobileFormat" }),
  deliveryEmail: z.union([z.literal(""), emailField]),
});
export type InvoiceSettingsReq = z.infer<typeof invoiceSettingsReq>;
export const invoiceSettings = invoiceSettingsReq.extend({ updatedAt: z.string().nullable() });
export type InvoiceSettings = z.infer<typeof invoiceSettings>;

export const invoiceRefuseReq = z.strictObject({
  reason: z
    .string({ error: "funds.reasonEmpty" })
    .trim()
    .min(1, { error: "funds.reasonEmpty" })
    .max(200, { error: "funds.reasonLength" }),
});
export const invoiceReverseReq = invoiceRefuseReq;
