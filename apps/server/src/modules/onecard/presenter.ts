import { CODE, type OcBatch, type OcCard, type OcGift, type OcProduct, type OnecardState } from "@tessera/contracts";
import { AppError, type invalid } from "../../platform/http/errors";
import { iso, maskPhone, money } from "../../platform/present";
import type { CardKeys } from "../supply";
import { cardNumber } from "./cardno";
import type * as repo from "./repo";

/** How the card services show their rows (money, dates, masking), and the few helpers they share. */

export const DAY_MS = 86_400_000;
/** Shared with the card services, which import them from here. */
export { iso, money };
/**
 * A `date` column as YYYY-MM-DD. The drivers hand it back as a Date at local midnight (not the declared
 * string), and `String(date)` is "Tue Dec 31 2030 ...": the charter showed "Tue Dec 31" and a fixed
 * validity made an invalid expiry.
 */
export const calendarDay = (v: Date | string): string => {
  if (!(v instanceof Date)) return String(v).slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}`;
};
export const cardErr = (key: Parameters<typeof invalid>[0]) => new AppError(CODE.INVALID_PARAMETER, key);

/* ---------- presenters ---------- */
export function expiryOf(p: repo.ProductRow, from: Date): Date | null {
  if (p.validity_kind === "fixed" && p.valid_until) return new Date(`${calendarDay(p.valid_until)}T23:59:59+08:00`);
  if (p.validity_kind === "days" && p.valid_days) return new Date(from.getTime() + p.valid_days * DAY_MS);
  return null;
}

export function effectiveState(c: { state: OnecardState; expires_at: Date | null }, now: Date): OnecardState {
  return c.state === "activated" && c.expires_at && new Date(c.expires_at) <= now ? "expired" : c.state;
}

export function presentProduct(r: Awaited<ReturnType<typeof repo.productPage>>["rows"][number]): OcProduct {
  return {
    id: String(r.id),
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    kind: r.kind,
    name: r.name,
    faceValue: money(r.face_value, r.currency),
    salePrice: money(r.sale_price, r.currency),
    named: r.named,
    validity: { kind: r.validity_kind, until: r.valid_until ? calendarDay(r.valid_until) : null, days: r.valid_days },
    rechargeAllowed: r.recharge_allowed,
    scope: r.scope,
    terms: r.terms,
    onSale: r.on_sale,
    stock: Number(r.stock ?? 0),
    issued: Number(r.issued ?? 0),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export function presentBatch(b: Awaited<ReturnType<typeof repo.batchPage>>["rows"][number]): OcBatch {
  return {
    id: String(b.id),
    productId: String(b.product_id),
    productName: b.product_name,
    count: b.count,
    sold: Number(b.sold ?? 0),
    firstNo: cardNumber(b.id, 1),
    lastNo: cardNumber(b.id, b.count),
    createdAt: new Date(b.created_at).toISOString(),
  };
}

export function presentCard(r: repo.CardListRow, holder: boolean, keys: CardKeys): OcCard {
  return {
    id: String(r.id),
    cardNo: holder ? keys.unseal(r.sealed).number : r.no_masked,
    productId: String(r.product_id),
    productName: r.product_name,
    kind: r.kind,
    state: r.state,
    faceValue: money(r.face_value, r.currency),
    balance: money(r.balance, r.currency),
    held: money(r.held, r.currency),
    saleId: r.sale_id === null ? null : String(r.sale_id),
    activatedAt: iso(r.activated_at),
    expiresAt: iso(r.expires_at),
    extractedAt: iso(r.extracted_at),
    inBag: r.customer_id !== null,
  };
}

export function presentReturn(r: {
  id: number;
  count: number;
  amount: number;
  currency: repo.Currency;
  reason: string;
  created_at: Date;
}) {
  return {
    id: String(r.id),
    count: r.count,
    amount: money(r.amount, r.currency),
    reason: r.reason,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export function presentGift(
  g: {
    id: number;
    phone: string | null;
    card_ids: number[];
    amount: number;
    currency: repo.Currency;
    message: string;
    state: "sent" | "claimed" | "expired";
    expires_at: Date;
    claimed_at: Date | null;
    created_at: Date;
  },
  hidePhone: boolean,
): OcGift {
  return {
    id: String(g.id),
    phone: g.phone === null ? null : hidePhone ? maskPhone(g.phone) : g.phone,
    link: null,
    packageName: null,
    cardCount: g.card_ids.length,
    amount: money(g.amount, g.currency),
    message: g.message,
    state: g.state,
    expiresAt: new Date(g.expires_at).toISOString(),
    claimedAt: iso(g.claimed_at),
    createdAt: new Date(g.created_at).toISOString(),
  };
}
