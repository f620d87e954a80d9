import type { Currency, Money } from "@tessera/contracts";

/**
 * Shaping rows for replies, shared by every module's presenter: a stored time as the API's ISO string
 * (null stays null, for times a row may not have yet) and an amount of minor units with its currency.
 */
export function iso(d: Date | string): string;
export function iso(d: Date | string | null): string | null;
export function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

export function money(amount: number, currency: Currency): Money {
  return { amount, currency };
}

export interface MaskRule {
  /** Characters shown at the start and at the end. */
  head: number;
  tail: number;
  /** Exactly this many asterisks in between, whatever the length; by default one per hidden character. */
  stars?: number;
  /** At least this many asterisks (a short value does not give its length away). */
  minStars?: number;
  /** What a value too short to show both ends becomes: head + tail characters or fewer, or below `shortBelow`. */
  short?: (value: string) => string;
  shortBelow?: number;
}

/**
 * A number, phone or ID shown with its middle hidden, the one masking rule of the replies (cards, phones, ID
 * and account numbers): `head` and `tail` characters kept, asterisks between; a value too short for that
 * goes through `short` (by default: all asterisks).
 */
export function maskMiddle(value: string, rule: MaskRule): string {
  const { head, tail } = rule;
  const tooShort = rule.shortBelow === undefined ? value.length <= head + tail : value.length < rule.shortBelow;
  if (tooShort) {
    return rule.short ? rule.short(value) : "*".repeat(value.length);
  }
  const hidden = rule.stars ?? Math.max(rule.minStars ?? 0, value.length - head - tail);
  return `${value.slice(0, head)}${"*".repeat(hidden)}${value.slice(value.length - tail)}`;
}

/** A mobile number as others may see it: 138****8000. */
export const maskPhone = (phone: string): string =>
  maskMiddle(phone, { head: 3, tail: 4, stars: 4, shortBelow: 7, short: () => "****" });
