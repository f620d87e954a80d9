import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type PDFKit from "pdfkit";

/**
 * What the server's printable PDFs share: pdfkit (loaded on first use) and Noto Sans SC, embedded as a
 * subset so Chinese text shows in every reader and can be extracted. `pdfDocument` gives a document with
 * the font registered as "cjk" (regular) and "cjk-bold", and `done` resolves to the finished file once
 * the caller has called `doc.end()`.
 */
const require = createRequire(import.meta.url);
let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
let pdfkit: Promise<typeof PDFKit> | undefined;

function fonts(): Promise<{ regular: Buffer; bold: Buffer }> {
  fontBytes ??= Promise.all([
    readFile(require.resolve("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf")),
    readFile(require.resolve("@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf")),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return fontBytes;
}

function loadPdfkit(): Promise<typeof PDFKit> {
  pdfkit ??= import("pdfkit").then((m) => m.default);
  return pdfkit;
}

export type PdfDoc = PDFKit.PDFDocument;

export async function pdfDocument(options: PDFKit.PDFDocumentOptions): Promise<{ doc: PdfDoc; done: Promise<Buffer> }> {
  const [PDFDocument, f] = await Promise.all([loadPdfkit(), fonts()]);
  const doc = new PDFDocument(options);
  doc.registerFont("cjk", f.regular);
  doc.registerFont("cjk-bold", f.bold);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, done };
}

export interface PdfColumn {
  title: string;
  /** Width in points. */
  width: number;
  align: "left" | "right";
}

/**
 * A ruled table from `top`: the header row in bold, then one line per row (cut with an ellipsis when
 * too long), a new page when the page is full. Returns where the table ends.
 */
export function pdfTable(
  doc: PdfDoc,
  at: { left: number; top: number; width: number },
  columns: PdfColumn[],
  rows: string[][],
): number {
  let y = at.top;
  const row = (cells: string[], bold: boolean) => {
    let x = at.left;
    doc
      .font(bold ? "cjk-bold" : "cjk")
      .fontSize(9)
      .fillColor(bold ? "#111" : "#333");
    columns.forEach((c, i) => {
      doc.text(cells[i] ?? "", x, y, { width: c.width - 4, align: c.align, lineBreak: false, ellipsis: true });
      x += c.width;
    });
    y += 16;
    if (y > 780) {
      doc.addPage();
      y = 40;
    }
  };
  doc
    .moveTo(at.left, y - 4)
    .lineTo(at.left + at.width, y - 4)
    .strokeColor("#999")
    .lineWidth(0.6)
    .stroke();
  row(
    columns.map((c) => c.title),
    true,
  );
  doc
    .moveTo(at.left, y - 2)
    .lineTo(at.left + at.width, y - 2)
    .stroke();
  for (const r of rows) row(r, false);
  doc
    .moveTo(at.left, y)
    .lineTo(at.left + at.width, y)
    .stroke();
  return y;
}
