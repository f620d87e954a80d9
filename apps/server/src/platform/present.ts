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
