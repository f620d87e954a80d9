import { z } from "zod";
import { calendarDate } from "./dates";
import { BUSINESS_TYPES, CURRENCIES } from "./enums";
import { LEDGER_TRANSACTION_KINDS } from "./ledger";
import { pageOf, pageQuery } from "./paging";

/**
 * A service provider's operations pages (spec 01 §2 `/providers` OrderManagement, BrandOrder,
 * RechargeOrder, SettlementManagement, PurchaseInformation, brandManagement; issue 29): the orders,
 * figures, settlements and brands of the merchants the provider serves (active bindings) and no other.
 */
const idField = z.string().regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const monthField = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "commission.periodInvalid" });
const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });

export const servedOrderQuery = pageQuery.extend({
  /** A served merchant: its sales (a brand) or its purchases (a vendor). */
  merchantId: idField.optional(),
  businessType: z.enum(BUSINESS_TYPES).optional(),
  state: z.enum(["processing", "success", "failure"]).optional(),
  orderNo: z.string().trim().max(64).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type ServedOrderQuery = z.infer<typeof servedOrderQuery>;

export const servedOrder = z.object({
  id: z.string(),
  orderNo: z.string(),
  purchaserId: z.string(),
  purchaserName: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  goodsName: z.string(),
  brandId: z.string(),
  brandName: z.string(),
  businessType: z.string(),
  quantity: z.number().int(),
  amount: money,
  state: z.enum(["processing", "success", "failure"]),
  topUpAccount: z.string().nullable(),
  refunded: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ServedOrder = z.infer<typeof servedOrder>;
export const servedOrderPage = pageOf(servedOrder);

export const figuresQuery = z
  .object({ from: calendarDate(), to: calendarDate() })
  .refine((v) => v.from <= v.to, { path: ["from"], error: "funds.dateRangeInvalid" });
export const dailyFigure = z.object({
  day: z.string(),
  orders: z.number().int(),
  amount: money,
  refunds: money,
  buyers: z.number().int(),
});
export type DailyFigure = z.infer<typeof dailyFigure>;
export const figuresReply = z.object({
  days: z.array(dailyFigure),
  totals: z.object({ orders: z.number().int(), amount: money, refunds: money }),
});
export type FiguresReply = z.infer<typeof figuresReply>;

export const settlementsQuery = z.object({ from: monthField, to: monthField });
export const servedSettlement = z.object({
  supplierId: z.string(),
  supplierName: z.string(),
  month: z.string(),
  orders: z.number().int(),
  sales: money,
  refunds: money,
  net: money,
});
export type ServedSettlement = z.infer<typeof servedSettlement>;
export const settlementsReply = z.array(servedSettlement);

/** A served brand's state: goods on sale, goods but none on sale, or no goods yet. */
export const SERVED_BRAND_STATES = ["on_sale", "off_sale", "no_goods"] as const;
export const servedBrand = z.object({
  id: z.string(),
  name: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  merchantRealNameState: z.string(),
  goods: z.number().int(),
  onSale: z.number().int(),
  state: z.enum(SERVED_BRAND_STATES),
  /** The binding the provider serves the brand's owner by: its kind and since when (ISO time). */
  binding: z.object({ kind: z.enum(["brand", "vendor"]), since: z.string() }),
  createdAt: z.string(),
});
export type ServedBrand = z.infer<typeof servedBrand>;
export const servedBrandsReply = z.array(servedBrand);

/** PurchaseFundSheet: the fund-change rows of the purchase fund (SUP) accounts of the served purchasers. */
export const fundSheetQuery = pageQuery
  .extend({
    /** A served purchaser. */
    merchantId: idField.optional(),
    type: z.enum(LEDGER_TRANSACTION_KINDS).optional(),
    from: calendarDate().optional(),
    to: calendarDate().optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["from"], error: "funds.dateRangeInvalid" });
export type FundSheetQuery = z.infer<typeof fundSheetQuery>;
export const fundSheetRow = z.object({
  id: z.string(),
  time: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  /** Money in (0 when money left) and money out (a positive number), minor units. */
  increase: z.number().int(),
  expense: z.number().int(),
  balance: z.number().int(),
  currency: z.enum(CURRENCIES),
  type: z.enum(LEDGER_TRANSACTION_KINDS),
  reason: z.string(),
});
export type FundSheetRow = z.infer<typeof fundSheetRow>;
export const fundSheetPage = pageOf(fundSheetRow);

/** LinkData: per day and per served merchant, orders, amounts and new dockings (trading links). */
export const linkDay = z.object({
  day: z.string(),
  orders: z.number().int(),
  amount: money,
  newDockings: z.number().int(),
});
export type LinkDay = z.infer<typeof linkDay>;
export const linkMerchant = z.object({
  merchantId: z.string(),
  merchantName: z.string(),
  role: z.enum(["brand", "vendor"]),
  orders: z.number().int(),
  amount: money,
  newDockings: z.number().int(),
});
export type LinkMerchant = z.infer<typeof linkMerchant>;
export const linkDataReply = z.object({
  days: z.array(linkDay),
  merchants: z.array(linkMerchant),
  totals: z.object({
    orders: z.number().int(),
    amount: money,
    newDockings: z.number().int(),
    servedBrands: z.number().int(),
    servedVendors: z.number().int(),
  }),
});
export type LinkDataReply = z.infer<typeof linkDataReply>;

/** BatchPurchase: an uploaded xlsx of orders for served purchasers, one result per line. */
export const batchPurchaseQuery = z.object({ fileName: z.string().trim().min(1).max(200) });
export const BATCH_LINE_STATES = ["ordered", "replayed", "refused"] as const;
export const batchPurchaseLine = z.object({
  row: z.number().int(),
  purchaser: z.string(),
  goodsId: z.string(),
  quantity: z.string(),
  topUpAccount: z.string(),
  requestKey: z.string(),
  state: z.enum(BATCH_LINE_STATES),
  orderNo: z.string().nullable(),
  orderId: z.string().nullable(),
  orderState: z.enum(["processing", "success", "failure"]).nullable(),
  amount: money.nullable(),
  /** Why the line was refused, in the language of the upload. */
  reason: z.string().nullable(),
});
export type BatchPurchaseLine = z.infer<typeof batchPurchaseLine>;
export const batchPurchaseSummary = z.object({
  id: z.string(),
  fileName: z.string(),
  ordered: z.number().int(),
  refused: z.number().int(),
  createdAt: z.string(),
});
export type BatchPurchaseSummary = z.infer<typeof batchPurchaseSummary>;
export const batchPurchaseReply = batchPurchaseSummary.extend({ lines: z.array(batchPurchaseLine) });
export type BatchPurchaseReply = z.infer<typeof batchPurchaseReply>;
export const batchPurchasePage = pageOf(batchPurchaseSummary);
/**
 * What a BatchPurchase file would buy, read before anything is spent (issue 37): each line as the upload
 * would treat it (`ordered`: a new order to be paid, with its amount; `replayed`: ordered by an earlier
 * upload, nothing paid again; `refused`, with the reason), the new orders and their units, and their
 * total per currency (the purchasers' SUP accounts pay it). Nothing is ordered or kept.
 */
export const batchPurchasePreview = z.object({
  fileName: z.string(),
  orders: z.number().int(),
  units: z.number().int(),
  totals: z.array(money),
  replayed: z.number().int(),
  refused: z.number().int(),
  lines: z.array(batchPurchaseLine),
});
export type BatchPurchasePreview = z.infer<typeof batchPurchasePreview>;
