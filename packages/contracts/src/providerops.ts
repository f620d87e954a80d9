import { z } from "zod";
import { calendarDate } from "./dates";
import { BUSINESS_TYPES, CURRENCIES } from "./enums";
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

export const figuresQuery = z.object({ from: calendarDate(), to: calendarDate() }).refine((v) => v.from <= v.to, { path: ["from"], error: "funds.dateRangeInvalid" });
export const dailyFigure = z.object({ day: z.string(), orders: z.number().int(), amount: money, refunds: money, buyers: z.number().int() });
export type DailyFigure = z.infer<typeof dailyFigure>;
export const figuresReply = z.object({ days: z.array(dailyFigure), totals: z.object({ orders: z.number().int(), amount: money, refunds: money }) });
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

export const servedBrand = z.object({
  id: z.string(),
  name: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  merchantRealNameState: z.string(),
  goods: z.number().int(),
  onSale: z.number().int(),
  createdAt: z.string(),
});
export type ServedBrand = z.infer<typeof servedBrand>;
export const servedBrandsReply = z.array(servedBrand);
