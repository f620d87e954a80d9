import { PassThrough, type Readable } from "node:stream";
import { renderMessage, TEMPLATE_EXAMPLE_CARD, type Lang, type MessageKey } from "@tessera/contracts";
import { loadExcel } from "../../platform/heavy-libraries";
import { TEMPLATE_HEADERS } from "./import/rows";

export const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const REPORT_HEADERS: Record<Lang, [string, string, string]> = {
  cn: ["行号", "原因", "卡号（脱敏）"],
  tw: ["行號", "原因", "卡號（脫敏）"],
  en: ["Row", "Reason", "Card number (masked)"],
};

const INSTRUCTIONS: Record<Lang, { title: string; lines: string[]; example: string }> = {
  cn: {
    title: "填写说明",
    lines: [
      "在「cards」工作表中每行填写一张卡：卡号、卡密、有效期（YYYY-MM-DD，长期有效可不填）。",
      "三列均按文本填写，卡号不要以数字格式保存，以免丢失前导零。",
      "下面是一行示例，仅用于说明格式：导入时会被拒绝，不会成为库存。",
    ],
    example: "示例",
  },
  tw: {
    title: "填寫說明",
    lines: [
      "在「cards」工作表中每行填寫一張卡：卡號、卡密、有效期（YYYY-MM-DD，長期有效可不填）。",
      "三欄均按文字填寫，卡號不要以數字格式保存，以免遺失前導零。",
      "下面是一行示例，僅用於說明格式：匯入時會被拒絕，不會成為庫存。",
    ],
    example: "示例",
  },
  en: {
    title: "How to fill in",
    lines: [
      'In the "cards" sheet, one card per row: card number, card secret, expiry date (YYYY-MM-DD; leave it empty when the code does not expire).',
      "Keep all three columns as text, so card numbers keep their leading zeros.",
      "The row below only shows the format: an import refuses it, it never becomes stock.",
    ],
    example: "Example",
  },
};

/**
 * The import template: the data sheet "cards" (the header row in the user's language, text-formatted
 * columns, nothing else: a template imported as downloaded adds no card) and an instructions sheet with
 * an example row, which the import never reads (only the first sheet holds codes) and refuses if pasted.
 */
export async function templateWorkbook(lang: Lang, today: Date): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("cards");
  ws.columns = TEMPLATE_HEADERS[lang].map((header) => ({ header, width: 28, style: { numFmt: "@" } }));
  ws.getRow(1).font = { bold: true };
  const help = INSTRUCTIONS[lang];
  const info = wb.addWorksheet(help.title);
  info.getColumn(1).width = 110;
  info.addRow([help.title]).font = { bold: true };
  for (const line of help.lines) info.addRow([line]);
  info.addRow([]);
  const nextYear = new Date(Date.UTC(today.getUTCFullYear() + 1, 11, 31)).toISOString().slice(0, 10);
  info.addRow([`${help.example}: ${TEMPLATE_HEADERS[lang].join(" | ")}`]);
  info.addRow([`${help.example}: ${TEMPLATE_EXAMPLE_CARD.number} | ${TEMPLATE_EXAMPLE_CARD.secret} | ${nextYear}`]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * The reject report of one import, streamed: row numbers and reasons in the user's language, read from
 * the database page by page and written to the reply as it goes.
 */
export function rejectReport(
  lang: Lang,
  pages: AsyncIterable<{ row_no: number; reason: string; number_mask: string }[]>,
): Readable {
  const out = new PassThrough();
  const write = async () => {
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const ws = wb.addWorksheet("rejects");
    ws.addRow(REPORT_HEADERS[lang]).commit();
    for await (const page of pages) {
      for (const r of page) {
        ws.addRow([r.row_no, renderMessage(`supply.reject.${r.reason}` as MessageKey, lang), r.number_mask]).commit();
      }
    }
    ws.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
