import { z } from "zod";
import { BUSINESS_TYPES, CURRENCIES, INVOICE_TYPES, type BusinessType } from "./enums";
import { calendarDate } from "./dates";
import { pageQuery } from "./paging";

/**
 * Catalog and supply calls (spec 01 §2 screens 10 and 13, §3 Goods and Supplied goods, §4, §7): brands of
 * a brand owner, goods (products), supplied goods states, card-secret imports and goods selection.
 * Money is an integer of minor units in the supplier's currency.
 */

/** Kinds of right a goods grants; a filter of the goods selection (spec 01 §2 screen 10). */
export const EQUITY_TYPES = [
  "video",
  "music",
  "reading",
  "food",
  "travel",
  "telecom",
  "game",
  "shopping",
  "life",
  "other",
] as const;
export type EquityType = (typeof EQUITY_TYPES)[number];

/** Where a goods may be sold. */
export const SALES_SCOPES = ["all", "domestic", "international"] as const;
export type SalesScope = (typeof SALES_SCOPES)[number];

/** Which purchaser account pays for the goods (spec 01 §3 "deduction account"). */
export const DEDUCTION_ACCOUNTS = ["sup", "reserve"] as const;
export type DeductionAccount = (typeof DEDUCTION_ACCOUNTS)[number];

/** What the buyer names for a direct top-up; "none" for goods delivered as codes. */
export const TOP_UP_ACCOUNT_TYPES = ["none", "mobile", "qq", "email", "game_id", "member_id", "other"] as const;
export type TopUpAccountType = (typeof TOP_UP_ACCOUNT_TYPES)[number];

/** How the buyer checks that a top-up arrived. */
export const ARRIVAL_QUERY_METHODS = ["none", "order_status", "callback", "supplier_page"] as const;
export type ArrivalQueryMethod = (typeof ARRIVAL_QUERY_METHODS)[number];

/** Supplied goods states (spec 01 §4). Void is final. */
export const GOODS_STATES = ["available", "disabled", "void"] as const;
export type GoodsState = (typeof GOODS_STATES)[number];

/** The three goods-selection lists of spec 01 §2 screen 10 and the business types each shows. */
export const SELECTION_TYPES = ["direct", "card", "coupon"] as const;
export type SelectionType = (typeof SELECTION_TYPES)[number];
export const SELECTION_BUSINESS_TYPES: Record<SelectionType, readonly BusinessType[]> = {
  direct: ["top_up", "fuel", "fee"],
  card: ["card_secret", "self_run_card_secret", "card_voucher"],
  coupon: ["coupon", "in_store", "takeaway", "combo"],
};

/** Business types whose stock is imported card secrets. */
export const CARD_BUSINESS_TYPES: readonly BusinessType[] = ["card_secret", "self_run_card_secret", "card_voucher"];
export function isCardBusinessType(t: BusinessType): boolean {
  return CARD_BUSINESS_TYPES.includes(t);
}

/**
 * Business types whose codes are vouchers used at the brand's stores: the purchaser's money waits in the
 * platform's escrow until a code is redeemed, and the store's settlement document pays the brand (T+1).
 */
export const REDEEMED_AT_STORE_TYPES: readonly BusinessType[] = ["card_voucher"];
export function paidOnRedemption(t: BusinessType): boolean {
  return REDEEMED_AT_STORE_TYPES.includes(t);
}

export const CARD_STATES = ["available", "sold", "void", "expired"] as const;
export type CardState = (typeof CARD_STATES)[number];

export const REJECT_REASONS = [
  "numberMissing",
  "numberMalformed",
  "secretMissing",
  "secretMalformed",
  "expiryMalformed",
  "expiryPast",
  "duplicateInFile",
  "duplicateStored",
  "exampleRow",
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/**
 * The example code of the import template's instructions sheet: shown to explain the columns, never
 * sellable (an import that carries it refuses that row).
 */
export const TEMPLATE_EXAMPLE_CARD = { number: "EXAMPLE-0000-0000", secret: "EXAMPLE-SECRET-0000" } as const;

/** Card number: letters, digits and dashes; secret: visible ASCII without spaces. */
export const CARD_NUMBER_RE = /^[A-Za-z0-9-]{1,64}$/;
export const CARD_SECRET_RE = /^[\x21-\x7e]{1,128}$/;
export const GOODS_CODE_RE = /^[A-Za-z0-9_-]{1,32}$/;
/** Columns of the import template, in order. */
export const CARD_TEMPLATE_COLUMNS = ["cardNumber", "cardSecret", "expiryDate"] as const;

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const idParam = z.object({ id });
export const midParam = z.object({ mid: id });

const text = (max: number) => z.string().trim().max(max, { error: "catalog.textTooLong" });
const money = (key: "catalog.faceValueInvalid" | "catalog.priceInvalid") =>
  z.number({ error: key }).int({ error: key }).positive({ error: key }).max(1_000_000_000_00, { error: key });
const index = z
  .number({ error: "catalog.indexInvalid" })
  .int({ error: "catalog.indexInvalid" })
  .min(0, { error: "catalog.indexInvalid" })
  .max(100, { error: "catalog.indexInvalid" });

/* ---------- brands ---------- */

export const brandReq = z.strictObject({
  /** Absent: a new brand; present: the brand to update. */
  id: id.optional(),
  name: z
    .string({ error: "catalog.brandNameEmpty" })
    .trim()
    .min(1, { error: "catalog.brandNameEmpty" })
    .max(50, { error: "catalog.brandNameLength" }),
  description: text(1000).default(""),
  /** Storage key of an uploaded image (from `product/images`), or null for none. */
  logo: z.string().max(200).nullable().default(null),
});
export type BrandReq = z.infer<typeof brandReq>;

export const brand = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  logo: z.string().nullable(),
  logoUrl: z.string().nullable(),
  goodsCount: z.number().int(),
  createdAt: z.string(),
});
export type Brand = z.infer<typeof brand>;

export const branderReply = z.object({
  merchantId: z.string(),
  name: z.string(),
  currency: z.enum(CURRENCIES),
  brands: z.array(brand),
});
export type BranderReply = z.infer<typeof branderReply>;

/* ---------- goods ---------- */

const goodsFields = z.strictObject({
  name: z
    .string({ error: "catalog.goodsNameEmpty" })
    .trim()
    .min(1, { error: "catalog.goodsNameEmpty" })
    .max(100, { error: "catalog.goodsNameLength" }),
  brandId: z
    .number({ error: "catalog.brandMissing" })
    .int({ error: "catalog.brandMissing" })
    .positive({ error: "catalog.brandMissing" }),
  businessType: z.enum(BUSINESS_TYPES),
  equityType: z.enum(EQUITY_TYPES),
  faceValue: money("catalog.faceValueInvalid"),
  /** The supplier's own goods code (SKU), unique per supplier. */
  code: z
    .string({ error: "catalog.goodsCodeInvalid" })
    .trim()
    .regex(GOODS_CODE_RE, { error: "catalog.goodsCodeInvalid" }),
  perOrderMax: z
    .number({ error: "catalog.perOrderInvalid" })
    .int({ error: "catalog.perOrderInvalid" })
    .min(1, { error: "catalog.perOrderInvalid" })
    .max(10000, { error: "catalog.perOrderInvalid" }),
  deductionAccount: z.enum(DEDUCTION_ACCOUNTS).default("sup"),
  invoiceType: z.enum(INVOICE_TYPES),
  salesScope: z.enum(SALES_SCOPES).default("all"),
  /** The purchase price purchasers pay. */
  price: money("catalog.priceInvalid"),
  /** What the supplier is settled per unit (settlement base price); at most the price. */
  settlementPrice: z
    .number({ error: "catalog.settlementPriceInvalid" })
    .int({ error: "catalog.settlementPriceInvalid" })
    .min(0, { error: "catalog.settlementPriceInvalid" }),
  weight: z
    .number({ error: "catalog.weightInvalid" })
    .int({ error: "catalog.weightInvalid" })
    .min(0, { error: "catalog.weightInvalid" })
    .max(9999, { error: "catalog.weightInvalid" })
    .default(0),
  description: text(5000).default(""),
  images: z.array(z.string().max(200)).max(9, { error: "catalog.imagesTooMany" }).default([]),
  topUpRestrictions: text(500).default(""),
  arrivalQueryMethod: z.enum(ARRIVAL_QUERY_METHODS).default("none"),
  topUpAccountType: z.enum(TOP_UP_ACCOUNT_TYPES).default("none"),
  recommendationIndex: index.default(0),
  salesIndex: index.default(0),
  smartPurchase: z.boolean().default(false),
  /** Below this many codes in stock the supplier is notified; 0 turns the notice off. */
  lowStockThreshold: z.number().int().min(0).max(1_000_000).default(0),
});
function settlementWithinPrice(v: { price: number; settlementPrice: number }, ctx: z.RefinementCtx): void {
  if (v.settlementPrice > v.price) {
    ctx.addIssue({ code: "custom", path: ["settlementPrice"], message: "catalog.settlementPriceInvalid" });
  }
}
export const goodsReq = goodsFields.superRefine(settlementWithinPrice);
export type GoodsReq = z.infer<typeof goodsReq>;
/** `POST product/update`: the whole goods again, with its id. */
export const goodsUpdateReq = goodsFields
  .extend({ id: z.number().int().positive() })
  .superRefine(settlementWithinPrice);
export type GoodsUpdateReq = z.infer<typeof goodsUpdateReq>;

export const goods = z.object({
  id: z.number().int(),
  name: z.string(),
  brandId: z.number().int(),
  brandName: z.string(),
  businessType: z.enum(BUSINESS_TYPES),
  equityType: z.enum(EQUITY_TYPES),
  currency: z.enum(CURRENCIES),
  faceValue: z.number().int(),
  supplierId: z.string(),
  supplierName: z.string(),
  code: z.string(),
  perOrderMax: z.number().int(),
  deductionAccount: z.enum(DEDUCTION_ACCOUNTS),
  invoiceType: z.enum(INVOICE_TYPES),
  salesScope: z.enum(SALES_SCOPES),
  price: z.number().int(),
  settlementPrice: z.number().int(),
  /** price / face value in basis points (9500 = 95%). */
  discountBp: z.number().int(),
  /** Platform rate on supplier goods, basis points (spec 01 §9: 0%). */
  platformRateBp: z.number().int(),
  weight: z.number().int(),
  description: z.string(),
  images: z.array(z.object({ key: z.string(), url: z.string(), thumbUrl: z.string() })),
  topUpRestrictions: z.string(),
  arrivalQueryMethod: z.enum(ARRIVAL_QUERY_METHODS),
  topUpAccountType: z.enum(TOP_UP_ACCOUNT_TYPES),
  recommendationIndex: z.number().int(),
  salesIndex: z.number().int(),
  smartPurchase: z.boolean(),
  lowStockThreshold: z.number().int(),
  state: z.enum(GOODS_STATES),
  stock: z.number().int(),
  sold: z.number().int(),
  /** Codes the supplier voided. */
  voided: z.number().int(),
  /** Codes whose expiry day passed unsold: no longer in stock. */
  expired: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Goods = z.infer<typeof goods>;

/** `GET product/search`: the supplier's own goods. */
export const productSearchQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  brandId: id.optional(),
  businessType: z.enum(BUSINESS_TYPES).optional(),
  equityType: z.enum(EQUITY_TYPES).optional(),
  invoiceType: z.enum(INVOICE_TYPES).optional(),
  state: z.enum(GOODS_STATES).optional(),
});
export type ProductSearchQuery = z.infer<typeof productSearchQuery>;

export const goodsStateReq = z.strictObject({ state: z.enum(GOODS_STATES) });

/** `POST product/images`: a stored image and its thumbnail. */
export const imageReply = z.object({
  key: z.string(),
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ImageReply = z.infer<typeof imageReply>;

/** `GET cardTypes`: the vocabularies a goods form and filters choose from. */
export const cardTypesReply = z.object({
  businessTypes: z.array(
    z.object({ value: z.enum(BUSINESS_TYPES), selection: z.enum(SELECTION_TYPES).nullable(), cardStock: z.boolean() }),
  ),
  equityTypes: z.array(z.enum(EQUITY_TYPES)),
  invoiceTypes: z.array(z.enum(INVOICE_TYPES)),
});

/* ---------- in-supply merchandise (combo children and cost) ---------- */

export const childReq = z.strictObject({
  inSupplyMerchandiseId: z.number().int().positive(),
  childId: z.number().int().positive(),
  quantity: z.number().int().min(1).max(100).default(1),
});
export type ChildReq = z.infer<typeof childReq>;

export const insupplyUpdateReq = z.strictObject({
  price: money("catalog.priceInvalid").optional(),
  settlementPrice: z
    .number({ error: "catalog.settlementPriceInvalid" })
    .int()
    .min(0, { error: "catalog.settlementPriceInvalid" })
    .optional(),
  perOrderMax: z
    .number({ error: "catalog.perOrderInvalid" })
    .int()
    .min(1, { error: "catalog.perOrderInvalid" })
    .max(10000, { error: "catalog.perOrderInvalid" })
    .optional(),
  weight: z
    .number({ error: "catalog.weightInvalid" })
    .int()
    .min(0, { error: "catalog.weightInvalid" })
    .max(9999, { error: "catalog.weightInvalid" })
    .optional(),
  state: z.enum(GOODS_STATES).optional(),
  lowStockThreshold: z.number().int().min(0).max(1_000_000).optional(),
});
export type InsupplyUpdateReq = z.infer<typeof insupplyUpdateReq>;

export const costReply = z.object({
  id: z.number().int(),
  currency: z.enum(CURRENCIES),
  price: z.number().int(),
  settlementPrice: z.number().int(),
  platformRateBp: z.number().int(),
  platformFee: z.number().int(),
  children: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      quantity: z.number().int(),
      settlementPrice: z.number().int(),
      cost: z.number().int(),
    }),
  ),
  childrenCost: z.number().int(),
  margin: z.number().int(),
});
export type CostReply = z.infer<typeof costReply>;

/* ---------- goods selection (purchasers) ---------- */

export const merchandiseQuery = pageQuery.extend({
  type: z.enum(SELECTION_TYPES).default("direct"),
  keyword: z.string().trim().max(100).optional(),
  brandId: id.optional(),
  equityType: z.enum(EQUITY_TYPES).optional(),
  faceValue: z.coerce.number().int().positive().optional(),
  invoiceType: z.enum(INVOICE_TYPES).optional(),
  sort: z.enum(["recommend", "sales"]).default("recommend"),
});
export type MerchandiseQuery = z.infer<typeof merchandiseQuery>;

/** What a purchaser sees of a goods: no settlement price, no supplier-internal fields. */
/**
 * A goods as offered to one purchaser: `price` is what its order charges (its own price when a purchase
 * application was approved, `ownPrice`), `listPrice` the supplier's standard price.
 */
export const merchandise = goods
  .omit({
    settlementPrice: true,
    lowStockThreshold: true,
    weight: true,
    sold: true,
    voided: true,
    expired: true,
    state: true,
  })
  .extend({ listPrice: goods.shape.price, ownPrice: z.boolean() });
export type Merchandise = z.infer<typeof merchandise>;

export const merchandiseFilters = z.object({
  brands: z.array(z.object({ id: z.number().int(), name: z.string() })),
  faceValues: z.array(z.number().int()),
});

/* ---------- card secrets ---------- */

export const card = z.object({
  id: z.number().int(),
  goodsId: z.number().int(),
  batchId: z.number().int(),
  /** Masked: first and last four characters at most. */
  cardNumber: z.string(),
  /** Always masked in lists. */
  cardSecret: z.string(),
  expiryDate: z.string().nullable(),
  state: z.enum(CARD_STATES),
  orderId: z.string().nullable(),
  createdAt: z.string(),
  soldAt: z.string().nullable(),
});
export type Card = z.infer<typeof card>;

export const cardQuery = pageQuery.extend({
  state: z.enum(CARD_STATES).optional(),
  batchId: id.optional(),
  /** Exact card number (matched through its keyed hash, never by scanning plaintext). */
  cardNumber: z.string().trim().max(64).optional(),
});
export type CardQuery = z.infer<typeof cardQuery>;

export const voidCardsReq = z.strictObject({ ids: z.array(z.number().int().positive()).min(1).max(1000) });

export const importQuery = z.object({ fileName: z.string().trim().min(1).max(200) });

export const cardBatch = z.object({
  id: z.number().int(),
  goodsId: z.number().int(),
  goodsName: z.string(),
  fileName: z.string(),
  status: z.enum(["importing", "done", "failed"]),
  totalRows: z.number().int(),
  imported: z.number().int(),
  rejected: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why the server closed a batch as failed (an import whose server stopped mid-way) and how to resume. */
  failReason: z.string().nullable().optional(),
});
export type CardBatch = z.infer<typeof cardBatch>;

export const batchQuery = pageQuery.extend({
  goodsId: id.optional(),
  status: z.enum(["importing", "done", "failed"]).optional(),
});

export const importReportRow = z.object({
  day: z.string(),
  goodsId: z.number().int(),
  goodsName: z.string(),
  batches: z.number().int(),
  imported: z.number().int(),
  rejected: z.number().int(),
});
export const reportQuery = pageQuery.extend({
  from: z.string().date().optional(),
  to: z.string().date().optional(),
  goodsId: id.optional(),
});

export const revealedCard = z.object({
  id: z.number().int(),
  goodsId: z.number().int(),
  cardNumber: z.string(),
  cardSecret: z.string(),
  expiryDate: z.string().nullable(),
  orderId: z.string().nullable(),
});
export type RevealedCard = z.infer<typeof revealedCard>;

/** `GET resale/merchandises`: goods the purchaser bought codes of, to resell. */
/** `GET resale/merchandises`: goods this purchaser bought codes of, by goods name/id and purchase day (platform days). */
export const resaleQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type ResaleQuery = z.infer<typeof resaleQuery>;

/** `GET card-servicer/insupply/merchandises`: the supplied goods of one merchant the provider serves. */
export const servedGoodsQuery = productSearchQuery.extend({ merchantId: z.coerce.number().int().positive() });
export type ServedGoodsQuery = z.infer<typeof servedGoodsQuery>;

export const resaleMerchandise = z.object({ goods: merchandise, bought: z.number().int(), lastBoughtAt: z.string() });
export type ResaleMerchandise = z.infer<typeof resaleMerchandise>;
