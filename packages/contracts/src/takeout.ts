import { z } from "zod";
import { money, mobileField } from "./accounts";
import { requestKeyField } from "./funds";
import { pageOf, pageQuery } from "./paging";
import { paymentAction, paymentProvider } from "./payments";

/**
 * Takeout (food-ordering) mini-shop (spec 01 §2 `/business` TakeoutSet, TakeoutType, ItemSet, PackageSet,
 * TakeoutOrder; `/providers` TakeoutApplet; §3 goods business type takeaway). A brand sets its shop
 * (hours, delivery area as a radius or a polygon, fees, minimum order), its menu (categories, items with
 * options and stock, combos); customers order from a phone page with the customer token, pay through the
 * local payment adapter and follow the order; the shop accepts, prepares, delivers and completes it, or
 * cancels it with a reason (a paid order is refunded). Amounts are integers of minor units.
 */

export const TAKEOUT_ORDER_STATES = [
  "pending_payment",
  "to_be_accepted",
  "accepted",
  "delivering",
  "completed",
  "cancelled",
] as const;
export type TakeoutOrderState = (typeof TAKEOUT_ORDER_STATES)[number];
export const TAKEOUT_ACTIONS = ["accept", "deliver", "complete", "cancel"] as const;
export type TakeoutAction = (typeof TAKEOUT_ACTIONS)[number];

const idString = z
  .string({ error: "validation.invalidParameter" })
  .regex(/^\d{1,18}$/, { error: "validation.invalidParameter" });
const minor = (error: "takeout.amountInvalid") =>
  z.number({ error }).int({ error }).min(0, { error }).max(100_000_000, { error });
const hhmm = z
  .string({ error: "takeout.hoursInvalid" })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "takeout.hoursInvalid" });
const lat = z
  .number({ error: "takeout.locationInvalid" })
  .min(-90, { error: "takeout.locationInvalid" })
  .max(90, { error: "takeout.locationInvalid" });
const lng = z
  .number({ error: "takeout.locationInvalid" })
  .min(-180, { error: "takeout.locationInvalid" })
  .max(180, { error: "takeout.locationInvalid" });
const name = (max: number) =>
  z
    .string({ error: "takeout.nameEmpty" })
    .trim()
    .min(1, { error: "takeout.nameEmpty" })
    .max(max, { error: "commerce.tooLong" });

export const hoursRule = z.object({
  days: z
    .array(z.number().int().min(1).max(7), { error: "takeout.hoursInvalid" })
    .min(1, { error: "takeout.hoursInvalid" })
    .max(7, { error: "takeout.hoursInvalid" }),
  from: hhmm,
  to: hhmm,
});
export type HoursRule = z.infer<typeof hoursRule>;

/** TakeoutSet. */
export const takeoutShopReq = z.object({
  name: name(40),
  open: z.boolean(),
  hours: z.array(hoursRule, { error: "takeout.hoursInvalid" }).max(14, { error: "takeout.hoursInvalid" }),
  address: z.string().trim().max(120, { error: "commerce.tooLong" }).default(""),
  lat,
  lng,
  areaKind: z.enum(["radius", "polygon"], { error: "validation.invalidParameter" }),
  radiusM: z
    .number({ error: "takeout.areaInvalid" })
    .int()
    .min(100, { error: "takeout.areaInvalid" })
    .max(50_000, { error: "takeout.areaInvalid" })
    .default(3000),
  polygon: z
    .array(z.tuple([lat, lng]), { error: "takeout.areaInvalid" })
    .max(100, { error: "takeout.areaInvalid" })
    .default([]),
  deliveryFee: minor("takeout.amountInvalid"),
  minOrder: minor("takeout.amountInvalid"),
  packingFee: minor("takeout.amountInvalid"),
  tableware: z.boolean().default(true),
  scheduled: z.boolean().default(false),
  prepMinutes: z.number().int().min(0).max(600).default(30),
});
export type TakeoutShopReq = z.input<typeof takeoutShopReq>;
export const takeoutShop = z.object({
  merchantId: z.string(),
  name: z.string(),
  open: z.boolean(),
  openNow: z.boolean(),
  hours: z.array(hoursRule),
  address: z.string(),
  lat: z.number(),
  lng: z.number(),
  areaKind: z.enum(["radius", "polygon"]),
  radiusM: z.number().int(),
  polygon: z.array(z.tuple([z.number(), z.number()])),
  deliveryFee: money,
  minOrder: money,
  packingFee: money,
  tableware: z.boolean(),
  scheduled: z.boolean(),
  prepMinutes: z.number().int(),
});
export type TakeoutShop = z.infer<typeof takeoutShop>;

/** TakeoutType. */
export const takeoutTypeReq = z.object({ name: name(20), sort: z.number().int().min(0).max(100_000).default(0) });
export const takeoutType = z.object({ id: z.string(), name: z.string(), sort: z.number().int() });
export type TakeoutType = z.infer<typeof takeoutType>;

export const optionGroup = z.object({
  name: name(20),
  required: z.boolean().default(false),
  max: z.number().int().min(1).max(10).default(1),
  choices: z
    .array(z.object({ name: name(20), price: minor("takeout.amountInvalid").default(0) }), {
      error: "takeout.optionInvalid",
    })
    .min(1, { error: "takeout.optionInvalid" })
    .max(20, { error: "takeout.optionInvalid" }),
});
export type OptionGroup = z.infer<typeof optionGroup>;

/** ItemSet. */
export const takeoutItemReq = z.object({
  typeId: idString.nullable().default(null),
  name: name(40),
  description: z.string().trim().max(500, { error: "commerce.tooLong" }).default(""),
  image: z.string().trim().max(500).default(""),
  price: minor("takeout.amountInvalid"),
  stock: z
    .number({ error: "commerce.stockInvalid" })
    .int()
    .min(0, { error: "commerce.stockInvalid" })
    .max(1_000_000)
    .nullable()
    .default(null),
  options: z
    .array(optionGroup, { error: "takeout.optionInvalid" })
    .max(10, { error: "takeout.optionInvalid" })
    .default([]),
  onSale: z.boolean().default(true),
  sort: z.number().int().min(0).max(100_000).default(0),
});
export type TakeoutItemReq = z.input<typeof takeoutItemReq>;
export const takeoutItem = z.object({
  id: z.string(),
  typeId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  image: z.string(),
  price: money,
  stock: z.number().int().nullable(),
  sold: z.number().int(),
  options: z.array(
    z.object({
      name: z.string(),
      required: z.boolean(),
      max: z.number().int(),
      choices: z.array(z.object({ name: z.string(), price: z.number().int() })),
    }),
  ),
  onSale: z.boolean(),
  sort: z.number().int(),
});
export type TakeoutItem = z.infer<typeof takeoutItem>;

/** PackageSet: a combo of items at one price. */
export const takeoutPackageReq = z.object({
  name: name(40),
  description: z.string().trim().max(500, { error: "commerce.tooLong" }).default(""),
  price: minor("takeout.amountInvalid"),
  items: z
    .array(z.object({ itemId: idString, quantity: z.number().int().min(1).max(20) }), { error: "takeout.packageEmpty" })
    .min(1, { error: "takeout.packageEmpty" })
    .max(20, { error: "takeout.packageEmpty" }),
  onSale: z.boolean().default(true),
  sort: z.number().int().min(0).max(100_000).default(0),
});
export type TakeoutPackageReq = z.input<typeof takeoutPackageReq>;
export const takeoutPackage = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: money,
  items: z.array(z.object({ itemId: z.string(), name: z.string(), quantity: z.number().int() })),
  onSale: z.boolean(),
  sort: z.number().int(),
});
export type TakeoutPackage = z.infer<typeof takeoutPackage>;

/** The customer's menu: the shop, its categories, items and combos on sale. */
export const takeoutMenu = z.object({
  shop: takeoutShop,
  types: z.array(takeoutType),
  items: z.array(takeoutItem),
  packages: z.array(takeoutPackage),
  /** The providers the customer may choose from when paying (several: a choice; the first is the default). */
  payProviders: z.array(paymentProvider).optional(),
});
export type TakeoutMenu = z.infer<typeof takeoutMenu>;

/** Paying an order: with which provider, when the deployment offers several (default the first). */
export const takeoutPayQuery = z.object({ provider: paymentProvider.optional() });

export const takeoutOrderReq = z.object({
  merchantId: idString,
  lines: z
    .array(
      z.object({
        kind: z.enum(["item", "package"]),
        id: idString,
        quantity: z
          .number({ error: "commerce.quantityInvalid" })
          .int()
          .min(1, { error: "commerce.quantityInvalid" })
          .max(99, { error: "commerce.quantityInvalid" }),
        /** For an item: the chosen choice names, one list per option group in order. */
        options: z
          .array(z.array(z.string().max(20)).max(10))
          .max(10)
          .default([]),
      }),
      { error: "commerce.itemsEmpty" },
    )
    .min(1, { error: "commerce.itemsEmpty" })
    .max(30, { error: "commerce.itemsEmpty" }),
  contactName: name(30),
  contactPhone: mobileField,
  address: z
    .string({ error: "commerce.addressEmpty" })
    .trim()
    .min(2, { error: "commerce.addressEmpty" })
    .max(120, { error: "commerce.tooLong" }),
  lat,
  lng,
  tableware: z.number().int().min(0).max(20).default(0),
  /** A delivery time when the shop takes scheduled orders (ISO); none: as soon as possible. */
  scheduledAt: z.iso.datetime({ offset: true, error: "takeout.scheduleInvalid" }).optional(),
  remark: z.string().trim().max(200, { error: "commerce.tooLong" }).default(""),
  requestKey: requestKeyField,
});
export type TakeoutOrderReq = z.input<typeof takeoutOrderReq>;

export const takeoutLine = z.object({
  kind: z.enum(["item", "package"]),
  id: z.string(),
  name: z.string(),
  options: z.array(z.string()),
  unitPrice: money,
  quantity: z.number().int(),
  amount: money,
});
export const takeoutOrder = z.object({
  id: z.string(),
  orderNo: z.string(),
  merchantId: z.string(),
  shopName: z.string(),
  state: z.enum(TAKEOUT_ORDER_STATES),
  lines: z.array(takeoutLine),
  goodsAmount: money,
  packingFee: money,
  deliveryFee: money,
  total: money,
  refunded: money,
  contactName: z.string(),
  contactPhone: z.string(),
  address: z.string(),
  tableware: z.number().int(),
  scheduledAt: z.string().nullable(),
  remark: z.string(),
  cancelReason: z.string().nullable(),
  cancelledBy: z.enum(["customer", "shop", "system"]).nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  deliveringAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  /** An unpaid order's pending payment: what the payer does next (WeChat Pay); absent otherwise. */
  payAction: paymentAction.optional(),
});
export type TakeoutOrder = z.infer<typeof takeoutOrder>;
export const takeoutOrderPage = pageOf(takeoutOrder);
export const takeoutOrderQuery = pageQuery.extend({
  state: z.enum(TAKEOUT_ORDER_STATES).optional(),
  /** Only orders after this id (the shop's live view asks for what is new). */
  afterId: z.coerce.number().int().min(0).optional(),
});
export const takeoutActionReq = z.object({
  action: z.enum(TAKEOUT_ACTIONS, { error: "validation.invalidParameter" }),
  reason: z.string().trim().max(200, { error: "commerce.tooLong" }).optional(),
});
export const takeoutCancelReq = z.object({
  reason: z.string().trim().max(200, { error: "commerce.tooLong" }).default(""),
});

/** TakeoutApplet (provider): a served brand's takeout shop and today's figures. */
export const takeoutApplet = z.object({
  merchantId: z.string(),
  merchantName: z.string(),
  shop: takeoutShop.nullable(),
  /** The customers' phone page. */
  link: z.string(),
  ordersToday: z.number().int(),
  waiting: z.number().int(),
  completedToday: money,
});
export type TakeoutApplet = z.infer<typeof takeoutApplet>;
