import type ExcelJS from "exceljs";

/**
 * A cell of an uploaded .xlsx as the text a user typed: trimmed strings, numbers and booleans as written,
 * rich text joined, a hyperlink's text, a formula's result; empty for anything else. Every import reads
 * its cells through this, so a file saved by Excel, WPS or LibreOffice reads the same.
 */
export function cellText(v: ExcelJS.CellValue | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object" && "richText" in v) return v.richText.map((r) => r.text).join("").trim();
  if (typeof v === "object" && "text" in v) return String(v.text).trim();
  if (typeof v === "object" && "result" in v) return typeof v.result === "string" || typeof v.result === "number" ? String(v.result).trim() : "";
  return "";
}
