import { z } from "zod";
import { money, mobileField, smsCodeField } from "./accounts";
import { TOP_UP_ACCOUNT_TYPES } from "./catalog";
import { calendarDate } from "./dates";
import { requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";

/**
 * Stored-value and gift cards (一卡通, spec 01 §2 one-card pages, §3 card voucher, §6 customer token,
 * §8 code 1007). A brand defines card products and issues cards in batches; purchasers buy them from
 * their SUP account, activate, extract, gift and return them; end customers keep them in a card bag,
 * check balances and pay for equities with them. Amounts are integers of minor units (fen).
 */

export const ONECARD_KINDS = ["face_value", "discount", "guide"] as const;
export type OnecardKind = (typeof ONECARD_KINDS)[number];
export const ONECARD_STATES = ["issued", "sold", "activated", "frozen", "expired", "returned", "void"] as const;
export type OnecardState = (typeof ONECARD_STATES)[number];
export const ONECARD_MOVE_KINDS = [
  "activate",
  "load",
  "hold",
  "capture",
  "release",
  "redeem",
  "refund",
  "adjust",
  "expire",
  "return",
] as const;
export type OnecardMoveKind = (typeof ONECARD_MOVE_KINDS)[number];
export const OC_GIFT_STATES = ["sent", "claimed", "expired"] as const;
export type OcGiftState = (typeof OC_GIFT_STATES)[number];

/**
 * The Chinese prepaid-card rules (MOFCOM / PBOC) as configuration: a named card holds at most 5,000
 * yuan, a bearer card 1,000 and is valid for at least 3 years; buying 10,000 yuan or more at once needs
 * a real-name verified buyer. In minor units.
 */
export const ONECARD_LIMITS = {
  namedCap: 500_000,
  bearerCap: 100_000,
  bearerMinValidDays: 3 * 365,
  realNamePurchase: 1_000_000,
  maxBatch: 100_000,
  /** Wrong passwords before a card locks, and for how long. */
  wrongPasswordsBeforeLock: 5,
  lockMinutes: 15,
  /** Unclaimed gifts go back to the sender after this many days. */
  giftDays: 7,
} as const;

const idString = z.string().regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const dateField = calendarDate("onecard.validityInvalid");
const yuanMinor = (error: "onecard.faceValueInvalid" | "onecard.salePriceInvalid") =>
  z.number({ error }).int({ error }).min(0, { error }).max(100_000_000, { error });

/** A card number: 16 digits, the last a Luhn check digit. */
export const ocCardNoField = z
  .string({ error: "onecard.cardNoInvalid" })
  .trim()
  .transform((s) => s.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{16}$/, { error: "onecard.cardNoInvalid" }));
export const ocPasswordField = z
  .string({ error: "onecard.passwordEmpty" })
  .trim()
  .min(1, { error: "onecard.passwordEmpty" })
  .max(32, { error: "onecard.cardUnknown" })
  .transform((s) => s.toUpperCase());
/** The rule of a card password the holder chooses (the web form checks it too). */
export const OC_NEW_PASSWORD_RE = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9]{8,32}$/;
/**
 * A password the holder chooses (reset by SMS): 8 to 32 letters and digits, at least one of each, so it
 * cannot be one of a million 6-digit guesses. In capitals, as issued passwords are and as
 * ocPasswordField reads what is typed: card passwords are not case-sensitive.
 */
export const ocNewPasswordField = z
  .string({ error: "onecard.passwordFormat" })
  .trim()
  .regex(OC_NEW_PASSWORD_RE, { error: "onecard.passwordFormat" })
  .transform((s) => s.toUpperCase());

/* ---------- brand: card products and batches ---------- */

export const ocProductReq = z
  .strictObject({
    kind: z.enum(ONECARD_KINDS),
    name: z
      .string({ error: "onecard.nameEmpty" })
      .trim()
      .min(1, { error: "onecard.nameEmpty" })
      .max(60, { error: "onecard.nameEmpty" }),
    faceValue: yuanMinor("onecard.faceValueInvalid"),
    salePrice: yuanMinor("onecard.salePriceInvalid"),
    named: z.boolean(),
    validity: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("fixed"), until: dateField }),
      z.object({ kind: z.literal("days"), days: z.number().int().min(1).max(36_500) }),
      z.object({ kind: z.literal("none") }),
    ]),
    rechargeAllowed: z.boolean(),
    scope: z.string().trim().max(200).default(""),
    terms: z.string().trim().max(4000).default(""),
  })
  .superRefine((v, ctx) => {
    if (v.kind !== "guide" && v.faceValue <= 0) {
      ctx.addIssue({ code: "custom", path: ["faceValue"], message: "onecard.faceValueInvalid" });
    }
    if (v.kind === "face_value" && v.salePrice !== v.faceValue) {
      ctx.addIssue({ code: "custom", path: ["salePrice"], message: "onecard.faceValuePrice" });
    }
    if (v.kind === "discount" && !(v.salePrice > 0 && v.salePrice < v.faceValue)) {
      ctx.addIssue({ code: "custom", path: ["salePrice"], message: "onecard.discountPriceHigh" });
    }
    if (v.kind === "guide" && v.salePrice > v.faceValue) {
      ctx.addIssue({ code: "custom", path: ["salePrice"], message: "onecard.discountPriceHigh" });
    }
    if (!v.named && v.validity.kind === "none") {
      ctx.addIssue({ code: "custom", path: ["validity"], message: "onecard.validityInvalid" });
    }
  });
export type OcProductReq = z.infer<typeof ocProductReq>;

export const ocProduct = z.object({
  id: z.string(),
  branderId: z.string(),
  branderName: z.string(),
  kind: z.enum(ONECARD_KINDS),
  name: z.string(),
  faceValue: money,
  salePrice: money,
  named: z.boolean(),
  validity: z.object({
    kind: z.enum(["fixed", "days", "none"]),
    until: z.string().nullable(),
    days: z.number().nullable(),
  }),
  rechargeAllowed: z.boolean(),
  scope: z.string(),
  terms: z.string(),
  onSale: z.boolean(),
  /** Cards issued and not yet sold. */
  stock: z.number().int(),
  issued: z.number().int(),
  createdAt: z.string(),
});
export type OcProduct = z.infer<typeof ocProduct>;
/** A gift link's landing, before the recipient logs in (issue 40, item 3): who sent what, with their message. */
export const ocGiftPreview = z.object({
  from: z.string(),
  count: z.number().int(),
  amount: money,
  message: z.string(),
  expiresAt: z.string(),
  state: z.enum(["open", "claimed", "expired"]),
});
export type OcGiftPreview = z.infer<typeof ocGiftPreview>;
export const ocGiftPreviewQuery = z.object({ token: z.string().min(3).max(80) });

export const ocProductQuery = pageQuery.extend({
  kind: z.enum(ONECARD_KINDS).optional(),
  keyword: z.string().trim().max(60).optional(),
  /** The brand's list only: on sale (true) or off sale (false). */
  onSale: z.enum(["true", "false"]).optional(),
});
export const ocProductPage = pageOf(ocProduct);

/**
 * `GET card-brander/cardProducts`: a brand's card products of one kind, the card products of this module
 * (one notion): `faceValue` cards sold at face value, `discount` cards sold below it. The provider's
 * brand-context pages FaceValueCardP and DiscountCardP read them with the brand token.
 */
export const CARD_PRODUCT_KINDS = ["faceValue", "discount"] as const;
export type CardProductKind = (typeof CARD_PRODUCT_KINDS)[number];
export const cardProductQuery = pageQuery.extend({
  kind: z.enum(CARD_PRODUCT_KINDS),
  keyword: z.string().trim().max(60).optional(),
  onSale: z.enum(["true", "false"]).optional(),
});
export type CardProductQuery = z.infer<typeof cardProductQuery>;

export const ocBatchReq = z.strictObject({
  productId: idString,
  // 0 is refused with its own message: a batch of nothing is never rounded up to one card.
  count: z
    .number({ error: "onecard.countInvalid" })
    .int({ error: "onecard.countInvalid" })
    .min(1, { error: "onecard.countZero" })
    .max(ONECARD_LIMITS.maxBatch, { error: "onecard.countInvalid" }),
  requestKey: requestKeyField,
});
export const ocBatch = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  count: z.number().int(),
  sold: z.number().int(),
  firstNo: z.string(),
  lastNo: z.string(),
  createdAt: z.string(),
});
export type OcBatch = z.infer<typeof ocBatch>;
export const ocBatchPage = pageOf(ocBatch);
export const ocBatchQuery = pageQuery.extend({ productId: idString.optional() });
/** A batch's cards as the brand sees them: numbers masked, passwords never. */
export const ocBatchCardQuery = pageQuery.extend({ state: z.enum(ONECARD_STATES).optional() });

/* ---------- purchaser: buy, list, activate, extract, return, gift ---------- */

export const ocPurchaseReq = z.strictObject({
  productId: idString,
  quantity: z
    .number({ error: "onecard.countInvalid" })
    .int({ error: "onecard.countInvalid" })
    .min(1, { error: "onecard.countInvalid" })
    .max(10_000, { error: "onecard.countInvalid" }),
  requestKey: requestKeyField,
});
export const ocSale = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  branderName: z.string(),
  quantity: z.number().int(),
  unitPrice: money,
  amount: money,
  faceValue: money,
  returned: z.number().int(),
  createdAt: z.string(),
});
export type OcSale = z.infer<typeof ocSale>;
export const ocSalePage = pageOf(ocSale);

export const ocCard = z.object({
  id: z.string(),
  /** Masked except for the card's holder. */
  cardNo: z.string(),
  productId: z.string(),
  productName: z.string(),
  kind: z.enum(ONECARD_KINDS),
  state: z.enum(ONECARD_STATES),
  faceValue: money,
  balance: money,
  held: money,
  saleId: z.string().nullable(),
  activatedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  extractedAt: z.string().nullable(),
  /** In a customer's card bag. */
  inBag: z.boolean(),
});
export type OcCard = z.infer<typeof ocCard>;
export const ocCardPage = pageOf(ocCard);
export const ocCardQuery = pageQuery.extend({
  state: z.enum(ONECARD_STATES).optional(),
  saleId: idString.optional(),
  productId: idString.optional(),
  cardNo: z
    .string()
    .trim()
    .regex(/^\d{4,16}$/)
    .optional(),
});

const ocActivateSelection = z.strictObject({
  /** One of: card ids, a number range of one batch, or every sold card of one purchase. */
  cardIds: z.array(idString).min(1).max(10_000).optional(),
  range: z.strictObject({ from: ocCardNoField, to: ocCardNoField }).optional(),
  saleId: idString.optional(),
});
const oneSelection = (v: { cardIds?: unknown; range?: unknown; saleId?: unknown }) =>
  [v.cardIds, v.range, v.saleId].filter((x) => x !== undefined).length === 1;
export const ocActivateReq = ocActivateSelection
  .extend({ requestKey: requestKeyField })
  .refine(oneSelection, { error: "onecard.selectCards" });
export type OcActivateReq = z.infer<typeof ocActivateReq>;
export const ocActivateReply = z.object({ id: z.string(), count: z.number().int(), amount: money });
/**
 * What an activation of this selection would do, asked before it is confirmed (issue 37): the cards, the
 * prices paid for them that leave the escrow for their brands, and the face value loaded onto them. The
 * same checks as the activation (the purchaser's own sold cards, all or nothing); nothing changes.
 */
export const ocActivatePreviewReq = ocActivateSelection.refine(oneSelection, { error: "onecard.selectCards" });
export const ocActivatePreview = z.object({ count: z.number().int(), amount: money, faceValue: money });
export type OcActivatePreview = z.infer<typeof ocActivatePreview>;

export const ocReturnReq = z.strictObject({
  cardIds: z.array(idString).min(1, { error: "onecard.selectCards" }).max(10_000),
  reason: z.string().trim().max(200).default(""),
  requestKey: requestKeyField,
});
export const ocReturn = z.object({
  id: z.string(),
  count: z.number().int(),
  amount: money,
  reason: z.string(),
  createdAt: z.string(),
});
export const ocReturnPage = pageOf(ocReturn);
/**
 * What returning these cards would do, asked before it is confirmed (issue 37): the cards and the prices
 * paid for them that come back from the escrow to the purchaser's SUP account. The same checks as the
 * return (the purchaser's own sold, unactivated cards, all or nothing); nothing changes.
 */
export const ocReturnPreviewReq = z.strictObject({
  cardIds: z.array(idString).min(1, { error: "onecard.selectCards" }).max(10_000),
});
export const ocReturnPreview = z.object({ count: z.number().int(), amount: money });
export type OcReturnPreview = z.infer<typeof ocReturnPreview>;

export const ocExtractReq = z.strictObject({
  cardIds: z.array(idString).min(1, { error: "onecard.selectCards" }).max(10_000),
});
export const ocExtraction = z.object({
  id: z.string(),
  count: z.number().int(),
  userEmail: z.string(),
  createdAt: z.string(),
});
export const ocExtractionPage = pageOf(ocExtraction);
/** TikaOrder: the extractions of the purchasers a service provider serves (who took delivery of which cards, never the secrets). */
export const ocServedExtractionQuery = pageQuery.extend({
  merchantId: idString.optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type OcServedExtractionQuery = z.infer<typeof ocServedExtractionQuery>;
export const ocServedExtraction = ocExtraction.extend({
  merchantId: z.string(),
  merchantName: z.string(),
  products: z.string(),
  faceValue: money,
});
export type OcServedExtraction = z.infer<typeof ocServedExtraction>;
export const ocServedExtractionPage = pageOf(ocServedExtraction);

/** A gift to a phone (an SMS tells them) or, without a phone, by a link the sender passes on. */
export const ocGiftReq = z.strictObject({
  cardIds: z.array(idString).min(1, { error: "onecard.selectCards" }).max(100),
  phone: mobileField.optional(),
  message: z.string().trim().max(100).default(""),
  requestKey: requestKeyField,
});
export const ocGift = z.object({
  id: z.string(),
  /** Null for a gift by link. */
  phone: z.string().nullable(),
  /** The claim link of a gift by link (the sender's lists only). */
  link: z.string().nullable(),
  packageName: z.string().nullable(),
  cardCount: z.number().int(),
  amount: money,
  message: z.string(),
  state: z.enum(OC_GIFT_STATES),
  expiresAt: z.string(),
  claimedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OcGift = z.infer<typeof ocGift>;
export const ocGiftPage = pageOf(ocGift);
export const ocGiftQuery = pageQuery.extend({ packageId: idString.optional() });

/** GiftPackage: a named set of card products and counts, sent as one gift per recipient. */
export const ocPackageReq = z.strictObject({
  name: z
    .string({ error: "onecard.packageNameEmpty" })
    .trim()
    .min(1, { error: "onecard.packageNameEmpty" })
    .max(40, { error: "onecard.packageNameEmpty" }),
  message: z.string().trim().max(100).default(""),
  items: z
    .array(
      z.strictObject({
        productId: idString,
        count: z.number().int().min(1, { error: "onecard.countInvalid" }).max(20, { error: "onecard.countInvalid" }),
      }),
    )
    .min(1, { error: "onecard.packageItemsEmpty" })
    .max(10, { error: "onecard.packageItemsEmpty" }),
});
export const ocPackage = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  items: z.array(
    z.object({ productId: z.string(), productName: z.string(), count: z.number().int(), faceValue: money }),
  ),
  /** Face value of one package. */
  value: money,
  /** How many packages the purchaser's activated cards not yet given can make now. */
  available: z.number().int(),
  sent: z.number().int(),
  claimed: z.number().int(),
  createdAt: z.string(),
});
export type OcPackage = z.infer<typeof ocPackage>;
export const ocPackagePage = pageOf(ocPackage);
/** Sends a package: one gift per phone, and `links` gifts by link. All or nothing. */
export const ocPackageSendReq = z
  .strictObject({
    phones: z.array(mobileField).max(200).default([]),
    links: z.number().int().min(0).max(200).default(0),
    requestKey: requestKeyField,
  })
  .refine((v) => v.phones.length + v.links > 0, { path: ["phones"], message: "onecard.recipientsEmpty" })
  .refine((v) => new Set(v.phones).size === v.phones.length, { path: ["phones"], message: "onecard.phonesRepeated" });
export const ocPackageSendReply = z.object({ gifts: z.array(ocGift) });
export type OcPackageSendReply = z.infer<typeof ocPackageSendReply>;
/** A customer claims a gift by its link's token. */
export const ocClaimLinkReq = z.strictObject({
  token: z.string().regex(/^\d{1,18}\.[A-Za-z0-9_-]{16,64}$/, { error: "onecard.giftNotFound" }),
});

export const ocReportQuery = z.object({
  dimension: z.enum(["day", "week", "month"]).default("day"),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export const ocReportRow = z.object({
  period: z.string(),
  soldCount: z.number().int(),
  soldAmount: money,
  activatedCount: z.number().int(),
  activatedValue: money,
  returnedCount: z.number().int(),
  returnedAmount: money,
  redeemed: money,
});
export const ocReport = z.object({ rows: z.array(ocReportRow), outstanding: money, heldCards: z.number().int() });
export type OcReport = z.infer<typeof ocReport>;

/** CardSalesOrder: each card purchase and what became of its cards (activated, gifted, returned, used, left). */
export const ocSalesOrderQuery = pageQuery.extend({
  from: calendarDate().optional(),
  to: calendarDate().optional(),
  productId: idString.optional(),
});
export type OcSalesOrderQuery = z.infer<typeof ocSalesOrderQuery>;
export const ocSalesOrder = z.object({
  id: z.string(),
  createdAt: z.string(),
  productName: z.string(),
  branderName: z.string(),
  quantity: z.number().int(),
  amount: money,
  faceValue: money,
  activated: z.number().int(),
  gifted: z.number().int(),
  inBags: z.number().int(),
  returned: z.number().int(),
  /** What customers spent of the activated cards (redemptions less refunds). */
  redeemed: money,
  /** Balance left on the activated cards. */
  outstanding: money,
});
export type OcSalesOrder = z.infer<typeof ocSalesOrder>;
export const ocSalesOrderPage = pageOf(ocSalesOrder);

/* ---------- public and end customer ---------- */

export const ocCheckReq = z.strictObject({ cardNo: ocCardNoField, password: ocPasswordField });
export const ocBalance = z.object({
  cardNo: z.string(),
  productName: z.string(),
  branderName: z.string(),
  state: z.enum(ONECARD_STATES),
  faceValue: money,
  balance: money,
  expiresAt: z.string().nullable(),
});
export type OcBalance = z.infer<typeof ocBalance>;

export const customerSmsReq = z.strictObject({ phone: mobileField });
export const customerLoginReq = z.strictObject({ phone: mobileField, smsCode: smsCodeField });
export const customerLoginReply = z.object({ token: z.string(), expires_in: z.number().int(), phone: z.string() });
export type CustomerLoginReply = z.infer<typeof customerLoginReply>;
export const customerInfo = z.object({ id: z.string(), phone: z.string() });

export const ocBagCard = ocCard.extend({
  productName: z.string(),
  branderName: z.string(),
  rechargeAllowed: z.boolean(),
  /** What the store scans: the card number (the holder's own card). */
  code: z.string(),
});
export type OcBagCard = z.infer<typeof ocBagCard>;
export const ocBagReply = z.object({
  cards: z.array(ocBagCard),
  gifts: z.array(ocGift.extend({ fromName: z.string() })),
});
export type OcBagReply = z.infer<typeof ocBagReply>;

export const ocMove = z.object({
  id: z.string(),
  cardNo: z.string(),
  kind: z.enum(ONECARD_MOVE_KINDS),
  amount: money,
  balanceAfter: money,
  note: z.string(),
  createdAt: z.string(),
});
export type OcMove = z.infer<typeof ocMove>;
export const ocMovePage = pageOf(ocMove);

export const ocBindReq = ocCheckReq;
export const ocResetPwdSmsReq = z.strictObject({ cardNo: ocCardNoField });
/**
 * A reset is proved by the code sent to the customer whose card bag holds the card (with their session),
 * or by the card's current password; a card number alone proves nothing (issue 38 item 7).
 */
export const ocResetPwdReq = z.strictObject({
  cardNo: ocCardNoField,
  smsCode: smsCodeField.optional(),
  currentPassword: ocPasswordField.optional(),
  password: ocNewPasswordField,
});

/**
 * An equity paid with a card: a direct top-up goods the card's brand may buy (from `GET /onecard/equities`),
 * the account it tops up, and the request key that makes a double tap pay once. The card pays the goods'
 * face value; the brand buys the goods through its own purchase order.
 */
export const ocRechargeReq = z.strictObject({
  cardId: idString,
  goodsId: z.string({ error: "onecard.equityUnknown" }).regex(/^\d{1,18}$/, { error: "onecard.equityUnknown" }),
  /** The account the equity is credited to (a phone number, a game id, a membership account). */
  account: z
    .string({ error: "onecard.accountEmpty" })
    .trim()
    .min(1, { error: "onecard.accountEmpty" })
    .max(64, { error: "onecard.accountEmpty" }),
  requestKey: requestKeyField,
});
/** A direct top-up goods a card can pay for: what the customer gets and what the card pays (its face value). */
export const ocEquity = z.object({
  goodsId: z.string(),
  name: z.string(),
  brandName: z.string(),
  price: money,
  /** What the account to top up must be (topUpAccountProblem): the form checks it as the recharge does. */
  topUpAccountType: z.enum(TOP_UP_ACCOUNT_TYPES),
});
export type OcEquity = z.infer<typeof ocEquity>;
export const ocEquityPage = pageOf(ocEquity);
export const ocEquityQuery = pageQuery.extend({ cardId: idString, keyword: z.string().trim().max(60).optional() });
export const OC_ORDER_STATES = ["processing", "success", "failed", "refunded"] as const;
export const ocOrder = z.object({
  id: z.string(),
  cardNo: z.string(),
  equity: z.string(),
  account: z.string(),
  amount: money,
  /** processing (the brand's purchase order is with the supplier), success, failed (the card was paid back). */
  state: z.enum(OC_ORDER_STATES),
  orderNo: z.string().nullable(),
  failReason: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type OcOrder = z.infer<typeof ocOrder>;
export const ocOrderPage = pageOf(ocOrder);

/* ---------- redemption: two-phase, by request key ---------- */

export const ocHoldReq = z.strictObject({
  cardNo: ocCardNoField,
  password: ocPasswordField,
  amount: z.number().int().positive().max(100_000_000),
  requestKey: requestKeyField,
});
export const ocHoldReply = z.object({
  id: z.string(),
  state: z.enum(["held", "captured", "released"]),
  amount: money,
  balance: money,
});
export const ocRedeemReq = ocHoldReq;
