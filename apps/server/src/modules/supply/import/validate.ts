import { CARD_NUMBER_RE, CARD_SECRET_RE, TEMPLATE_EXAMPLE_CARD, type RejectReason } from "@tessera/contracts";

/** One data row of an import file as read (cells as strings, numbers or dates). */
export interface RawRow {
  rowNo: number;
  number: unknown;
  secret: unknown;
  expiry: unknown;
}

export type CheckedRow =
  | { ok: true; rowNo: number; number: string; secret: string; expiresOn: string | null }
  | { ok: false; rowNo: number; reason: RejectReason; number: string };

const DATE_RE = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v.trim();
  if (typeof v === "number") return Number.isSafeInteger(v) ? String(v) : String(v);
  if (typeof v === "object" && "text" in v && typeof v.text === "string") return v.text.trim();
  if (typeof v === "object" && "richText" in v && Array.isArray(v.richText)) {
    return (v.richText as { text?: string }[])
      .map((r) => r.text ?? "")
      .join("")
      .trim();
  }
  if (typeof v === "object" && "result" in v) return cellText(v.result);
  return "";
}

/** Imports repeat a handful of expiry dates a million times: remember the parsed text of recent ones. */
const dateCache = new Map<string, string | null | undefined>();

/** YYYY-MM-DD, or null for an empty cell, or undefined when it is not a date. */
function parseDate(v: unknown): string | null | undefined {
  if (typeof v === "string") {
    if (dateCache.has(v)) return dateCache.get(v);
    const parsed = parseDateUncached(v);
    if (dateCache.size >= 1000) dateCache.clear();
    dateCache.set(v, parsed);
    return parsed;
  }
  return parseDateUncached(v);
}

function parseDateUncached(v: unknown): string | null | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v.toISOString().slice(0, 10);
  // A date cell read without styles is an Excel serial day number.
  if (typeof v === "number") {
    return v > 0 && v < 2958466
      ? new Date(EXCEL_EPOCH_MS + Math.floor(v) * 86_400_000).toISOString().slice(0, 10)
      : undefined;
  }
  const s = cellText(v);
  if (s === "") return null;
  const m = DATE_RE.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * Example codes of import templates, today's and the one earlier templates carried in their data sheet:
 * a template imported as downloaded must not put its example on sale.
 */
const EXAMPLE_CODES = new Set([
  `${TEMPLATE_EXAMPLE_CARD.number}\0${TEMPLATE_EXAMPLE_CARD.secret}`,
  "8800123456789012\0Q7WX-9KD2-LM4P",
]);

/** The per-row rules of a card import; `today` is YYYY-MM-DD. A code expiring today is still accepted. */
export function checkRow(raw: RawRow, today: string): CheckedRow {
  const number = cellText(raw.number);
  const secret = cellText(raw.secret);
  const reject = (reason: RejectReason): CheckedRow => ({ ok: false, rowNo: raw.rowNo, reason, number });
  if (number === "") return reject("numberMissing");
  if (EXAMPLE_CODES.has(`${number}\0${secret}`)) return reject("exampleRow");
  if (!CARD_NUMBER_RE.test(number)) return reject("numberMalformed");
  if (secret === "") return reject("secretMissing");
  if (!CARD_SECRET_RE.test(secret)) return reject("secretMalformed");
  const expiresOn = parseDate(raw.expiry);
  if (expiresOn === undefined) return reject("expiryMalformed");
  if (expiresOn !== null && expiresOn < today) return reject("expiryPast");
  return { ok: true, rowNo: raw.rowNo, number, secret, expiresOn };
}

export function isBlankRow(raw: RawRow): boolean {
  return cellText(raw.number) === "" && cellText(raw.secret) === "" && cellText(raw.expiry) === "";
}
