/**
 * Every instant the web app shows (lists, details, receipts, exports) in the platform's time zone
 * (`TZ_DISPLAY` of the server, Asia/Shanghai unless set; the common config names it), whatever the
 * zone of the browser: a customer in Shanghai and a clerk abroad read the same 13:34.
 */
let zone = "Asia/Shanghai";
const formats = new Map<string, Intl.DateTimeFormat>();

/** Adopts the server's display zone (from the common config); an unknown zone is ignored. */
export function setDisplayZone(tz: string | undefined): void {
  if (!tz || tz === zone) return;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    zone = tz;
  } catch {
    // keep the default
  }
}

export function displayZone(): string {
  return zone;
}

function parts(at: Date): Record<string, string> {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(at)) out[p.type] = p.value;
  return out;
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
  const p = parts(d);
  const t = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  return opts.seconds ? `${t}:${p.second}` : t;
}

/** "YYYY-MM-DD": the platform day of an instant; a calendar date (already "YYYY-MM-DD") as it is. */
export function formatDay(v: string | number | Date | null | undefined, empty = "-"): string {
  if (v === null || v === undefined || v === "") return empty;
  if (typeof v === "string" && DAY_ONLY.test(v)) return v;
  const d = instant(v);
  if (!d) return typeof v === "string" ? v : empty;
  const p = parts(d);
  return `${p.year}-${p.month}-${p.day}`;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO timestamp with its offset, as the server's replies carry instants ("2029-11-28T05:05:13.328Z"). */
export const isInstant = (v: string): boolean => ISO_INSTANT.test(v);
