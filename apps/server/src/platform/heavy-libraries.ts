import type ExcelJSModule from "exceljs";
import type sharpModule from "sharp";

/**
 * Libraries loaded on first use. Each costs about 30 MB of resident memory once loaded; a server that
 * never writes a spreadsheet or resizes an image (or has not yet) should not carry them.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

export const loadExcel: () => Promise<typeof ExcelJSModule> = once(async () => (await import("exceljs")).default);
export const loadSharp: () => Promise<typeof sharpModule> = once(async () => (await import("sharp")).default);
