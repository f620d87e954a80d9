import type { Readable } from "node:stream";
import type { Lang } from "@tessera/contracts";
import { readXlsxRows, XlsxRefused, type XlsxLimits } from "../../../platform/xlsx";
import { CsvReader } from "./csv";
import type { RawRow } from "./validate";

/** The template's header row in each language (the import accepts any of them, and the column keys). */
export const TEMPLATE_HEADERS: Record<Lang, [string, string, string]> = {
  cn: ["卡号", "卡密", "有效期(YYYY-MM-DD)"],
  tw: ["卡號", "卡密", "有效期(YYYY-MM-DD)"],
  en: ["Card number", "Card secret", "Expiry date (YYYY-MM-DD)"],
};
const KEYS = ["cardnumber", "cardsecret", "expirydate"];

function norm(v: unknown): string {
  return (typeof v === "string" ? v : typeof v === "number" ? String(v) : "")
    .toLowerCase()
    .replace(/[(（].*$/, "")
    .replace(/[\s_-]/g, "");
}
const ALIASES: string[][] = [0, 1, 2].map((i) => [
  KEYS[i] ?? "",
  ...Object.values(TEMPLATE_HEADERS).map((h) => norm(h[i])),
]);

/** Whether a first row is the template header (the expiry column may be left out). */
export function isTemplateHeader(cells: unknown[]): boolean {
  const [a, b, c] = cells.map(norm);
  return Boolean(
    ALIASES[0]?.includes(a ?? "") &&
    ALIASES[1]?.includes(b ?? "") &&
    (c === undefined || c === "" || ALIASES[2]?.includes(c)),
  );
}

export type FileKind = "csv" | "xlsx";

export function kindOf(fileName: string): FileKind | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext === "csv" ? "csv" : ext === "xlsx" ? "xlsx" : null;
}

/** Thrown when the file is not what its name says (not a zip, broken CSV quoting ...). */
export class UnreadableFile extends Error {}

export interface FileRow {
  rowNo: number;
  cells: unknown[];
}

/** Rows of an xlsx file handed on together (a million rows one by one cost a promise each). */
const XLSX_BATCH = 1000;

/**
 * The rows of a CSV import, streamed, in batches: the first row is the header (rowNo 1), then data rows
 * with the file's own row numbers (records, as a spreadsheet shows them: a quoted field may span lines).
 * Memory stays bounded by one input chunk, whatever the size. An xlsx is read by readXlsxFileRows.
 */
export async function* readCsvRows(input: Readable): AsyncGenerator<FileRow[]> {
  try {
    const reader = new CsvReader();
    let rowNo = 0;
    const numbered = (records: string[][]) => records.map((cells) => ({ rowNo: ++rowNo, cells }));
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      const records = reader.push(chunk);
      if (records.length > 0) yield numbered(records);
    }
    const last = reader.end();
    if (last.length > 0) yield numbered(last);
  } catch (err) {
    if (err instanceof UnreadableFile) throw err;
    throw new UnreadableFile(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The caps of a card import's xlsx (issue 38 item 4), above a legitimate million-row file with margin.
 * Measured: a million rows of a 16-digit number, a 14-character secret and a date, as exceljs writes them,
 * is 31.5 MB zipped; its worksheet unpacks to 166 MB and its shared strings to 64 MB (10:1 and 4:1), or,
 * with inline strings, one 200 MB worksheet (7:1). Shared strings are held in memory while the rows
 * stream, so they get the tighter cap; the total bounds the work a file can ask for.
 */
export const XLSX_IMPORT_LIMITS: XlsxLimits = {
  maxTotalBytes: 640 * 1024 * 1024,
  maxEntryBytes: 512 * 1024 * 1024,
  maxSharedStringsBytes: 160 * 1024 * 1024,
  maxRatio: 100,
  // No row limit of its own: the byte caps bound a file (about three million rows).
  maxRows: Number.MAX_SAFE_INTEGER,
};

/** Refused before or while it is read: over XLSX_IMPORT_LIMITS (a zip bomb, or simply too big at once). */
export class FileTooLarge extends Error {}

/**
 * The rows of an xlsx import spooled to a file, in batches like readRows, read through the bounded
 * reader (platform/xlsx.ts): the zip's central directory is checked before anything inflates and the
 * bytes that do inflate are counted, so a bomb is refused instead of filling memory or the CPU.
 */
export async function* readXlsxFileRows(
  path: string,
  limits: XlsxLimits = XLSX_IMPORT_LIMITS,
): AsyncGenerator<FileRow[]> {
  let batch: FileRow[] = [];
  try {
    for await (const { rowNo, cells } of readXlsxRows({ path }, limits)) {
      batch.push({ rowNo, cells });
      if (batch.length >= XLSX_BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof XlsxRefused) {
      throw err.reason === "unreadable" ? new UnreadableFile(err.message) : new FileTooLarge(err.message);
    }
    throw err;
  }
  if (batch.length > 0) yield batch;
}

export function toRawRow(r: FileRow): RawRow {
  return { rowNo: r.rowNo, number: r.cells[0], secret: r.cells[1], expiry: r.cells[2] };
}
