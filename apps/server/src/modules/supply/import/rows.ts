import type { Readable } from "node:stream";
import type { Lang } from "@tessera/contracts";
import type ExcelJS from "exceljs";
import { loadExcel } from "../../../platform/heavy-libraries";
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
const ALIASES: string[][] = [0, 1, 2].map((i) => [KEYS[i] ?? "", ...Object.values(TEMPLATE_HEADERS).map((h) => norm(h[i]))]);

/** Whether a first row is the template header (the expiry column may be left out). */
export function isTemplateHeader(cells: unknown[]): boolean {
  const [a, b, c] = cells.map(norm);
  return Boolean(ALIASES[0]?.includes(a ?? "") && ALIASES[1]?.includes(b ?? "") && (c === undefined || c === "" || ALIASES[2]?.includes(c)));
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
 * The rows of an import file, streamed, in batches: the first row is the header (rowNo 1), then data
 * rows with the file's own row numbers. Memory stays bounded by one input chunk, whatever the size.
 * XLSX files written with shared strings keep that string table in memory (the format requires it).
 */
export async function* readRows(input: Readable, kind: FileKind): AsyncGenerator<FileRow[]> {
  try {
    if (kind === "csv") {
      // Row numbers count records, as a spreadsheet shows them (a quoted field may span lines).
      const reader = new CsvReader();
      let rowNo = 0;
      const numbered = (records: string[][]) => records.map((cells) => ({ rowNo: ++rowNo, cells }));
      for await (const chunk of input as AsyncIterable<Buffer | string>) {
        const records = reader.push(chunk);
        if (records.length > 0) yield numbered(records);
      }
      const last = reader.end();
      if (last.length > 0) yield numbered(last);
      return;
    }
    const Excel = await loadExcel();
    const reader = new Excel.stream.xlsx.WorkbookReader(input, { sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", worksheets: "emit", entries: "emit" });
    for await (const sheet of reader) {
      let batch: FileRow[] = [];
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        batch.push({ rowNo: row.number, cells: values.slice(1) });
        if (batch.length >= XLSX_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
      // Only the first worksheet holds codes.
      break;
    }
  } catch (err) {
    if (err instanceof UnreadableFile) throw err;
    const e = new UnreadableFile(err instanceof Error ? err.message : String(err));
    throw e;
  }
}

export function toRawRow(r: FileRow): RawRow {
  return { rowNo: r.rowNo, number: r.cells[0], secret: r.cells[1], expiry: r.cells[2] };
}
