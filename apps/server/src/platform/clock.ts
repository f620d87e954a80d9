import { isKnownZone, ISO_INSTANT, zonedTime } from "@tessera/contracts";
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

export function setDisplayZone(zone: string): void {
  if (!isKnownZone(zone)) throw new RangeError(`Invalid time zone specified: ${zone}`);
  displayZone = zone;
}

/** "YYYY-MM-DD HH:mm:ss" (or without seconds) of an instant in the display zone; null stays null. */
export function displayTime(at: Date | string, opts?: { seconds?: boolean }): string;
export function displayTime(at: Date | string | null, opts?: { seconds?: boolean }): string | null;
export function displayTime(at: Date | string | null, opts: { seconds?: boolean } = {}): string | null {
  if (at === null) return null;
  const d = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  return zonedTime(d, displayZone, opts.seconds !== false);
}

/** A cell of an export: an instant (a Date or an ISO timestamp) as display-zone text, anything else as it is. */
export function displayCell<T>(v: T): T | string {
  if (v instanceof Date) return displayTime(v);
  if (typeof v === "string" && ISO_INSTANT.test(v)) return displayTime(v);
  return v;
}
