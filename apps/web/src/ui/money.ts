import type { Money } from "@tessera/contracts";
// The contracts' values without zod: the storefront (its own light entry) formats money with this file too.
import { CURRENCY_MINOR_DIGITS, type Currency } from "@tessera/contracts/light";

/** Currency symbols shown before an amount. */
export const CURRENCY_SYMBOLS: Record<Currency, string> = { CNY: "¥", USD: "US$", HKD: "HK$" };

/**
 * Formats an integer amount of minor units: 123456 CNY → "¥1,234.56", -5 USD → "-US$0.05".
 * Integer arithmetic only; never a float on the way.
 */
export function formatMoney(money: Money): string {
  const digits = CURRENCY_MINOR_DIGITS[money.currency];
  const factor = 10 ** digits;
  const negative = money.amount < 0;
  const abs = Math.abs(money.amount);
  const major = Math.floor(abs / factor);
  const minor = abs % factor;
  const grouped = String(major).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = digits > 0 ? `.${String(minor).padStart(digits, "0")}` : "";
  return `${negative ? "-" : ""}${CURRENCY_SYMBOLS[money.currency]}${grouped}${fraction}`;
}

/**
 * Reads an amount typed in major units ("1,234.5") as integer minor units (123450), without floats.
 * Returns null for anything that is not a non-negative amount with at most the currency's decimals.
 */
export function parseMoney(input: string, currency: Currency): number | null {
  const digits = CURRENCY_MINOR_DIGITS[currency];
  const m = /^(\d{1,12})(?:\.(\d*))?$/.exec(input.trim().replace(/,/g, ""));
  if (!m) return null;
  const fraction = m[2] ?? "";
  if (fraction.length > digits) return null;
  return Number(m[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}
