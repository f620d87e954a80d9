/**
 * CSV files we write (the bank payout file) hold merchant-entered text, and a spreadsheet opening them
 * runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a formula:
 * `=HYPERLINK(...)` in a company name would run on the operator's machine (CSV injection, OWASP). So a
 * text cell starting with one of those is neutralised with a leading `'`, and every cell is quoted per
 * RFC 4180 when it holds a quote, comma, CR or LF. Numbers we computed are written as they are (a negative
 * amount stays a number). The xlsx exports (platform/http/export.ts) need none of this: exceljs writes a
 * string as a string cell, never as a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(v: string | number): string {
  if (typeof v === "number") return String(v);
  const s = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record, CRLF-terminated as RFC 4180 asks. */
export function csvRow(cells: readonly (string | number)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
