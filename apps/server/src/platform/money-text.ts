const SYMBOLS: Record<string, string> = { CNY: "¥", USD: "US$", HKD: "HK$" };

/** An amount of minor units as a person reads it in a message: ¥50,000.00 (the web's formatMoney, server side). */
export function moneyText(minor: number, currency: string): string {
  const sign = minor < 0 ? "-" : "";
  return `${sign}${SYMBOLS[currency] ?? `${currency} `}${(Math.abs(minor) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
