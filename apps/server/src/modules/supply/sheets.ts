import { PassThrough, type Readable } from "node:stream";
import { renderMessage, type Lang, type MessageKey } from "@tessera/contracts";
import { loadExcel } from "../../platform/heavy-libraries";
import { TEMPLATE_HEADERS } from "./import/rows";

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const REPORT_HEADERS: Record<Lang, [string, string, string]> = {
  cn: ["行号", "原因", "卡号（脱敏）"],
  tw: ["行號", "原因", "卡號（脫敏）"],
  en: ["Row", "Reason", "Card number (masked)"],
};

/** The import template: the header row in the user's language, text-formatted columns, one example row. */
export async function templateWorkbook(lang: Lang, today: Date): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("cards");
  ws.columns = TEMPLATE_HEADERS[lang].map((header) => ({ header, width: 28, style: { numFmt: "@" } }));
  ws.getRow(1).font = { bold: true };
  const nextYear = new Date(Date.UTC(today.getUTCFullYear() + 1, 11, 31)).toISOString().slice(0, 10);
  ws.addRow(["8800123456789012", "Q7WX-9KD2-LM4P", nextYear]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * The reject report of one import, streamed: row numbers and reasons in the user's language, read from
 * the database page by page and written to the reply as it goes.
 */
export function rejectReport(lang: Lang, pages: AsyncIterable<{ row_no: number; reason: string; number_mask: string }[]>): Readable {
  const out = new PassThrough();
  const write = async () => {
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const ws = wb.addWorksheet("rejects");
    ws.addRow(REPORT_HEADERS[lang]).commit();
    for await (const page of pages) {
      for (const r of page) ws.addRow([r.row_no, renderMessage(`supply.reject.${r.reason}` as MessageKey, lang), r.number_mask]).commit();
    }
    ws.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
