import { CURRENCY_MINOR_DIGITS, type Currency, type Money } from "@tessera/contracts";

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
