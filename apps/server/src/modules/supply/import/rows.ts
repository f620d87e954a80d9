import type { Readable } from "node:stream";
import type { Lang } from "@tessera/contracts";
import { parse } from "csv-parse";
import type ExcelJS from "exceljs";
import { loadExcel } from "../../../platform/heavy-libraries";
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

/**
 * The rows of an import file, streamed: the first yielded row is the header (rowNo 1), then data
 * rows with the file's own row numbers. Memory stays bounded by one parser buffer, whatever the size.
 * XLSX files written with shared strings keep that string table in memory (the format requires it).
 */
export async function* readRows(input: Readable, kind: FileKind): AsyncGenerator<{ rowNo: number; cells: unknown[] }> {
  try {
    if (kind === "csv") {
      // Row numbers count records, as a spreadsheet shows them (a quoted field may span lines).
      // max_record_size: one malformed line (no newline for megabytes) must not grow memory without bound.
      const parser = input.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, max_record_size: 64 * 1024 }));
      input.on("error", (err) => parser.destroy(err));
      let rowNo = 0;
      for await (const record of parser as AsyncIterable<string[]>) {
        rowNo += 1;
        yield { rowNo, cells: record };
      }
      return;
    }
    const Excel = await loadExcel();
    const reader = new Excel.stream.xlsx.WorkbookReader(input, { sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", worksheets: "emit", entries: "emit" });
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        yield { rowNo: row.number, cells: values.slice(1) };
      }
      // Only the first worksheet holds codes.
      break;
    }
  } catch (err) {
    if (err instanceof UnreadableFile) throw err;
    const e = new UnreadableFile(err instanceof Error ? err.message : String(err));
    throw e;
  }
}

export function toRawRow(r: { rowNo: number; cells: unknown[] }): RawRow {
  return { rowNo: r.rowNo, number: r.cells[0], secret: r.cells[1], expiry: r.cells[2] };
}
