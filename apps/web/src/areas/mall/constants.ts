import type { Currency, Money } from "@tessera/contracts";

/**
 * The few contracts values the storefront needs, copied: `@tessera/contracts` is one barrel whose modules
 * keep their side effects (zod schemas built at import), so a single value import from it put zod and every
 * schema into the storefront's first download (about 60 kB gzip of its 120 kB budget). Types are still
 * imported from contracts (erased at build); constants.test.ts checks these copies equal the originals.
 */
export const MALL_APP_ID_HEADER = "x-app-id";
export const MALL_SELLER_ID_HEADER = "x-seller-id";
export const MALL_VERSION_HEADER = "v";
export const MALL_PROTOCOL_VERSION = "1";
export const MALL_PRIVATE_CODE_HEADER = "x-mall-code";
/** Code 1007: the customer token expired (spec 01 §8). */
export const MALL_LOGIN_EXPIRED = 1007;

export const MALL_THEME_COLOURS: Record<number, { primary: string; tint: string }> = {
  1: { primary: "#e4393c", tint: "#fff1f0" },
  2: { primary: "#1677ff", tint: "#e6f4ff" },
  3: { primary: "#07a35a", tint: "#e8f8ef" },
  4: { primary: "#b8860b", tint: "#fdf6e3" },
};
export const DEFAULT_COLOURS = { primary: "#1677ff", tint: "#e6f4ff" };

export const CURRENCY_MINOR_DIGITS: Record<Currency, number> = { CNY: 2, USD: 2, HKD: 2 };
const CURRENCY_SYMBOLS: Record<Currency, string> = { CNY: "¥", USD: "US$", HKD: "HK$" };

/** The back-office's formatMoney (components/money.ts) without its contracts import: 123456 CNY → "¥1,234.56". */
export function formatMoney(money: Money): string {
  const digits = CURRENCY_MINOR_DIGITS[money.currency];
  const factor = 10 ** digits;
  const abs = Math.abs(money.amount);
  const grouped = String(Math.floor(abs / factor)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = digits > 0 ? `.${String(abs % factor).padStart(digits, "0")}` : "";
  return `${money.amount < 0 ? "-" : ""}${CURRENCY_SYMBOLS[money.currency]}${grouped}${fraction}`;
}
