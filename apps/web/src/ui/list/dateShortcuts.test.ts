import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { DATE_SHORTCUTS, monthShortcutRange, shortcutRange } from "./dateShortcuts";

const fmt = ([a, b]: [dayjs.Dayjs, dayjs.Dayjs]) => [a.format("YYYY-MM-DD HH:mm:ss"), b.format("YYYY-MM-DD HH:mm:ss")];
// Wednesday 2026-11-18 15:30.
const now = dayjs("2026-11-18T15:30:00");

describe("date shortcuts (spec 01 §2)", () => {
  it("offers the seven shortcuts in the spec's order", () => {
    expect(DATE_SHORTCUTS).toEqual([
      "yesterday",
      "lastWeek",
      "lastMonth",
      "today",
      "thisWeek",
      "thisMonth",
      "thisYear",
    ]);
  });
  it("computes whole-day ranges", () => {
    expect(fmt(shortcutRange("yesterday", now))).toEqual(["2026-11-17 00:00:00", "2026-11-17 23:59:59"]);
    expect(fmt(shortcutRange("today", now))).toEqual(["2026-11-18 00:00:00", "2026-11-18 23:59:59"]);
    expect(fmt(shortcutRange("lastWeek", now))).toEqual(["2026-11-12 00:00:00", "2026-11-18 23:59:59"]);
    expect(fmt(shortcutRange("lastMonth", now))).toEqual(["2026-10-19 00:00:00", "2026-11-18 23:59:59"]);
    expect(fmt(shortcutRange("thisWeek", now))).toEqual(["2026-11-16 00:00:00", "2026-11-18 23:59:59"]);
    expect(fmt(shortcutRange("thisMonth", now))).toEqual(["2026-11-01 00:00:00", "2026-11-18 23:59:59"]);
    expect(fmt(shortcutRange("thisYear", now))).toEqual(["2026-01-01 00:00:00", "2026-11-18 23:59:59"]);
  });
  it("weeks start on Monday, also on a Sunday", () => {
    const sunday = dayjs("2026-11-22T09:00:00");
    expect(shortcutRange("thisWeek", sunday)[0].format("YYYY-MM-DD")).toBe("2026-11-16");
  });
  it("month shortcuts", () => {
    const m = (r: [dayjs.Dayjs, dayjs.Dayjs]) => r.map((d) => d.format("YYYY-MM"));
    expect(m(monthShortcutRange("thisMonth", now))).toEqual(["2026-11", "2026-11"]);
    expect(m(monthShortcutRange("lastMonth", now))).toEqual(["2026-10", "2026-10"]);
    expect(m(monthShortcutRange("thisYear", now))).toEqual(["2026-01", "2026-11"]);
  });
});
