/** The time source of every rule that depends on time (expiry, throttles), replaceable in tests. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move forward. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start = Date.now()) {
    this.#ms = start;
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}

/**
 * The platform keeps its books in China/Hong Kong time: a "day" (statements, reports, daily limits,
 * T+1) is a UTC+8 calendar day.
 */
export const PLATFORM_UTC_OFFSET = "+08:00";
const OFFSET_MS = 8 * 3600_000;

/** The platform day (YYYY-MM-DD) an instant falls on. */
export function platformDay(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a platform day begins. */
export function startOfPlatformDay(day: string): Date {
  return new Date(`${day}T00:00:00${PLATFORM_UTC_OFFSET}`);
}

/** The hour (0-23) of the platform day an instant falls in. */
export function platformHour(at: Date): number {
  return new Date(at.getTime() + OFFSET_MS).getUTCHours();
}

/**
 * The zone every time is shown in (pages, exports, PDFs): TZ_DISPLAY, set once at start (main.ts);
 * Asia/Shanghai otherwise. Days of the books stay UTC+8 (above); this is how an instant reads.
 */
let displayZone = "Asia/Shanghai";
const displayFormats = new Map<string, Intl.DateTimeFormat>();

export function setDisplayZone(zone: string): void {
  new Intl.DateTimeFormat("en-US", { timeZone: zone }); // throws on an unknown zone
  displayZone = zone;
}

/** "YYYY-MM-DD HH:mm:ss" (or without seconds) of an instant in the display zone; null stays null. */
export function displayTime(at: Date | string, opts?: { seconds?: boolean }): string;
export function displayTime(at: Date | string | null, opts?: { seconds?: boolean }): string | null;
export function displayTime(at: Date | string | null, opts: { seconds?: boolean } = {}): string | null {
  if (at === null) return null;
  const d = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  let f = displayFormats.get(displayZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: displayZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    displayFormats.set(displayZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(d)) p[part.type] = part.value;
  const t = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  return opts.seconds === false ? t : `${t}:${p.second}`;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A cell of an export: an instant (a Date or an ISO timestamp) as display-zone text, anything else as it is. */
export function displayCell<T>(v: T): T | string {
  if (v instanceof Date) return displayTime(v);
  if (typeof v === "string" && ISO_INSTANT.test(v)) return displayTime(v);
  return v;
}
