import { loadExcel } from "../heavy-libraries";
import type { FastifyReply } from "fastify";
import { fileDuration } from "../metrics";
import { displayCell } from "../clock";

export interface ExportColumn<Row> {
  header: string;
  width?: number;
  value: (row: Row) => string | number | Date | null;
}

/**
 * The export hook of every list: writes the rows as an .xlsx workbook and sends it as a download.
 * Lists stream their rows in pages, so a 1000-row export never holds more than it must.
 */
export async function sendXlsx<Row>(
  reply: FastifyReply,
  fileName: string,
  columns: ExportColumn<Row>[],
  rows: AsyncIterable<Row[]> | Row[][],
): Promise<FastifyReply> {
  const stopTimer = fileDuration.startTimer({ kind: "export" });
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("export");
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 20 }));
  sheet.getRow(1).font = { bold: true };
  for await (const batch of rows) {
    for (const row of batch) sheet.addRow(columns.map((c) => displayCell(c.value(row))));
  }
  const buffer = await workbook.xlsx.writeBuffer();
  stopTimer();
  return reply
    .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}.xlsx`)
    .send(Buffer.from(buffer));
}
