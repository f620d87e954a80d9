import { z } from "zod";
import { money, mobileField } from "./accounts";
import { TOP_UP_ACCOUNT_TYPES } from "./catalog";
import { requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";

/**
 * The customer mall (issue 30 part B) and the merchant's mall back-office (spec 01 §2 `/sale` SelfSupport,
 * EquityGiftBag, EquityOrder, SmsSendRecord, MallMember, BrandShow; `/business` ShopMember, PrivateCodeMall;
 * §3 mini-program mall fields). A mall belongs to the merchant of its mini-program config; customers are the
 * one-card module's customers (customer token). Mall calls carry `v` 1, the app id and the seller id (§7).
 * Amounts are integers of minor units.
 */

export {
  MALL_APP_ID_HEADER,
  MALL_PRIVATE_CODE_HEADER,
  MALL_PROTOCOL_VERSION,
  MALL_SELLER_ID_HEADER,
  MALL_THEME_COLOURS,
  MALL_VERSION_HEADER,
} from "./mall-storefront";

export const MALL_ORDER_STATES = ["paid", "delivering", "delivered", "failed", "refunded"] as const;
export type MallOrderState = (typeof MALL_ORDER_STATES)[number];
export const MALL_PAY_METHODS = ["wallet", "card"] as const;
export type MallPayMethod = (typeof MALL_PAY_METHODS)[number];
export const MALL_DELIVERY_STATES = ["processing", "success", "failed"] as const;

/** SMS packages a merchant may buy from its fund account (SUP), each valid a year from purchase. */
export const MALL_SMS_PACKAGES = [
  { code: "sms1000", count: 1000, price: 5_000, days: 365 },
  { code: "sms5000", count: 5000, price: 22_500, days: 365 },
  { code: "sms10000", count: 10000, price: 40_000, days: 365 },
] as const;
export type MallSmsPackageCode = (typeof MALL_SMS_PACKAGES)[number]["code"];
const SMS_CODES = MALL_SMS_PACKAGES.map((p) => p.code) as [MallSmsPackageCode, ...MallSmsPackageCode[]];

const idString = z
  .string({ error: "validation.invalidParameter" })
  .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const price = z
  .number({ error: "mall.priceInvalid" })
  .int({ error: "mall.priceInvalid" })
  .min(1, { error: "mall.priceInvalid" })
  .max(100_000_000, { error: "mall.priceInvalid" });
const name = z
  .string({ error: "mall.nameEmpty" })
  .trim()
  .min(1, { error: "mall.nameEmpty" })
  .max(60, { error: "mall.nameTooLong" });
const text = (max: number) => z.string().trim().max(max, { error: "mall.textTooLong" });

/* ---------- SelfSupport ---------- */
/** A price above this many times the goods' face value (or cost) must be confirmed by the merchant. */
export const MALL_HIGH_PRICE_FACTOR = 2;
export const selfGoodsReq = z.strictObject({
  goodsId: idString,
  price,
  name: name.optional(),
  onSale: z.boolean().default(true),
  sort: z.number().int().min(0).max(9999).default(0),
  /** The merchant confirmed a price far above the goods' face value (refused without it, then logged). */
  confirmHighPrice: z.boolean().default(false),
});
export type SelfGoodsReq = z.infer<typeof selfGoodsReq>;
export const selfGoodsUpdateReq = z.strictObject({
  price: price.optional(),
  name: name.optional(),
  onSale: z.boolean().optional(),
  sort: z.number().int().min(0).max(9999).optional(),
  confirmHighPrice: z.boolean().default(false),
});
export const selfGoods = z.object({
  id: z.string(),
  goodsId: z.string(),
  name: z.string(),
  brandName: z.string(),
  businessType: z.string(),
  /** Codes from stock (card secrets) or a direct top-up to an account the customer names. */
  delivery: z.enum(["code", "topup"]),
  faceValue: money,
  price: money,
  /** What the merchant pays its supplier per unit (its purchase price). */
  cost: money,
  /** Codes the merchant bought and has not sold in the mall yet (card-secret goods). */
  ownStock: z.number().int(),
  onSale: z.boolean(),
  sort: z.number().int(),
  createdAt: z.string(),
});
export type SelfGoods = z.infer<typeof selfGoods>;
export const selfGoodsPage = pageOf(selfGoods);
export const selfGoodsQuery = pageQuery.extend({
  keyword: z.string().trim().max(60).optional(),
  onSale: z.enum(["true", "false"]).optional(),
});
/** Goods the merchant may put in its mall: what it may buy from its suppliers. */
export const selfCandidate = z.object({
  goodsId: z.string(),
  name: z.string(),
  brandName: z.string(),
  businessType: z.string(),
  faceValue: money,
  cost: money,
  inMall: z.boolean(),
});
export const selfCandidatePage = pageOf(selfCandidate);
export const selfCandidateQuery = pageQuery.extend({ keyword: z.string().trim().max(60).optional() });

/* ---------- EquityGiftBag ---------- */
export const giftBagItemReq = z.strictObject({
  selfGoodsId: idString,
  quantity: z
    .number({ error: "mall.quantityInvalid" })
    .int({ error: "mall.quantityInvalid" })
    .min(1, { error: "mall.quantityInvalid" })
    .max(20, { error: "mall.quantityInvalid" }),
});
export const giftBagReq = z.strictObject({
  name,
  description: text(500).default(""),
  price,
  stock: z
    .number({ error: "mall.stockInvalid" })
    .int({ error: "mall.stockInvalid" })
    .min(0, { error: "mall.stockInvalid" })
    .max(1_000_000, { error: "mall.stockInvalid" }),
  validDays: z
    .number({ error: "mall.validDaysInvalid" })
    .int({ error: "mall.validDaysInvalid" })
    .min(1, { error: "mall.validDaysInvalid" })
    .max(3650, { error: "mall.validDaysInvalid" }),
  items: z
    .array(giftBagItemReq, { error: "mall.bagItemsEmpty" })
    .min(1, { error: "mall.bagItemsEmpty" })
    .max(10, { error: "mall.bagItemsEmpty" }),
  onSale: z.boolean().default(true),
});
export type GiftBagReq = z.infer<typeof giftBagReq>;
export const giftBag = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: money,
  /** The items' selling prices added up: what the pack saves. */
  worth: money,
  stock: z.number().int(),
  sold: z.number().int(),
  validDays: z.number().int(),
  onSale: z.boolean(),
  items: z.array(
    z.object({
      selfGoodsId: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      delivery: z.enum(["code", "topup"]),
    }),
  ),
  createdAt: z.string(),
});
export type GiftBag = z.infer<typeof giftBag>;
export const giftBagPage = pageOf(giftBag);

/* ---------- mall settings: private code, brand show ---------- */
export const mallSettingsReq = z.strictObject({
  /** PrivateCodeMall: when set, the mall opens only with this code. */
  privateCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,16}$/, { error: "mall.privateCodeInvalid" })
    .nullable(),
  brandTitle: text(60).default(""),
  brandIntro: text(2000).default(""),
  brandImage: text(500).default(""),
});
export type MallSettingsReq = z.infer<typeof mallSettingsReq>;
export const mallSettings = z.object({
  privateCode: z.string().nullable(),
  brandTitle: z.string(),
  brandIntro: z.string(),
  brandImage: z.string(),
});
export type MallSettings = z.infer<typeof mallSettings>;

/* ---------- SMS packages and records ---------- */
export const smsPackageBuyReq = z.strictObject({
  code: z.enum(SMS_CODES, { error: "mall.smsPackageUnknown" }),
  requestKey: requestKeyField,
});
export const smsPackage = z.object({
  id: z.string(),
  code: z.string(),
  count: z.number().int(),
  remaining: z.number().int(),
  price: money,
  boughtAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export const smsSummary = z.object({
  remaining: z.number().int(),
  packages: z.array(smsPackage),
  offers: z.array(z.object({ code: z.string(), count: z.number().int(), price: money, days: z.number().int() })),
});
export type SmsSummary = z.infer<typeof smsSummary>;
export const smsRecord = z.object({
  id: z.string(),
  appId: z.string(),
  phone: z.string(),
  scene: z.string(),
  state: z.enum(["sent", "failed"]),
  createdAt: z.string(),
});
export const smsRecordPage = pageOf(smsRecord);
export const smsRecordQuery = pageQuery.extend({ phone: z.string().trim().max(11).optional() });

/* ---------- orders ---------- */
export const mallDelivery = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["code", "topup"]),
  state: z.enum(MALL_DELIVERY_STATES),
  /** Masked in the merchant's lists; in full only for the buyer. */
  cardNumber: z.string().nullable(),
  cardSecret: z.string().nullable(),
  account: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** When a store redeemed the code (null: not used yet). */
  usedAt: z.string().nullable(),
  /** Bought from the supplier for this order (smart purchase) rather than from the merchant's own stock. */
  smartPurchase: z.boolean(),
});
export const mallOrder = z.object({
  id: z.string(),
  orderNo: z.string(),
  appId: z.string(),
  customerPhone: z.string(),
  state: z.enum(MALL_ORDER_STATES),
  payMethod: z.enum(MALL_PAY_METHODS),
  amount: money,
  lines: z.array(
    z.object({
      kind: z.enum(["goods", "bag"]),
      refId: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      unitPrice: money,
    }),
  ),
  deliveries: z.array(mallDelivery),
  topUpAccount: z.string().nullable(),
  failReason: z.string().nullable(),
  refundReason: z.string().nullable(),
  createdAt: z.string(),
  refundedAt: z.string().nullable(),
});
export type MallOrder = z.infer<typeof mallOrder>;
export const mallOrderPage = pageOf(mallOrder);
export const mallOrderQuery = pageQuery.extend({
  state: z.enum(MALL_ORDER_STATES).optional(),
  orderNo: z.string().trim().max(40).optional(),
  phone: z.string().trim().max(11).optional(),
});
export const mallRefundReq = z.strictObject({
  reason: z
    .string({ error: "mall.refundReasonEmpty" })
    .trim()
    .min(1, { error: "mall.refundReasonEmpty" })
    .max(200, { error: "mall.textTooLong" }),
  /** The same key again returns the refunded order and changes nothing. */
  requestKey: requestKeyField.optional(),
});

/* ---------- members ---------- */
export const mallMember = z.object({
  customerId: z.string(),
  phone: z.string(),
  orders: z.number().int(),
  spent: money,
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export const mallMemberPage = pageOf(mallMember);
export const mallMemberQuery = pageQuery.extend({ phone: z.string().trim().max(11).optional() });

/* ---------- the storefront (customer calls) ---------- */
export const storefront = z.object({
  appId: z.string(),
  name: z.string(),
  platform: z.enum(["wechat", "douyin"]),
  template: z.string(),
  theme: z.number().int(),
  navMenus: z.array(z.object({ title: z.string(), target: z.string() })),
  bottomMenus: z.array(z.object({ title: z.string(), target: z.string() })),
  customerService: z.string().nullable(),
  sellerId: z.string(),
  /** True when the mall needs its private code and none (or a wrong one) was sent. */
  locked: z.boolean(),
  brand: z.object({ title: z.string(), intro: z.string(), image: z.string() }),
  allowTopupAccountChange: z.boolean(),
  payOnPlatform: z.boolean(),
  /**
   * The experience (beta) version was asked for by someone who is not one of the merchant's testers and no
   * version is released yet: only the login is served (a tester signs in to see the mall).
   */
  testersOnly: z.boolean(),
});
export type Storefront = z.infer<typeof storefront>;

/* ---------- testers (who may open the experience version) ---------- */
export const MALL_MAX_TESTERS = 50;
export const mallTesters = z.object({ phones: z.array(z.string()) });
export type MallTesters = z.infer<typeof mallTesters>;
export const mallTestersReq = z.strictObject({ phones: z.array(mobileField).max(MALL_MAX_TESTERS) });
export const storeGoods = z.object({
  id: z.string(),
  kind: z.enum(["goods", "bag"]),
  name: z.string(),
  brandName: z.string(),
  delivery: z.enum(["code", "topup", "mixed"]),
  /** What a top-up's account must be (topUpAccountProblem); "none" for codes and gift packs. */
  topUpAccountType: z.enum(TOP_UP_ACCOUNT_TYPES),
  price: money,
  faceValue: money.nullable(),
  available: z.boolean(),
  description: z.string(),
  items: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
  validDays: z.number().int().nullable(),
});
export type StoreGoods = z.infer<typeof storeGoods>;
export const storeGoodsPage = pageOf(storeGoods);
export const storeGoodsQuery = pageQuery.extend({
  kind: z.enum(["goods", "bag"]).optional(),
  keyword: z.string().trim().max(60).optional(),
});
export const storeCardOption = z.object({ id: z.string(), cardNo: z.string(), balance: money });
/** A brand's cards the customer holds that a mall cannot take: they pay in that brand's own malls and stores. */
export const cardsElsewhere = z.object({ brandName: z.string(), cards: z.number().int(), balance: money });
export type CardsElsewhere = z.infer<typeof cardsElsewhere>;
export const mallSmsReq = z.strictObject({ phone: mobileField });
export const checkoutReq = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        kind: z.enum(["goods", "bag"]),
        id: idString,
        quantity: z
          .number({ error: "mall.quantityInvalid" })
          .int({ error: "mall.quantityInvalid" })
          .min(1, { error: "mall.quantityInvalid" })
          .max(10, { error: "mall.quantityInvalid" }),
      }),
      { error: "mall.cartEmpty" },
    )
    .min(1, { error: "mall.cartEmpty" })
    .max(20, { error: "mall.cartEmpty" }),
  payMethod: z.enum(MALL_PAY_METHODS, { error: "mall.payMethodInvalid" }),
  cardId: idString.optional(),
  /** The account to top up, for direct top-up goods. */
  topUpAccount: z.string().trim().max(64, { error: "mall.topUpAccountInvalid" }).optional(),
  requestKey: requestKeyField,
});
export type CheckoutReq = z.infer<typeof checkoutReq>;
export const walletPayment = z.object({
  id: z.string(),
  provider: z.string(),
  request: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

/** A code the customer bought in a mall, as the card bag lists it (masked; its order's page reveals it). */
export const mallBagCode = z.object({
  deliveryId: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  appId: z.string(),
  mallName: z.string(),
  name: z.string(),
  cardNumber: z.string(),
  expiresAt: z.string().nullable(),
  /** When a store redeemed the code (null: not used yet). */
  usedAt: z.string().nullable(),
  boughtAt: z.string(),
});
export type MallBagCode = z.infer<typeof mallBagCode>;
