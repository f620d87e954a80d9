import { z } from "zod";
import { money, mobileField } from "./accounts";
import { calendarDate } from "./dates";
import { requestKeyField } from "./funds";
import { PAGE_SIZES, pageOf, pageQuery } from "./paging";

/**
 * Physical (and virtual) goods e-commerce (spec 01 §2 `/sale` PhysicalSelection, VirtualGoods, RealGoods,
 * VirtualOrders, RealGoodsOrders, OnlineRefundSheet; `/business` AddProducts, ProductList, OrderRelated;
 * §3 e-commerce commodity, express order, after-sales; §7 the legacy e-commerce calls). A brand lists
 * commodities whose SKUs are the combinations of its specification groups (colour × size), each with a
 * price and stock; purchasers pick them to resell and place orders for a consignee; the brand ships them
 * through a courier adapter and tracking events arrive as pushes; after-sales follow the state machine of
 * the Chinese malls. Amounts are integers of minor units.
 */

export const COMMODITY_KINDS = ["physical", "virtual"] as const;
export type CommodityKind = (typeof COMMODITY_KINDS)[number];

/** Order states of a Chinese mall: 待付款, 待发货, 已发货, 已收货, 已完成, 已关闭. */
export const COMMERCE_ORDER_STATES = ["to_pay", "to_ship", "shipped", "received", "completed", "closed"] as const;
export type CommerceOrderState = (typeof COMMERCE_ORDER_STATES)[number];

/** After-sales way: 仅退款 / 退货退款. */
export const AFTERSALE_WAYS = ["refund", "return_and_refund"] as const;
export type AfterSaleWay = (typeof AFTERSALE_WAYS)[number];
/** apply → seller_agree → buyer_delivery → wait_refund → complete; ends buyer_cancel, seller_disagree, seller_refuse. */
export const AFTERSALE_STATES = [
  "apply",
  "seller_agree",
  "buyer_delivery",
  "wait_refund",
  "complete",
  "buyer_cancel",
  "seller_disagree",
  "seller_refuse",
] as const;
export type AfterSaleState = (typeof AFTERSALE_STATES)[number];
export const AFTERSALE_ACTIONS = ["agree", "disagree", "receive", "refuse"] as const;
export type AfterSaleAction = (typeof AFTERSALE_ACTIONS)[number];

/**
 * Kuaidi100 states: 0 在途 in transit, 1 揽收 picked up, 2 疑难 problem, 3 签收 signed, 4 退签 returned to
 * sender signed, 5 派件 out for delivery, 6 退回 returning, 7 转投 transferred, 14 拒签 refused.
 */
export const TRACKING_STATES = [0, 1, 2, 3, 4, 5, 6, 7, 14] as const;
export const TRACKING_SIGNED = 3;
export const TRACKING_REFUSED = 14;

/** Limits of the mall. */
export const COMMERCE_LIMITS = {
  maxSpecGroups: 3,
  maxSpecValues: 20,
  maxSkus: 200,
  maxImages: 9,
  maxOrderLines: 20,
  maxQuantity: 999,
  maxPrice: 100_000_000,
  maxStock: 10_000_000,
  /** Unpaid orders close after this many minutes and give their stock back. */
  unpaidCloseMinutes: 30,
} as const;

const idString = z
  .string({ error: "validation.invalidParameter" })
  .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const idLike = z.union([idString, z.number().int().positive().max(Number.MAX_SAFE_INTEGER).transform(String)], {
  error: "validation.invalidParameter",
});
const amountField = (error: "commerce.priceInvalid" | "commerce.freightInvalid" | "commerce.amountInvalid") =>
  z.number({ error }).int({ error }).min(0, { error }).max(COMMERCE_LIMITS.maxPrice, { error });
const text = (max: number) => z.string().trim().max(max, { error: "commerce.tooLong" });

/** Page and pagesize of the legacy calls (the same sizes as every list). */
export const legacyPager = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pagesize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { error: "validation.pageSize" })
    .default(20),
});

export const specGroup = z.object({
  name: z
    .string({ error: "commerce.specInvalid" })
    .trim()
    .min(1, { error: "commerce.specInvalid" })
    .max(20, { error: "commerce.specInvalid" }),
  values: z
    .array(
      z
        .string({ error: "commerce.specInvalid" })
        .trim()
        .min(1, { error: "commerce.specInvalid" })
        .max(30, { error: "commerce.specInvalid" }),
      { error: "commerce.specInvalid" },
    )
    .min(1, { error: "commerce.specInvalid" })
    .max(COMMERCE_LIMITS.maxSpecValues, { error: "commerce.specInvalid" }),
});
export type SpecGroupInput = z.infer<typeof specGroup>;

export const skuInput = z.object({
  /** Present when updating an existing SKU. */
  id: idString.optional(),
  specs: z
    .array(z.string().trim().max(30), { error: "commerce.specsMismatch" })
    .max(COMMERCE_LIMITS.maxSpecGroups, { error: "commerce.specsMismatch" }),
  price: z
    .number({ error: "commerce.priceInvalid" })
    .int({ error: "commerce.priceInvalid" })
    .min(1, { error: "commerce.priceInvalid" })
    .max(COMMERCE_LIMITS.maxPrice, { error: "commerce.priceInvalid" }),
  stock: z
    .number({ error: "commerce.stockInvalid" })
    .int({ error: "commerce.stockInvalid" })
    .min(0, { error: "commerce.stockInvalid" })
    .max(COMMERCE_LIMITS.maxStock, { error: "commerce.stockInvalid" }),
  code: text(40).optional(),
});
export type SkuInput = z.infer<typeof skuInput>;

/** `commodity/add`. */
export const commodityAddReq = z.object({
  kind: z.enum(COMMODITY_KINDS, { error: "validation.invalidParameter" }).default("physical"),
  name: z
    .string({ error: "commerce.nameEmpty" })
    .trim()
    .min(1, { error: "commerce.nameEmpty" })
    .max(60, { error: "commerce.tooLong" }),
  category: text(30).default(""),
  description: text(2000).default(""),
  images: z
    .array(z.string().trim().min(1).max(500), { error: "validation.invalidParameter" })
    .max(COMMERCE_LIMITS.maxImages, { error: "commerce.tooManyImages" })
    .default([]),
  /** A video of the merchant's video library (`videolibrary/pager`'s videoid). */
  videoid: idString.nullable().optional(),
  specGroups: z
    .array(specGroup, { error: "commerce.specInvalid" })
    .max(COMMERCE_LIMITS.maxSpecGroups, { error: "commerce.specInvalid" })
    .default([]),
  skus: z
    .array(skuInput, { error: "commerce.skuRequired" })
    .min(1, { error: "commerce.skuRequired" })
    .max(COMMERCE_LIMITS.maxSkus, { error: "commerce.skuRequired" }),
  sort: z.number().int().min(0).max(1_000_000).default(0),
  weightG: z.number({ error: "validation.invalidParameter" }).int().min(0).max(1_000_000).default(0),
  freightFirst: amountField("commerce.freightInvalid").default(0),
  freightExtra: amountField("commerce.freightInvalid").default(0),
  freeOver: amountField("commerce.freightInvalid").nullable().default(null),
});
export type CommodityAddReq = z.input<typeof commodityAddReq>;

/** `commodity/update`: every field of add, for one commodity. */
export const commodityUpdateReq = commodityAddReq.omit({ kind: true }).extend({ id: idLike });
export type CommodityUpdateReq = z.input<typeof commodityUpdateReq>;

export const commodityStateReq = z.object({ id: idLike, onShelf: z.boolean({ error: "validation.invalidParameter" }) });
export const commoditySortReq = z.object({
  id: idLike,
  sort: z.number({ error: "validation.invalidParameter" }).int().min(0).max(1_000_000),
});
export const commodityVideoReq = z.object({ id: idLike, videoid: idString.nullable() });
export const commodityPagerReq = legacyPager.extend({
  name: text(60).optional(),
  kind: z.enum(COMMODITY_KINDS).optional(),
  onShelf: z.boolean().optional(),
});
export type CommodityPagerReq = z.input<typeof commodityPagerReq>;

export const sku = z.object({
  id: z.string(),
  specs: z.array(z.string()),
  price: money,
  stock: z.number().int(),
  sold: z.number().int(),
  code: z.string(),
});
export type Sku = z.infer<typeof sku>;

export const commodity = z.object({
  id: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  kind: z.enum(COMMODITY_KINDS),
  name: z.string(),
  category: z.string(),
  description: z.string(),
  images: z.array(z.string()),
  videoid: z.string().nullable(),
  specGroups: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  skus: z.array(sku),
  sort: z.number().int(),
  onShelf: z.boolean(),
  weightG: z.number().int(),
  freightFirst: z.number().int(),
  freightExtra: z.number().int(),
  freeOver: z.number().int().nullable(),
  currency: z.string(),
  stock: z.number().int(),
  sold: z.number().int(),
  /** For a purchaser: whether it is among its resale picks. */
  picked: z.boolean().optional(),
  createdAt: z.string(),
});
export type Commodity = z.infer<typeof commodity>;
export const commodityPage = pageOf(commodity);

/** PhysicalSelection / VirtualGoods: brands' commodities on shelf. */
export const selectionQuery = pageQuery.extend({
  kind: z.enum(COMMODITY_KINDS).default("physical"),
  name: text(60).optional(),
  picked: z.enum(["yes", "no"]).optional(),
});
export type SelectionQuery = z.input<typeof selectionQuery>;
export const resaleReq = z.object({
  commodityId: idLike,
  retailPrice: amountField("commerce.priceInvalid").nullable().optional(),
});

/** A consignee address; the region codes come from the province, city and county lists. */
export const consignee = z.object({
  name: z
    .string({ error: "commerce.consigneeName" })
    .trim()
    .min(1, { error: "commerce.consigneeName" })
    .max(30, { error: "commerce.consigneeName" }),
  phone: mobileField,
  provinceCode: z.string({ error: "commerce.regionInvalid" }).regex(/^\d{6}$/, { error: "commerce.regionInvalid" }),
  cityCode: z.string({ error: "commerce.regionInvalid" }).regex(/^\d{6}$/, { error: "commerce.regionInvalid" }),
  countyCode: z.string({ error: "commerce.regionInvalid" }).regex(/^\d{6}$/, { error: "commerce.regionInvalid" }),
  address: z
    .string({ error: "commerce.addressEmpty" })
    .trim()
    .min(2, { error: "commerce.addressEmpty" })
    .max(120, { error: "commerce.tooLong" }),
});
export type Consignee = z.infer<typeof consignee>;

export const commerceOrderReq = z.object({
  items: z
    .array(
      z.object({
        skuId: idLike,
        quantity: z
          .number({ error: "commerce.quantityInvalid" })
          .int({ error: "commerce.quantityInvalid" })
          .min(1, { error: "commerce.quantityInvalid" })
          .max(COMMERCE_LIMITS.maxQuantity, { error: "commerce.quantityInvalid" }),
      }),
      { error: "commerce.itemsEmpty" },
    )
    .min(1, { error: "commerce.itemsEmpty" })
    .max(COMMERCE_LIMITS.maxOrderLines, { error: "commerce.itemsEmpty" }),
  consignee: consignee.optional(),
  remark: text(200).default(""),
  requestKey: requestKeyField,
});
export type CommerceOrderReq = z.input<typeof commerceOrderReq>;

export const orderItem = z.object({
  id: z.string(),
  skuId: z.string(),
  commodityId: z.string(),
  name: z.string(),
  specs: z.array(z.string()),
  unitPrice: money,
  quantity: z.number().int(),
  amount: money,
  refunded: money,
  returnedQty: z.number().int(),
});

export const trackingEvent = z.object({
  at: z.string(),
  state: z.number().int(),
  context: z.string(),
  area: z.string(),
});
export type TrackingEvent = z.infer<typeof trackingEvent>;
export const shipment = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  aftersaleId: z.string().nullable(),
  companyCode: z.string(),
  companyName: z.string(),
  waybillNo: z.string(),
  state: z.number().int().nullable(),
  courier: z.enum(["local", "kuaidi100", "manual"]),
  remark: z.string(),
  createdAt: z.string(),
  signedAt: z.string().nullable(),
  events: z.array(trackingEvent),
});
export type Shipment = z.infer<typeof shipment>;

export const commerceOrder = z.object({
  id: z.string(),
  orderNo: z.string(),
  kind: z.enum(COMMODITY_KINDS),
  state: z.enum(COMMERCE_ORDER_STATES),
  purchaserId: z.string(),
  purchaserName: z.string(),
  brandId: z.string(),
  brandName: z.string(),
  goodsAmount: money,
  freight: money,
  payAmount: money,
  refundedAmount: money,
  consignee: z
    .object({
      name: z.string(),
      phone: z.string(),
      provinceCode: z.string(),
      cityCode: z.string(),
      countyCode: z.string(),
      regionNames: z.string(),
      address: z.string(),
    })
    .nullable(),
  remark: z.string(),
  closeReason: z.string().nullable(),
  items: z.array(orderItem),
  shipment: shipment.nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** When a shipped or received order is confirmed automatically. */
  autoConfirmAt: z.string().nullable(),
});
export type CommerceOrder = z.infer<typeof commerceOrder>;
export const commerceOrderPage = pageOf(commerceOrder);

const dateFilter = calendarDate("validation.invalidParameter");
export const commerceOrderQuery = pageQuery.extend({
  state: z.enum(COMMERCE_ORDER_STATES).optional(),
  kind: z.enum(COMMODITY_KINDS).optional(),
  orderNo: text(40).optional(),
  from: dateFilter.optional(),
  to: dateFilter.optional(),
});
export type CommerceOrderQuery = z.input<typeof commerceOrderQuery>;
/** `commodity/order/pager` (brand). */
export const orderPagerReq = legacyPager.extend({
  state: z.enum(COMMERCE_ORDER_STATES).optional(),
  kind: z.enum(COMMODITY_KINDS).optional(),
  orderNo: text(40).optional(),
  from: dateFilter.optional(),
  to: dateFilter.optional(),
});
export type OrderPagerReq = z.input<typeof orderPagerReq>;
export const orderCancelReq = z.object({ reason: text(200).default("") });

/** `order/express/create`: ship an order through a courier adapter. */
export const expressCreateReq = z.object({
  orderId: idLike,
  companyCode: z
    .string({ error: "commerce.companyUnknown" })
    .trim()
    .min(1, { error: "commerce.companyUnknown" })
    .max(30, { error: "commerce.companyUnknown" }),
  /** Ship with a waybill the brand already has (a manual shipment) instead of asking the courier for one. */
  waybillNo: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,32}$/, { error: "commerce.waybillInvalid" })
    .optional(),
});
export const expressQueryReq = z.object({ orderId: idLike });
export const expressOrderPagerReq = legacyPager.extend({
  waybillNo: text(40).optional(),
  signed: z.boolean().optional(),
});
export const expressOrderUpdateReq = z.object({
  id: idLike,
  companyCode: z.string().trim().min(1).max(30).optional(),
  waybillNo: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,32}$/, { error: "commerce.waybillInvalid" })
    .optional(),
  remark: text(200).optional(),
});
export const shipmentPage = pageOf(shipment);
export const expressCompany = z.object({ code: z.string(), name: z.string() });
export const expressCompanyPage = pageOf(expressCompany);
export const expressCompanyPagerReq = legacyPager.extend({ name: text(30).optional() });

export const regionReq = z.object({
  code: z
    .string()
    .regex(/^\d{6}$/, { error: "commerce.regionInvalid" })
    .optional(),
});
export const cityListReq = z.object({
  provinceCode: z.string({ error: "commerce.regionInvalid" }).regex(/^\d{6}$/, { error: "commerce.regionInvalid" }),
});
export const countyListReq = z.object({
  cityCode: z.string({ error: "commerce.regionInvalid" }).regex(/^\d{6}$/, { error: "commerce.regionInvalid" }),
});
export const region = z.object({ code: z.string(), name: z.string() });
export const regionList = z.array(region);

export const aftersaleReq = z.object({
  orderItemId: idLike,
  way: z.enum(AFTERSALE_WAYS, { error: "validation.invalidParameter" }),
  quantity: z
    .number({ error: "commerce.quantityInvalid" })
    .int({ error: "commerce.quantityInvalid" })
    .min(1, { error: "commerce.quantityInvalid" })
    .max(COMMERCE_LIMITS.maxQuantity, { error: "commerce.quantityInvalid" }),
  amount: z
    .number({ error: "commerce.amountInvalid" })
    .int({ error: "commerce.amountInvalid" })
    .min(1, { error: "commerce.amountInvalid" })
    .max(COMMERCE_LIMITS.maxPrice, { error: "commerce.refundTooHigh" }),
  reason: z
    .string({ error: "commerce.reasonEmpty" })
    .trim()
    .min(1, { error: "commerce.reasonEmpty" })
    .max(200, { error: "commerce.tooLong" }),
  requestKey: requestKeyField,
});
export type AftersaleReq = z.input<typeof aftersaleReq>;
export const aftersaleShipReq = z.object({
  companyCode: z
    .string({ error: "commerce.companyUnknown" })
    .trim()
    .min(1, { error: "commerce.companyUnknown" })
    .max(30, { error: "commerce.companyUnknown" }),
  waybillNo: z
    .string({ error: "commerce.waybillInvalid" })
    .trim()
    .regex(/^[A-Za-z0-9]{6,32}$/, { error: "commerce.waybillInvalid" }),
});
export const aftersaleDisposeReq = z.object({
  id: idLike,
  action: z.enum(AFTERSALE_ACTIONS, { error: "validation.invalidParameter" }),
  reason: text(200).optional(),
  /** Agreeing to a return: where the buyer sends the goods (recipient, phone, address). */
  returnAddress: text(200).optional(),
});
export const aftersalePagerReq = legacyPager.extend({
  state: z.enum(AFTERSALE_STATES).optional(),
  orderNo: text(40).optional(),
});
export const aftersaleQuery = pageQuery.extend({ state: z.enum(AFTERSALE_STATES).optional() });
export const aftersale = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  orderItemId: z.string(),
  itemName: z.string(),
  specs: z.array(z.string()),
  purchaserName: z.string(),
  brandName: z.string(),
  way: z.enum(AFTERSALE_WAYS),
  state: z.enum(AFTERSALE_STATES),
  quantity: z.number().int(),
  amount: money,
  reason: z.string(),
  sellerReason: z.string().nullable(),
  returnCompany: z.string().nullable(),
  /** The courier's name (中通快递), not its code. */
  returnCompanyName: z.string().nullable(),
  returnWaybill: z.string().nullable(),
  /** Where the goods go back to: set when the brand agrees to a return. */
  returnAddress: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  refundedAt: z.string().nullable(),
});
export type Aftersale = z.infer<typeof aftersale>;
export const aftersalePage = pageOf(aftersale);

/** A tracking push in Kuaidi100's shape: `param` (JSON text) signed with MD5(param + salt), upper case. */
export const trackingPushReq = z.object({ param: z.string().max(200_000), sign: z.string().max(64) });
export const trackingPushReply = z.object({ result: z.boolean(), returnCode: z.string(), message: z.string() });
export * from "./takeout";
