import { isKnownZone, ISO_INSTANT, zonedParts, zonedTime } from "@tessera/contracts/light";
/**
 * Every instant the web app shows (lists, details, receipts, exports) in the platform's time zone
 * (`TZ_DISPLAY` of the server, Asia/Shanghai unless set; the common config names it), whatever the
 * zone of the browser: a customer in Shanghai and a clerk abroad read the same 13:34.
 */
let zone = "Asia/Shanghai";

/** Adopts the server's display zone (from the common config); an unknown zone is ignored. */
export function setDisplayZone(tz: string | undefined): void {
  if (tz && isKnownZone(tz)) zone = tz;
}

export function displayZone(): string {
  return zone;
}

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function instant(v: string | number | Date): Date | null {
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * "YYYY-MM-DD HH:mm" (with `:ss` when `seconds`) in the platform zone; `empty` for null or an unreadable
 * value.
 */
export function formatTime(
  v: string | number | Date | null | undefined,
  opts: { seconds?: boolean; empty?: string } = {},
): string {
  const empty = opts.empty ?? "-";
  if (v === null || v === undefined || v === "") return empty;
  const d = instant(v);
  if (!d) return typeof v === "string" ? v : empty;
  return zonedTime(d, zone, opts.seconds === true);
}

/** "YYYY-MM-DD": the platform day of an instant; a calendar date (already "YYYY-MM-DD") as it is. */
export function formatDay(v: string | number | Date | null | undefined, empty = "-"): string {
  if (v === null || v === undefined || v === "") return empty;
  if (typeof v === "string" && DAY_ONLY.test(v)) return v;
  const d = instant(v);
  if (!d) return typeof v === "string" ? v : empty;
  const p = zonedParts(d, zone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** An ISO timestamp with its offset, as the server's replies carry instants ("2029-11-28T05:05:13.328Z"). */
export const isInstant = (v: string): boolean => ISO_INSTANT.test(v);
