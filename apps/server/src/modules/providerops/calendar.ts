import type { MerchantTrades } from "../ledger";
import { platformDay, startOfPlatformDay } from "../../platform/clock";

/** The provider's charts' calendar: platform days and months of a query, and sums over their rows. */

export const dayAfter = (day: string) => new Date(startOfPlatformDay(day).getTime() + 86_400_000);
export const monthStart = (month: string) => startOfPlatformDay(`${month}-01`);
export function monthAfter(month: string): Date {
  const [y, m] = month.split("-").map(Number);
  const next = (y ?? 0) * 12 + (m ?? 1);
  return startOfPlatformDay(`${Math.floor(next / 12)}-${String((next % 12) + 1).padStart(2, "0")}-01`);
}

/** Every platform day in [from, to): a chart's axis without gaps. */
export function eachDay(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let at = from.getTime(); at < to.getTime(); at += 86_400_000) days.push(platformDay(new Date(at)));
  return days;
}

export const sum = <T>(rows: readonly T[], of: (row: T) => number) => rows.reduce((s, r) => s + of(r), 0);

/** Trade facts of several categories summed per key (a merchant's month of sales across categories). */
export function sumBy(facts: readonly MerchantTrades[], keyOf: (f: MerchantTrades) => string): MerchantTrades[] {
  const out = new Map<string, MerchantTrades>();
  for (const f of facts) {
    const key = keyOf(f);
    const r = out.get(key);
    if (r) {
      r.trades += f.trades;
      r.amount += f.amount;
      r.refunds += f.refunds;
    } else out.set(key, { ...f });
  }
  return [...out.values()];
}
