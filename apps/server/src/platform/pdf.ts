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
