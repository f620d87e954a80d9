import { z } from "zod";
import { money } from "./accounts";
import { calendarDate } from "./dates";
import { requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";

/**
 * Brand stores and write-off (核销, issue 27; spec 01 §2 BrandStore, BusinessDistrict, AssociatedStores,
 * VisitorStore, brandShopCode, brandMallCode, WriteOrder, WriteAccount, WriteFunDoc, WriteFund; §7
 * branderStores, qrCodes, mallCodes, product/shop/verify, accounts, hyAccounts). Amounts in minor units.
 */

export const STORE_STATES = ["open", "closed"] as const;
export type StoreState = (typeof STORE_STATES)[number];
export const STORE_LIMITS = {
  /** Stores in one batch call or import file. */
  maxBatch: 20_000,
  maxDelete: 200,
} as const;

const idString = z.string().regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const regionCode = z.string({ error: "stores.regionInvalid" }).regex(/^\d{6}$/, { error: "stores.regionInvalid" });
const text = (max: number, error: "stores.nameEmpty" | "stores.addressEmpty" | "stores.textTooLong") =>
  z.string({ error }).trim().max(max, { error: "stores.textTooLong" });

export const storeReq = z.strictObject({
  name: text(60, "stores.nameEmpty").pipe(z.string().min(1, { error: "stores.nameEmpty" })),
  provinceCode: regionCode,
  cityCode: regionCode,
  countyCode: regionCode,
  address: text(200, "stores.addressEmpty").pipe(z.string().min(1, { error: "stores.addressEmpty" })),
  lng: z
    .number({ error: "stores.locationInvalid" })
    .min(-180, { error: "stores.locationInvalid" })
    .max(180, { error: "stores.locationInvalid" })
    .nullable()
    .default(null),
  lat: z
    .number({ error: "stores.locationInvalid" })
    .min(-90, { error: "stores.locationInvalid" })
    .max(90, { error: "stores.locationInvalid" })
    .nullable()
    .default(null),
  openingHours: text(60, "stores.textTooLong").default(""),
  contactName: text(30, "stores.textTooLong").default(""),
  contactPhone: z
    .string({ error: "stores.phoneInvalid" })
    .trim()
    .regex(/^(|[0-9+][0-9 -]{4,19})$/, { error: "stores.phoneInvalid" })
    .default(""),
  state: z.enum(STORE_STATES, { error: "stores.stateInvalid" }).default("open"),
  districtId: idString.nullable().default(null),
});
export type StoreReq = z.infer<typeof storeReq>;

export const store = z.object({
  id: z.string(),
  branderId: z.string(),
  branderName: z.string(),
  name: z.string(),
  provinceCode: z.string(),
  cityCode: z.string(),
  countyCode: z.string(),
  /** Province, city and county names. */
  region: z.string(),
  address: z.string(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  openingHours: z.string(),
  contactName: z.string(),
  contactPhone: z.string(),
  state: z.enum(STORE_STATES),
  districtId: z.string().nullable(),
  districtName: z.string().nullable(),
  clerks: z.number().int(),
  createdAt: z.string(),
});
export type Store = z.infer<typeof store>;
export const storePage = pageOf(store);

export const storeQuery = pageQuery.extend({
  keyword: z.string().trim().max(60).optional(),
  state: z.enum(STORE_STATES).optional(),
  districtId: idString.optional(),
  provinceCode: regionCode.optional(),
  cityCode: regionCode.optional(),
  countyCode: regionCode.optional(),
});
export type StoreQuery = z.infer<typeof storeQuery>;
/** Lists of other tenants' stores: the brand is required. */
export const brandStoreQuery = storeQuery.extend({ branderId: idString.optional() });

export const storeIdsReq = z.strictObject({
  storeIds: z
    .array(idString)
    .min(1, { error: "stores.selectStores" })
    .max(STORE_LIMITS.maxDelete, { error: "stores.selectStores" }),
});
export const storeBatchReq = z.strictObject({
  stores: z
    .array(z.unknown())
    .min(1, { error: "stores.batchEmpty" })
    .max(STORE_LIMITS.maxBatch, { error: "stores.batchTooLarge" }),
});
export const storeReject = z.object({ row: z.number().int(), name: z.string(), reason: z.string() });
export type StoreReject = z.infer<typeof storeReject>;
export const storeBatchReply = z.object({
  importId: z.string().nullable(),
  imported: z.number().int(),
  rejected: z.number().int(),
  /** The first rejects (the whole list is the reject report). */
  rejects: z.array(storeReject),
});
export type StoreBatchReply = z.infer<typeof storeBatchReply>;
export const storeImportQuery = z.object({ fileName: z.string().trim().min(1).max(200) });

/* ---------- business districts ---------- */

export const districtReq = z.strictObject({
  name: z
    .string({ error: "stores.districtNameEmpty" })
    .trim()
    .min(1, { error: "stores.districtNameEmpty" })
    .max(40, { error: "stores.textTooLong" }),
  remark: z.string().trim().max(200, { error: "stores.textTooLong" }).default(""),
});
export const district = z.object({
  id: z.string(),
  name: z.string(),
  remark: z.string(),
  stores: z.number().int(),
  createdAt: z.string(),
});
export type District = z.infer<typeof district>;
export const districtPage = pageOf(district);
export const districtQuery = pageQuery.extend({ keyword: z.string().trim().max(40).optional() });

/* ---------- clerks ---------- */

export const clerkReq = z.strictObject({ passportId: idString });
export const clerk = z.object({
  passportId: z.string(),
  email: z.string(),
  name: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  createdAt: z.string(),
});
export type Clerk = z.infer<typeof clerk>;

/* ---------- QR codes ---------- */

export const QR_KINDS = ["shop", "mall"] as const;
export type QrKind = (typeof QR_KINDS)[number];
export const qrBindReq = z.strictObject({ storeId: idString });
export const mallCodeReq = z.strictObject({
  name: z
    .string({ error: "stores.codeNameEmpty" })
    .trim()
    .min(1, { error: "stores.codeNameEmpty" })
    .max(40, { error: "stores.textTooLong" }),
  storeId: idString.nullable().default(null),
});
export const qrCode = z.object({
  id: z.string(),
  kind: z.enum(QR_KINDS),
  name: z.string(),
  storeId: z.string().nullable(),
  storeName: z.string().nullable(),
  /** What the QR encodes: our URL with the code's token. */
  url: z.string(),
  createdAt: z.string(),
});
export type QrCode = z.infer<typeof qrCode>;
export const qrCodePage = pageOf(qrCode);
export const qrCodeQuery = pageQuery.extend({ kind: z.enum(QR_KINDS).optional(), storeId: idString.optional() });
/** What a scanned code opens (public). */
export const qrLanding = z.object({
  kind: z.enum(QR_KINDS),
  name: z.string(),
  branderId: z.string(),
  branderName: z.string(),
  store: z
    .object({
      name: z.string(),
      region: z.string(),
      address: z.string(),
      openingHours: z.string(),
      contactPhone: z.string(),
      state: z.enum(STORE_STATES),
    })
    .nullable(),
  /** A mall code: the app id of the brand's released mall storefront (`/mall/<appId>`), null when the brand has none released. */
  mallAppId: z.string().nullable(),
});
export type QrLanding = z.infer<typeof qrLanding>;

/* ---------- write-off (redemption) ---------- */

export const REDEMPTION_SOURCES = ["coupon", "onecard"] as const;
export type RedemptionSource = (typeof REDEMPTION_SOURCES)[number];

const codeField = z
  .string({ error: "writeoff.codeEmpty" })
  .trim()
  .transform((s) => s.replace(/\s+/g, ""))
  .pipe(z.string().min(1, { error: "writeoff.codeEmpty" }).max(64, { error: "writeoff.codeUnknown" }));
const secretField = z
  .string({ error: "writeoff.secretEmpty" })
  .trim()
  .min(1, { error: "writeoff.secretEmpty" })
  .max(64, { error: "writeoff.codeUnknown" });

/** What a clerk enters: a coupon code + secret, a card number + password, or a customer's dynamic code (no secret). */
export const WRITEOFF_KINDS = ["coupon", "onecard", "dynamic"] as const;
export type WriteOffKind = (typeof WRITEOFF_KINDS)[number];
const writeOffCheckFields = z.strictObject({
  kind: z.enum(WRITEOFF_KINDS),
  code: codeField,
  secret: secretField.optional(),
  /** The store (the brand's main account); a clerk always redeems at their own store. */
  storeId: idString.optional(),
});
const secretUnlessDynamic = (v: { kind: WriteOffKind; secret?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.kind !== "dynamic" && !v.secret) {
    ctx.addIssue({ code: "custom", message: "writeoff.secretEmpty", path: ["secret"] });
  }
};
export const writeOffCheckReq = writeOffCheckFields.superRefine(secretUnlessDynamic);
export const writeOffReq = writeOffCheckFields
  .extend({
    /** One-card (card or dynamic code): what to take off the card (minor units). A coupon is redeemed whole. */
    amount: z
      .number({ error: "writeoff.amountInvalid" })
      .int({ error: "writeoff.amountInvalid" })
      .min(1, { error: "writeoff.amountInvalid" })
      .max(100_000_000, { error: "writeoff.amountInvalid" })
      .optional(),
    requestKey: requestKeyField,
  })
  .superRefine(secretUnlessDynamic);
export type WriteOffReq = z.infer<typeof writeOffReq>;
export const writeOffPreview = z.object({
  kind: z.enum(REDEMPTION_SOURCES),
  itemName: z.string(),
  codeMask: z.string(),
  /** A coupon's face value, or a card's balance. */
  value: money,
  expiresOn: z.string().nullable(),
  storeId: z.string(),
  storeName: z.string(),
});
export type WriteOffPreview = z.infer<typeof writeOffPreview>;

export const redemption = z.object({
  id: z.string(),
  kind: z.enum(REDEMPTION_SOURCES),
  branderId: z.string(),
  branderName: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  clerkName: z.string(),
  itemName: z.string(),
  codeMask: z.string(),
  value: money,
  settleAmount: money,
  orderRef: z.string().nullable(),
  day: z.string(),
  settled: z.boolean(),
  docId: z.string().nullable(),
  createdAt: z.string(),
});
export type Redemption = z.infer<typeof redemption>;
export const redemptionPage = pageOf(redemption);
export const redemptionQuery = pageQuery.extend({
  storeId: idString.optional(),
  kind: z.enum(REDEMPTION_SOURCES).optional(),
  from: calendarDate("validation.invalidParameter").optional(),
  to: calendarDate("validation.invalidParameter").optional(),
  settled: z.enum(["true", "false"]).optional(),
  branderId: idString.optional(),
});
export type RedemptionQuery = z.infer<typeof redemptionQuery>;

/** The brand's redemption account (WriteAccount): per store, redeemed and settled. */
export const writeAccountRow = z.object({
  storeId: z.string(),
  storeName: z.string(),
  count: z.number().int(),
  value: money,
  settled: money,
  unsettled: money,
});
export type WriteAccountRow = z.infer<typeof writeAccountRow>;
export const writeAccountReply = z.object({
  rows: z.array(writeAccountRow),
  total: z.object({ count: z.number().int(), value: money, settled: money, unsettled: money }),
  /** Store vouchers sold and not yet redeemed: their money waits in the platform's escrow until redeemed and settled. */
  awaitingRedemption: money,
});
export type WriteAccountReply = z.infer<typeof writeAccountReply>;

/** A settlement document (WriteFunDoc): one per store and day. */
export const settlementDoc = z.object({
  id: z.string(),
  branderId: z.string(),
  branderName: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  day: z.string(),
  count: z.number().int(),
  value: money,
  amount: money,
  /** Paid into the brand's income by this document: its store vouchers' money, held in escrow since the sale. */
  paid: money,
  state: z.literal("settled"),
  createdAt: z.string(),
});
export type SettlementDoc = z.infer<typeof settlementDoc>;
export const settlementDocPage = pageOf(settlementDoc);
export const settlementDocQuery = pageQuery.extend({
  storeId: idString.optional(),
  from: calendarDate("validation.invalidParameter").optional(),
  to: calendarDate("validation.invalidParameter").optional(),
  branderId: idString.optional(),
});
export type SettlementDocQuery = z.infer<typeof settlementDocQuery>;
export const settleRunReq = z.strictObject({ day: calendarDate("validation.invalidParameter").optional() });
export const settleRunReply = z.object({ day: z.string(), documents: z.number().int(), amount: z.number().int() });
export type SettleRunReply = z.infer<typeof settleRunReply>;
/** What a settlement run up to a day would settle now (the operator's confirmation), by currency. */
export const settlePreviewQuery = z.object({ day: calendarDate("validation.invalidParameter").optional() });
export const settlePreview = z.object({
  day: z.string(),
  totals: z.array(z.object({ stores: z.number().int(), redemptions: z.number().int(), amount: money })),
});
export type SettlePreview = z.infer<typeof settlePreview>;

export const shopVerifyQuery = z.object({ storeId: idString, goodsId: idString });
export const shopVerifyReply = z.object({ redeemable: z.boolean(), reason: z.string().nullable() });

/** Where a goods' codes are redeemable: all the brand's stores, or the stores listed. */
export const goodsStoresReq = z.strictObject({
  all: z.boolean(),
  storeIds: z.array(idString).max(10_000).default([]),
});
export type GoodsStoresReq = z.infer<typeof goodsStoresReq>;
export const goodsStoresReply = z.object({
  goodsId: z.string(),
  all: z.boolean(),
  stores: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type GoodsStoresReply = z.infer<typeof goodsStoresReply>;

/** A customer's dynamic code for a card (the card bag), valid `ttlSeconds`, redeemable once. */
export const dynamicCodeReply = z.object({ code: z.string(), expiresAt: z.string(), ttlSeconds: z.number().int() });
export type DynamicCodeReply = z.infer<typeof dynamicCodeReply>;
