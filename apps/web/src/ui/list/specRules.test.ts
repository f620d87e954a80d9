import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/**
 * Issue 40, item 18 (spec 01 §2): every date-range picker offers the seven date shortcuts (a day range takes
 * `presets={datePresets}` from useDatePresets; a range of months has its own month shortcuts), and every table
 * that lets the reader choose a page size offers the spec's five.
 */
const SRC = path.resolve(import.meta.dirname, "../..");
const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter(
  (f) => f.endsWith(".tsx") && !f.includes("node_modules"),
);

it("every day-range picker offers the seven shortcuts", () => {
  const without: string[] = [];
  for (const file of files) {
    const source = readFileSync(path.join(SRC, file), "utf8");
    for (const match of source.matchAll(/<DatePicker\.RangePicker\b[\s\S]*?\/>/g)) {
      const picker = match[0];
      if (/picker="month"/.test(picker)) continue;
      if (!/presets=\{[^}]*datePresets/.test(picker)) without.push(file);
    }
  }
  expect(without).toEqual([]);
});

it("every table that lets the reader change its page size offers 20, 50, 100, 200 and 1000 (PAGE_SIZES)", () => {
  const other: string[] = [];
  for (const file of files) {
    const source = readFileSync(path.join(SRC, file), "utf8");
    for (const match of source.matchAll(/pageSizeOptions[:=]\s*\{?([^,}\n]+)/g)) {
      if (!/PAGE_SIZES/.test(match[1] ?? "")) other.push(file);
    }
  }
  expect(other).toEqual([]);
});
