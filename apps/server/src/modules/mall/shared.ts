import {
  CARD_BUSINESS_TYPES,
  CODE,
  MALL_HIGH_PRICE_FACTOR,
  SELECTION_BUSINESS_TYPES,
  type BusinessType,
  type Lang,
  type MallOrder,
  type Merchandise,
  type MerchandiseQuery,
  type OrderReq,
  type Page,
  type PurchaseOrder,
  type SendCodeReply,
  isMessageKey,
  renderMessage,
} from "@tessera/contracts";
import type { Db, Executor, Tx } from "../../db/tx";
import { PLATFORM_UTC_OFFSET, type Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { moneyText } from "../../platform/money-text";
import type { PaymentsAdapter } from "../../platform/adapters/payments";
import { getMerchant } from "../merchants";
import type { MallAppearance } from "../miniprogram";
import type { sealedCodes, takeBuyerCodes, CardKeys } from "../supply";
import { iso, maskMiddle } from "../../platform/present";

/**
 * What the mall's feature services share: their dependencies, the mall a customer call is for, and the
 * small helpers (money, dates, masks, errors) every one of them shapes its answers with.
 */

/** What the miniprogram module offers: the published (or experience) mall config of an app id. */
export type { MallAppearance };
export type MallAppearanceSource = (appId: string, version: "beta" | "release") => Promise<MallAppearance | null>;

/** The mall a customer call is for (headers `v`, app id, seller id; the private code when the mall has one). */
export interface MallContext {
  appearance: MallAppearance;
  privateCode: string | undefined;
  /** The experience version asked for by a non-tester with nothing released: only the login is served. */
  testersOnly?: boolean;
}

/** What a storefront call is for: the beta mall's login and storefront answer non-testers, nothing else does. */
export type MallCallPurpose = "storefront" | "login" | "shop";

export interface MallDeps {
  db: Db;
  clock: Clock;
  keys: CardKeys;
  appearance: MallAppearanceSource;
  catalog: {
    offers(
      buyer: { id: number; version: "domestic" | "international" },
      q: MerchandiseQuery,
    ): Promise<Page<Merchandise>>;
    goods(ids: number[]): Promise<Map<number, Merchandise>>;
  };
  purchasing: {
    place(merchantId: number, req: OrderReq): Promise<PurchaseOrder>;
    find(merchantId: number, orderNo: string): Promise<PurchaseOrder | undefined>;
  };
  /** Debits a one-card card under its lock, once per request key. */
  debitCard(tx: Tx, cardId: number, amount: number, requestKey: string, note: string): Promise<unknown>;
  /** Sends the customer-login code (accounts' SMS codes). */
  sendLoginCode(phone: string, lang: Lang): Promise<SendCodeReply>;
  /** The phone of the customer a token belongs to (null: no such live session). */
  customerPhone(token: string): Promise<string | null>;
  payments: PaymentsAdapter;
  log: { warn(obj: object, msg: string): void };
}

export const CARD_TYPES = new Set<BusinessType>(CARD_BUSINESS_TYPES);
const DIRECT_TYPES = new Set<BusinessType>(SELECTION_BUSINESS_TYPES.direct);
export const deliveryOf = (t: BusinessType): "code" | "topup" | undefined =>
  CARD_TYPES.has(t) ? "code" : DIRECT_TYPES.has(t) ? "topup" : undefined;
export const money = (amount: number, currency: string) => ({
  amount,
  currency: currency as "CNY" | "USD" | "HKD",
});
export { iso };
export const maskNumber = (s: string) =>
  maskMiddle(s, { head: 4, tail: 4, minStars: 4, short: (v) => `${v.slice(0, 2)}****` });
export const notFound = (key: "mall.goodsNotFound" | "mall.bagNotFound" | "mall.orderNotFound" | "mall.unknown") =>
  new AppError(CODE.NOT_FOUND, key);

/**
 * How long a customer call may use what it read of rarely changing rows (a mall's released appearance,
 * its private code and brand show, a catalogue goods' name and kind) before reading them again: every
 * storefront call needs them, and 200 customers ask many times a second. A release shows within this
 * time; the merchant's own settings change clears its entry at once (in this process).
 */
export const SHORT_CACHE_MS = 3_000;

/** Values by key for a few seconds, the load itself shared by concurrent callers; misses (`keep` false) and failures are not kept. */
export class ShortCache<K, V> {
  private readonly entries = new Map<K, { until: number; value: Promise<V> }>();
  constructor(
    private readonly ms: number,
    private readonly max = 10_000,
  ) {}
  get(key: K, load: () => Promise<V>, keep: (v: V) => boolean = () => true): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= this.max) this.entries.clear();
    const value = load();
    this.entries.set(key, { until: now + this.ms, value });
    const drop = () => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    };
    value.then((v) => (keep(v) ? undefined : drop()), drop);
    return value;
  }
  delete(key: K): void {
    this.entries.delete(key);
  }
}

/** A code's sealed credentials, masked number and expiry day (supply's buyer stock). */
export type SealedCode = Awaited<ReturnType<typeof takeBuyerCodes>>[number];
/** A delivered code as its buyer sees it: also whether a store has redeemed it. */
export type DeliveredCode = Awaited<ReturnType<typeof sealedCodes>>[number];

/**
 * Until when a delivery can be used. A code's own expiry day wins over the mall's validity: it is the day a
 * store clerk's screen shows, the last day a store redeems it, and the day the voucher-expiry job pays the
 * customer back, so the customer sees the same date the clerk does (issue 40, item 6).
 */
export function deliveryExpiry(mallValidity: Date | string | null, code: { expires_on: string | null } | undefined) {
  if (code?.expires_on) return new Date(`${code.expires_on}T23:59:59.000${PLATFORM_UTC_OFFSET}`).toISOString();
  return mallValidity ? iso(mallValidity) : null;
}
export type OrderRow = {
  id: number;
  order_no: string;
  app_id: string;
  customer_id: number;
  state: MallOrder["state"];
  pay_method: MallOrder["payMethod"];
  amount: number;
  currency: string;
  lines: { kind: "goods" | "bag"; refId: number; name: string; quantity: number; unitPrice: number }[];
  top_up_account: string | null;
  fail_reason: string | null;
  refund_reason: string | null;
  created_at: Date | string;
  refunded_at: Date | string | null;
};
export type DeliveryRow = {
  id: number;
  order_id: number;
  name: string;
  kind: "code" | "topup";
  state: "processing" | "success" | "failed";
  card_id: number | null;
  account: string | null;
  expires_at: Date | string | null;
};

/** The merchant a back-office call is for, as a buyer of the catalogue. */
export async function buyer(db: Executor, merchantId: number) {
  const m = await getMerchant(db, merchantId);
  if (!m) throw new AppError(CODE.FORBIDDEN, "auth.forbidden");
  return m;
}

/**
 * A price far above what the goods is worth (its face value, or its cost when it has none) is a typo or
 * an attempt to inflate sales: it needs the merchant's explicit confirmation. Returns the reference the
 * price was compared with when it is high and confirmed (to be logged), null when it is not high.
 */
export function highPrice(price: number, g: Merchandise, confirmed: boolean): number | null {
  const reference = g.faceValue > 0 ? g.faceValue : g.price;
  if (reference <= 0 || price <= reference * MALL_HIGH_PRICE_FACTOR) return null;
  if (!confirmed) {
    throw new AppError(
      CODE.CONFLICT,
      "mall.priceFarAbove",
      { price: moneyText(price, g.currency), reference: moneyText(reference, g.currency) },
      "confirmHighPrice",
    );
  }
  return reference;
}

export function renderKey(key: string, lang: Lang): string {
  return isMessageKey(key) ? renderMessage(key, lang, {}) : key;
}
