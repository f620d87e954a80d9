import { z } from "zod";
import type { MessageKey } from "./messages";

/** A day as YYYY-MM-DD (the format every date field and filter of the API uses). */
export const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether `v` is YYYY-MM-DD and a real calendar day (no 2026-02-30, no month 13), in years 1000-9999:
 * the pattern alone lets impossible days through to SQL, which refuses them.
 */
export function isCalendarDate(v: string): boolean {
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The one schema of a calendar day (YYYY-MM-DD) in requests: every date field and date filter uses it,
 * so the edge rule (a real day) holds everywhere. `error` is the message of a malformed or impossible day.
 */
export function calendarDate(error: MessageKey = "validation.invalidParameter") {
  return z.string({ error }).regex(DATE_RE, { error }).refine(isCalendarDate, { error });
}
