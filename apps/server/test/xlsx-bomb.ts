import { createDeflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";

/**
 * Zip bombs for the import tests (issue 38 item 4): an xlsx whose first worksheet is replaced by many MB
 * of repeated row XML deflated to a small file, with honest or lying sizes in its headers.
 */

export interface Part {
  name: string;
  /** Deflated bytes. */
  data: Buffer;
  /** The uncompressed size written into the headers (a bomb may lie). */
  size: number;
}

/** The parts of a zip, inflated (test files only: small). */
function unzip(zip: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = zip.readUInt16LE(eocd + 10); n > 0; n--) {
    const method = zip.readUInt16LE(p + 10);
    const csize = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString("utf8", p + 46, p + 46 + nameLen);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + csize);
    out.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    p += 46 + nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return out;
}

/** A zip of deflated parts (CRCs left zero: nothing on the import path checks them). */
export function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(part.data.length, 18);
    head.writeUInt32LE(part.size, 22);
    head.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(part.data.length, 20);
    cd.writeUInt32LE(part.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    locals.push(head, name, part.data);
    central.push(cd, name);
    offset += 30 + name.length + part.data.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBytes, end]);
}

/** Deflates `repeat` copies of a row's XML between the sheet's head and tail, without holding them. */
export async function deflatedSheet(
  repeat: number,
  header: readonly string[] = [],
): Promise<{ data: Buffer; size: number }> {
  // An optional header row first, so an import's header check passes and the rows behind it are read.
  const cells = header
    .map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${h}</t></is></c>`)
    .join("");
  const head = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${header.length > 0 ? `<row r="1">${cells}</row>` : ""}`,
  );
  // Blank cells: they do not count toward an import's row limit, so only the byte limits can stop them.
  const row = Buffer.from('<row r="2"><c r="A2" t="inlineStr"><is><t> </t></is></c></row>'.repeat(16 * 1024));
  const tail = Buffer.from("</sheetData></worksheet>");
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  deflate.write(head);
  for (let i = 0; i < repeat; i++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end(tail);
  await done;
  return { data: Buffer.concat(chunks), size: head.length + repeat * row.length + tail.length };
}

/** A real workbook whose first sheet is replaced by `sheet`. */
export async function withSheet(sheet: Part, base?: Buffer): Promise<Buffer> {
  const parts = [...unzip(base ?? (await headerOnly()))].map(([name, data]) => ({
    name,
    data: deflateRawSync(data),
    size: data.length,
  }));
  return zipOf(parts.map((p) => (p.name === "xl/worksheets/sheet1.xml" ? { ...sheet, name: p.name } : p)));
}

async function headerOnly(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet("sheet").addRow(["name"]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
