import dayjs, { type Dayjs } from "dayjs";

/**
 * Today as the platform counts days (UTC+8, where its books, statements and reports are kept), as a
 * local-calendar dayjs for date pickers: a user elsewhere in the world still sees today's figures.
 */
export function platformToday(now = Date.now()): Dayjs {
  return dayjs(new Date(now + 8 * 3600_000).toISOString().slice(0, 10));
}
