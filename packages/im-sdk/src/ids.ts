/**
 * Local message ids: the milliseconds elapsed since 1 February 2010 (local time) plus a counter that grows
 * on every call, so two ids made in the same millisecond still differ. About 12 decimal digits, below 2^53.
 */
const BASE = new Date(2010, 1, 1).getTime();
let counter = 0;

export function uniqueId(now: number = Date.now()): string {
  counter += 1;
  return String(now - BASE + counter);
}

/** The id base date (1 February 2010, 00:00 local time) in epoch milliseconds. */
export const ID_BASE_MS = BASE;
