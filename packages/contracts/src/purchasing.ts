import { z } from "zod";
import { CURRENCIES, REAL_NAME_STATES } from "./enums";
import { calendarDate } from "./dates";
import { pageOf, pageQuery } from "./paging";

/**
 * Docking and purchase orders (spec 01 §3 Docking record, Purchase order; §4 states; §5 Docking).
 * Amounts are integers of minor units.
 */

export const DOCKING_STATUSES = ["pending_review", "approved", "rejected", "cancelled"] as const;
export type DockingStatus = (typeof DOCKING_STATUSES)[number];

export const dockingApplyReq = z.strictObject({
  supplierId: z
    .string({ error: "docking.incomplete" })
    .trim()
    .min(1, { error: "docking.supplierIdEmpty" })
    .regex(/^\d{1,18}$/, { error: "docking.supplierNotFound" }),
});
export const dockingReviewReq = z.strictObject({
  approve: z.boolean({ error: "docking.incomplete" }),
  reason: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
});
export const dockingConfirmReq = z.strictObject({
  phone: z
    .string({ error: "validation.mobileEmpty" })
    .trim()
    .min(1, { error: "validation.mobileEmpty" })
    .regex(/^1\d{10}$/, { error: "validation.mobileFormat" }),
  verifyCode: z.string({ error: "validation.smsCodeEmpty" }).trim().min(1, { error: "validation.smsCodeEmpty" }),
});

export const docking = z.object({
  id: z.string(),
  /** Which side the reader is on. */
  side: z.enum(["purchaser", "supplier"]),
  counterpartId: z.string(),
  counterpartName: z.string(),
  counterpartRealNameState: z.enum(REAL_NAME_STATES),
  status: z.enum(DOCKING_STATUSES),
  /** Docked: approved, and the agreement signed by both sides. */
  docked: z.boolean(),
  purchaserSigned: z.boolean(),
  supplierSigned: z.boolean(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
});
export type Docking = z.infer<typeof docking>;
export const dockingQuery = pageQuery.extend({
  side: z.enum(["purchaser", "supplier"]).optional(),
  status: z.enum(DOCKING_STATUSES).optional(),
});
export type DockingQuery = z.infer<typeof dockingQuery>;
export const dockingPage = pageOf(docking);

export const ORDER_STATES = ["processing", "success", "failure"] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The purchaser's accounts an order may be paid from. */
export const ORDER_PAYING_ACCOUNTS = ["sup", "rebate"] as const;
export type OrderPayingAccount = (typeof ORDER_PAYING_ACCOUNTS)[number];

export const orderReq = z.strictObject({
  goodsId: z.string({ error: "order.goodsEmpty" }).regex(/^\d{1,18}$/, { error: "order.goodsEmpty" }),
  quantity: z
    .number({ error: "order.quantityInvalid" })
    .int({ error: "order.quantityInvalid" })
    .min(1, { error: "order.quantityInvalid" })
    .max(10_000, { error: "order.quantityInvalid" }),
  /** The account to top up, for direct top-up goods. */
  topUpAccount: z.string().trim().max(64, { error: "order.topUpAccountInvalid" }).optional(),
  /** The purchaser's own order number: the same number never makes a second order. */
  orderNo: z
    .string({ error: "order.orderNoInvalid" })
    .regex(/^[A-Za-z0-9_-]{6,64}$/, { error: "order.orderNoInvalid" }),
  /** The purchaser's account that pays: its SUP account (the default) or its rebate fund account. */
  payFrom: z.enum(ORDER_PAYING_ACCOUNTS, { error: "order.payFromInvalid" }).optional(),
});
export type OrderReq = z.infer<typeof orderReq>;

const money = z.object({ amount: z.number().int(), currency: z.enum(CURRENCIES) });
export const purchaseOrder = z.object({
  id: z.string(),
  orderNo: z.string(),
  purchaserId: z.string(),
  purchaserName: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  goodsId: z.string(),
  goodsName: z.string(),
  businessType: z.string(),
  quantity: z.number().int(),
  unitPrice: money,
  amount: money,
  state: z.enum(ORDER_STATES),
  topUpAccount: z.string().nullable(),
  /** The purchaser's account that paid (and that a refund returns to). */
  paidFrom: z.enum(ORDER_PAYING_ACCOUNTS),
  upstreamChannelId: z.string().nullable(),
  failReason: z.string().nullable(),
  refunded: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type PurchaseOrder = z.infer<typeof purchaseOrder>;
/** Optional day range (UTC+8 calendar days, inclusive) of a list. */
const dayRange = {
  from: calendarDate().optional(),
  to: calendarDate().optional(),
};
export const orderQuery = pageQuery.extend({
  state: z.enum(ORDER_STATES).optional(),
  orderNo: z.string().trim().max(64).optional(),
  goodsId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  /** The other party: the supplier (purchaser's list) or the purchaser (supplier's list). */
  counterpartId: z
    .string()
    .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" })
    .optional(),
  ...dayRange,
});
export type OrderQuery = z.infer<typeof orderQuery>;
export const orderPage = pageOf(purchaseOrder);

export const fulfilReq = z.discriminatedUnion("result", [
  z.strictObject({
    result: z.literal("success"),
    upstreamChannelId: z.string().trim().min(1, { error: "order.channelIdEmpty" }).max(64),
  }),
  z.strictObject({
    result: z.literal("failure"),
    reason: z.string({ error: "funds.reasonEmpty" }).trim().min(1, { error: "funds.reasonEmpty" }).max(200),
  }),
]);
export type FulfilReq = z.infer<typeof fulfilReq>;

/* ---------- refunds (sale/OnlineRefundSheet) ---------- */

export const REFUND_STATES = ["processing", "success", "failure", "abnormal"] as const;
export type RefundState = (typeof REFUND_STATES)[number];

export const refundReq = z.strictObject({
  orderId: z.string({ error: "order.notFound" }).regex(/^\d{1,18}$/, { error: "order.notFound" }),
  quantity: z
    .number({ error: "order.quantityInvalid" })
    .int({ error: "order.quantityInvalid" })
    .min(1, { error: "order.quantityInvalid" })
    .max(10_000, { error: "order.quantityInvalid" }),
  reason: z
    .string({ error: "funds.reasonEmpty" })
    .trim()
    .min(1, { error: "funds.reasonEmpty" })
    .max(200, { error: "funds.reasonLength" }),
});
export type RefundReq = z.infer<typeof refundReq>;
export const refundDecisionReq = z.strictObject({
  approve: z.boolean(),
  reason: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
});

export const refundOrder = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  goodsName: z.string(),
  purchaserId: z.string(),
  supplierId: z.string(),
  quantity: z.number().int(),
  amount: money,
  orderAmount: money,
  reason: z.string(),
  /** "expiry": store vouchers that expired unredeemed, refunded out of the escrow by the platform. */
  cause: z.enum(["request", "expiry"]),
  state: z.enum(REFUND_STATES),
  failReason: z.string().nullable(),
  topUpAccount: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RefundOrder = z.infer<typeof refundOrder>;
export const refundQuery = pageQuery.extend({
  state: z.enum(REFUND_STATES).optional(),
  orderNo: z.string().trim().max(64).optional(),
  ...dayRange,
});
export type RefundQuery = z.infer<typeof refundQuery>;
export const refundPage = pageOf(refundOrder);

/* ---------- reports (purchase report, refund report) ---------- */

export const REPORT_UNITS = ["day", "week", "month"] as const;
export type ReportUnit = (typeof REPORT_UNITS)[number];
export const orderReportQuery = z
  .object({
    kind: z.enum(["purchase", "refund"]).default("purchase"),
    unit: z.enum(REPORT_UNITS).default("day"),
    from: calendarDate(),
    to: calendarDate(),
  })
  .superRefine((v, ctx) => {
    if (v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "funds.dateRangeInvalid" });
  });
export type OrderReportQuery = z.infer<typeof orderReportQuery>;
/** Spec 01 §3 Reports: time, face amount, purchase or refund amount, supplier ID, (upstream channel), account type. */
export const orderReportRow = z.object({
  period: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  orders: z.number().int(),
  quantity: z.number().int(),
  faceAmount: z.number().int(),
  amount: z.number().int(),
  currency: z.enum(CURRENCIES),
  accountType: z.literal("sup"),
});
export type OrderReportRow = z.infer<typeof orderReportRow>;
export const orderReportReply = z.array(orderReportRow);

/* ---------- brand authorisation (business/BrandAuthorization, `brandAuth` calls) ---------- */

export const brandAuthReq = z.strictObject({
  granteeId: z
    .string({ error: "brandAuth.granteeEmpty" })
    .trim()
    .min(1, { error: "brandAuth.granteeEmpty" })
    .regex(/^\d{1,18}$/, { error: "brandAuth.granteeNotFound" }),
  kind: z.enum(["purchaser", "provider"], { error: "brandAuth.kindEmpty" }),
  remark: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
  /** Last day of the authorisation (inclusive); none: until revoked. */
  validUntil: calendarDate().optional(),
});
export type BrandAuthReq = z.infer<typeof brandAuthReq>;
export const brandAuthUpdateReq = z
  .strictObject({
    remark: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
    validUntil: calendarDate().nullable().optional(),
  })
  .refine((v) => v.remark !== undefined || v.validUntil !== undefined, { error: "validation.nothingToChange" });
export const brandAuthListReq = pageQuery.extend({ side: z.enum(["brand", "grantee"]).default("brand") });
export const brandAuth = z.object({
  id: z.string(),
  brandId: z.string(),
  brandName: z.string(),
  granteeId: z.string(),
  granteeName: z.string(),
  kind: z.enum(["purchaser", "provider"]),
  remark: z.string(),
  validUntil: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type BrandAuth = z.infer<typeof brandAuth>;
export const brandAuthPage = pageOf(brandAuth);

/* ---------- purchase applications ---------- */

export const APPLICATION_STATES = ["pending_review", "rejected", "purchasing"] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];
export const purchaseApplyReq = z.strictObject({
  goodsId: z.string({ error: "order.goodsEmpty" }).regex(/^\d{1,18}$/, { error: "order.goodsEmpty" }),
  remark: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
});
const minor = (key: "application.priceInvalid") =>
  z.number({ error: key }).int({ error: key }).positive({ error: key }).max(10_000_000_000, { error: key });
export const applicationDecisionReq = z.discriminatedUnion("approve", [
  z.strictObject({
    approve: z.literal(true),
    price: minor("application.priceInvalid"),
    secretPrice: minor("application.priceInvalid").optional(),
  }),
  z.strictObject({
    approve: z.literal(false),
    reason: z.string({ error: "funds.reasonEmpty" }).trim().min(1, { error: "funds.reasonEmpty" }).max(200),
  }),
]);
export type ApplicationDecisionReq = z.infer<typeof applicationDecisionReq>;
export const purchaseApplication = z.object({
  id: z.string(),
  purchaserId: z.string(),
  purchaserName: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  goodsId: z.string(),
  goodsName: z.string(),
  listPrice: money,
  /** How the goods is bought: codes from stock, or a top-up that needs an account; the order cap. */
  fromStock: z.boolean(),
  perOrderMax: z.number().int(),
  state: z.enum(APPLICATION_STATES),
  /** The selling price for this purchaser and its secret price; shown to the supplier and the purchaser only. */
  price: money.nullable(),
  secretPrice: money.nullable(),
  remark: z.string(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
});
export type PurchaseApplication = z.infer<typeof purchaseApplication>;
export const applicationQuery = pageQuery.extend({ state: z.enum(APPLICATION_STATES).optional() });
export const applicationPage = pageOf(purchaseApplication);

/* ---------- open API callback deliveries ---------- */

export const CALLBACK_STATES = ["pending", "delivered", "failed"] as const;
export const callbackDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  orderId: z.string(),
  url: z.string(),
  state: z.enum(CALLBACK_STATES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type CallbackDelivery = z.infer<typeof callbackDelivery>;
export const callbackQuery = pageQuery.extend({ state: z.enum(CALLBACK_STATES).optional() });
export const callbackPage = pageOf(callbackDelivery);

/* ---------- whitelists (business/VendorWhiteList, business/PurchaseWhiteList) ---------- */

/**
 * A supplier's whitelist entry: the purchaser may buy without a docking. Scope "vendor" (VendorWhiteList):
 * every goods of the supplier; scope "goods" (PurchaseWhiteList): one goods only.
 */
export const WHITELIST_SCOPES = ["vendor", "goods"] as const;
export type WhitelistScope = (typeof WHITELIST_SCOPES)[number];
export const whitelistReq = z.strictObject({
  purchaserId: z
    .string({ error: "whitelist.purchaserEmpty" })
    .trim()
    .min(1, { error: "whitelist.purchaserEmpty" })
    .regex(/^\d{1,18}$/, { error: "whitelist.purchaserNotFound" }),
  scope: z.enum(WHITELIST_SCOPES, { error: "docking.incomplete" }),
  /** Required when scope is "goods". */
  goodsId: z
    .string()
    .regex(/^\d{1,18}$/, { error: "whitelist.goodsEmpty" })
    .optional(),
  remark: z.string().trim().max(200, { error: "funds.reasonLength" }).optional(),
});
export type WhitelistReq = z.infer<typeof whitelistReq>;
export const whitelistQuery = pageQuery.extend({
  scope: z.enum(WHITELIST_SCOPES).default("vendor"),
  purchaserId: z
    .string()
    .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" })
    .optional(),
  goodsId: z
    .string()
    .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" })
    .optional(),
  active: z.enum(["true", "false"]).optional(),
});
export type WhitelistQuery = z.infer<typeof whitelistQuery>;
export const whitelistEntry = z.object({
  id: z.string(),
  scope: z.enum(WHITELIST_SCOPES),
  purchaserId: z.string(),
  purchaserName: z.string(),
  purchaserRealNameState: z.enum(REAL_NAME_STATES),
  goodsId: z.string().nullable(),
  goodsName: z.string().nullable(),
  remark: z.string(),
  active: z.boolean(),
  /** The purchaser is also docked with the supplier (the whitelist then changes nothing). */
  docked: z.boolean(),
  createdAt: z.string(),
  removedAt: z.string().nullable(),
});
export type WhitelistEntry = z.infer<typeof whitelistEntry>;
export const whitelistPage = pageOf(whitelistEntry);

/* ---------- statistics and settlement pages (sale/SalesStatistics, sale/PurchaseSettlement, business/CheckSupOrder, business/SUPOrder) ---------- */

const day = calendarDate();
const checkRange = (v: { from: string; to: string }, ctx: z.RefinementCtx) => {
  if (v.from > v.to) ctx.addIssue({ code: "custom", path: ["from"], message: "funds.dateRangeInvalid" });
  else if (Date.parse(v.to) - Date.parse(v.from) > 366 * 86_400_000) {
    ctx.addIssue({ code: "custom", path: ["from"], message: "stats.rangeTooLong" });
  }
};

/** sale/SalesStatistics: what the purchaser bought (and got back) per goods or per supplier. */
export const salesStatsQuery = pageQuery
  .extend({ dimension: z.enum(["goods", "supplier"]).default("goods"), from: day, to: day })
  .superRefine(checkRange);
export type SalesStatsQuery = z.infer<typeof salesStatsQuery>;
export const salesStatsRow = z.object({
  key: z.string(),
  name: z.string(),
  supplierId: z.string(),
  supplierName: z.string(),
  orders: z.number().int(),
  quantity: z.number().int(),
  faceAmount: z.number().int(),
  amount: z.number().int(),
  refundedQuantity: z.number().int(),
  refundedAmount: z.number().int(),
  netAmount: z.number().int(),
  currency: z.enum(CURRENCIES),
});
export type SalesStatsRow = z.infer<typeof salesStatsRow>;
export const salesStatsPage = pageOf(salesStatsRow);

/** sale/PurchaseSettlement: per period, purchases and refunds beside the SUP account's ledger totals. */
export const settlementQuery = z
  .object({ unit: z.enum(["day", "month"]).default("day"), from: day, to: day })
  .superRefine(checkRange);
export type SettlementQuery = z.infer<typeof settlementQuery>;
export const settlementRow = z.object({
  period: z.string(),
  orders: z.number().int(),
  purchaseAmount: z.number().int(),
  refundAmount: z.number().int(),
  netAmount: z.number().int(),
  ledgerIn: z.number().int(),
  ledgerOut: z.number().int(),
  closingBalance: z.number().int().nullable(),
  currency: z.enum(CURRENCIES),
});
export type SettlementRow = z.infer<typeof settlementRow>;
export const settlementReply = z.array(settlementRow);

/** business/CheckSupOrder: per day, the sales the orders say against what the income ledger received. */
export const supplyCheckQuery = z.object({ from: day, to: day }).superRefine(checkRange);
export type SupplyCheckQuery = z.infer<typeof supplyCheckQuery>;
export const supplyCheckRow = z.object({
  day: z.string(),
  settledOrders: z.number().int(),
  settledAmount: z.number().int(),
  refunds: z.number().int(),
  refundAmount: z.number().int(),
  ledgerIncome: z.number().int(),
  ledgerRefund: z.number().int(),
  /** (settled − refunds) − (ledger income − ledger refunds): zero when the day balances. */
  difference: z.number().int(),
  escrowOrders: z.number().int(),
  escrowAmount: z.number().int(),
  currency: z.enum(CURRENCIES),
});
export type SupplyCheckRow = z.infer<typeof supplyCheckRow>;
export const supplyCheckReply = z.array(supplyCheckRow);

/** business/SUPOrder: orders paid from purchasers' SUP accounts, with where the money is now. */
export const SUP_SETTLEMENTS = ["escrow", "settled", "partly_refunded", "refunded"] as const;
export type SupSettlement = (typeof SUP_SETTLEMENTS)[number];
export const supOrderQuery = pageQuery.extend({
  settlement: z.enum(SUP_SETTLEMENTS).optional(),
  orderNo: z.string().trim().max(64).optional(),
  purchaserId: z
    .string()
    .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" })
    .optional(),
  ...dayRange,
});
export type SupOrderQuery = z.infer<typeof supOrderQuery>;
export const supOrderRow = z.object({
  id: z.string(),
  orderNo: z.string(),
  createdAt: z.string(),
  purchaserId: z.string(),
  purchaserName: z.string(),
  goodsId: z.string(),
  goodsName: z.string(),
  quantity: z.number().int(),
  amount: z.number().int(),
  refundedQuantity: z.number().int(),
  refundedAmount: z.number().int(),
  /** What the supplier keeps of the order. */
  netAmount: z.number().int(),
  settlement: z.enum(SUP_SETTLEMENTS),
  currency: z.enum(CURRENCIES),
});
export type SupOrderRow = z.infer<typeof supOrderRow>;
export const supOrderPage = pageOf(supOrderRow);

/* ---------- the API purchase table (marketplace screen 11) ---------- */

/**
 * A goods the purchaser may buy (docked, brand-authorised or whitelisted), as the API purchase table
 * shows it: what to send to the open API's order call for it.
 */
export const apiPurchaseGoods = z.object({
  goodsId: z.string(),
  /** The supplier's SKU code of the goods. */
  code: z.string(),
  name: z.string(),
  brandName: z.string(),
  supplierName: z.string(),
  businessType: z.string(),
  /** Codes from stock (no top-up account) or a direct top-up (the order names the account to top up). */
  fromStock: z.boolean(),
  /** What an order pays per unit: the purchaser's own price when one was agreed. */
  price: money,
  listPrice: money,
  perOrderMax: z.number().int(),
  stock: z.number().int(),
});
export type ApiPurchaseGoods = z.infer<typeof apiPurchaseGoods>;
export const apiPurchaseGoodsQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional() });
export type ApiPurchaseGoodsQuery = z.infer<typeof apiPurchaseGoodsQuery>;
export const apiPurchaseGoodsPage = pageOf(apiPurchaseGoods);
