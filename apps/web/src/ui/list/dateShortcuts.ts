import type { Dayjs } from "dayjs";

/**
 * The date shortcuts of spec 01 §2: yesterday, last week, last month, today, this week, this month,
 * this year. "Last week" and "last month" are the rolling last 7 days and last month up to today
 * (最近一周 / 最近一个月), the reading a Chinese back-office user expects. Weeks start on Monday.
 */
export const DATE_SHORTCUTS = [
  "yesterday",
  "lastWeek",
  "lastMonth",
  "today",
  "thisWeek",
  "thisMonth",
  "thisYear",
] as const;
export type DateShortcut = (typeof DATE_SHORTCUTS)[number];

export function startOfIsoWeek(d: Dayjs): Dayjs {
  return d.subtract((d.day() + 6) % 7, "day").startOf("day");
}

export function shortcutRange(key: DateShortcut, now: Dayjs): [Dayjs, Dayjs] {
  const endToday = now.endOf("day");
  switch (key) {
    case "yesterday": {
      const y = now.subtract(1, "day");
      return [y.startOf("day"), y.endOf("day")];
    }
    case "lastWeek":
      return [now.subtract(6, "day").startOf("day"), endToday];
    case "lastMonth":
      return [now.subtract(1, "month").add(1, "day").startOf("day"), endToday];
    case "today":
      return [now.startOf("day"), endToday];
    case "thisWeek":
      return [startOfIsoWeek(now), endToday];
    case "thisMonth":
      return [now.startOf("month"), endToday];
    case "thisYear":
      return [now.startOf("year"), endToday];
  }
}

/** Month pickers: this month, last month (the previous calendar month), this year (January to now). */
export const MONTH_SHORTCUTS = ["thisMonth", "lastMonth", "thisYear"] as const;
export type MonthShortcut = (typeof MONTH_SHORTCUTS)[number];

export function monthShortcutRange(key: MonthShortcut, now: Dayjs): [Dayjs, Dayjs] {
  const thisMonth = now.startOf("month");
  switch (key) {
    case "thisMonth":
      return [thisMonth, thisMonth];
    case "lastMonth": {
      const prev = thisMonth.subtract(1, "month");
      return [prev, prev];
    }
    case "thisYear":
      return [now.startOf("year"), thisMonth];
  }
}
