import { createReadStream } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { pipeline, Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";
import type ExcelJS from "exceljs";
import { loadExcel } from "./heavy-libraries";

/**
 * A cell of an uploaded .xlsx as the text a user typed: trimmed strings, numbers and booleans as written,
 * rich text joined, a hyperlink's text, a formula's result; empty for anything else. Every import reads
 * its cells through this, so a file saved by Excel, WPS or LibreOffice reads the same.
 */
export function cellText(v: ExcelJS.CellValue | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object" && "richText" in v) {
    return v.richText
      .map((r) => r.text)
      .join("")
      .trim();
  }
  if (typeof v === "object" && "text" in v) return String(v.text).trim();
  if (typeof v === "object" && "result" in v) {
    return typeof v.result === "string" || typeof v.result === "number" ? String(v.result).trim() : "";
  }
  return "";
}

/* ---------- bounded reading of uploaded workbooks ---------- */

/**
 * An uploaded .xlsx is a zip, and a zip can promise little and inflate to a lot: 0.44 MB of sheet XML
 * repeated rows became 150 MB, stalled the server 21 s and grew it to 2.6 GB when a whole workbook was
 * loaded (issue 38). So every import reads through `readXlsxRows`, which
 *
 * 1. reads the zip's central directory first and refuses, before inflating anything, a file whose declared
 *    uncompressed sizes pass the total or per-entry cap, or whose large entries claim a compression ratio
 *    no spreadsheet has (zip64, encryption and unknown methods are refused too: an import never needs them);
 * 2. inflates only the parts a row reader needs (workbook, its relations, shared strings, the first
 *    worksheet), counting the bytes that actually come out, and stops at the cap or at the entry's declared
 *    size, whichever comes first: the declared sizes may lie;
 * 3. hands those parts to exceljs's streaming reader as a stored (uncompressed) zip, shared strings before
 *    the worksheet so that rows stream straight from the inflater (never via temporary files), and stops
 *    at the caller's row limit.
 */
export interface XlsxLimits {
  /** Sum of the declared (and of the actual) uncompressed sizes of the parts read. */
  maxTotalBytes: number;
  /** One part's uncompressed size. */
  maxEntryBytes: number;
  /** Uncompressed : compressed, checked on parts over RATIO_FLOOR_BYTES (tiny parts compress oddly well). */
  maxRatio: number;
  /** Non-blank rows after the header; reading stops at the first row past it. */
  maxRows: number;
  /**
   * The shared strings part's uncompressed size (default maxEntryBytes). The reader keeps every shared
   * string in memory, so this part costs heap where the worksheet only streams: a large import caps it
   * tighter than its worksheet.
   */
  maxSharedStringsBytes?: number;
}

export const DEFAULT_XLSX_LIMITS: Omit<XlsxLimits, "maxRows"> = {
  maxTotalBytes: 50 * 1024 * 1024,
  maxEntryBytes: 50 * 1024 * 1024,
  maxRatio: 100,
};

/** Parts under this size are not held to the ratio: a 2 kB XML file of one repeated tag may compress 200:1. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/**
 * Why a workbook was refused: `unreadable` (not an xlsx zip), `tooLarge` (caps or ratio: a bomb, or simply
 * too big to import at once), `tooManyRows` (past the caller's row limit).
 */
export class XlsxRefused extends Error {
  constructor(
    readonly reason: "unreadable" | "tooLarge" | "tooManyRows",
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** The message key and parameters of a `tooLarge` refusal, in the three languages (contracts). */
export function tooLargeMessage(limits: Pick<XlsxLimits, "maxTotalBytes">): {
  key: "import.fileTooLarge";
  params: { max: number };
} {
  return { key: "import.fileTooLarge", params: { max: Math.floor(limits.maxTotalBytes / (1024 * 1024)) } };
}

/** An uploaded workbook: in memory, or a file on disk (a large import spooled from its request). */
export type XlsxSource = Buffer | { path: string };

/** Random access to the zip's bytes: headers are read by position, an entry's data as a buffer or a stream. */
interface ZipBytes {
  size: number;
  read(start: number, length: number): Promise<Buffer>;
  raw(start: number, length: number): Buffer | Readable;
}

function bufferBytes(zip: Buffer): ZipBytes {
  return {
    size: zip.length,
    read: (start, length) => Promise.resolve(zip.subarray(start, start + length)),
    raw: (start, length) => zip.subarray(start, start + length),
  };
}

/**
 * A file's bytes: headers read through one handle, each part's data streamed through a read stream of its
 * own (one on the shared handle closes it when it ends); only headers and inflating chunks are in memory.
 */
async function fileBytes(handle: FileHandle, file: string): Promise<ZipBytes> {
  const { size } = await handle.stat();
  return {
    size,
    read: async (start, length) => {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - start)));
      const { bytesRead } = await handle.read(buf, 0, buf.length, start);
      return buf.subarray(0, bytesRead);
    },
    raw: (start, length) =>
      length === 0
        ? Buffer.alloc(0)
        : createReadStream(file, { start, end: start + length - 1, highWaterMark: 64 * 1024 }),
  };
}

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  dataStart: number;
}

const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const SHARED_STRINGS = "xl/sharedStrings.xml";

/** The central directory's entries, checked against the limits; nothing is inflated yet. */
async function centralDirectory(zip: ZipBytes, limits: XlsxLimits): Promise<ZipEntry[]> {
  const unreadable = (why: string) => new XlsxRefused("unreadable", why);
  // The end record is in the last 22 + 65535 (comment) bytes.
  const tailStart = Math.max(0, zip.size - 22 - 0xffff);
  const tail = await zip.read(tailStart, zip.size - tailStart);
  let eocdAt = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIG) {
      eocdAt = i;
      break;
    }
  }
  if (eocdAt < 0) throw unreadable("no end of central directory");
  const eocd = tailStart + eocdAt;
  const count = tail.readUInt16LE(eocdAt + 10);
  const cdSize = tail.readUInt32LE(eocdAt + 12);
  const cdOffset = tail.readUInt32LE(eocdAt + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw unreadable("zip64");
  if (cdOffset + cdSize > eocd) throw unreadable("central directory out of range");
  const cd = await zip.read(cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let declaredTotal = 0;
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIG) throw unreadable("bad central directory entry");
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const crc = cd.readUInt32LE(p + 16);
    const compressedSize = cd.readUInt32LE(p + 20);
    const size = cd.readUInt32LE(p + 24);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    const localOffset = cd.readUInt32LE(p + 42);
    if (p + 46 + nameLen > cd.length) throw unreadable("bad central directory entry");
    const name = cd.toString("utf8", p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) throw unreadable("zip64");
    if (flags & 1) throw unreadable("encrypted");
    if (method !== 0 && method !== 8) throw unreadable(`compression method ${method}`);
    if (size > limits.maxEntryBytes) throw new XlsxRefused("tooLarge", `${name} declares ${size} bytes`);
    if (name === SHARED_STRINGS && size > (limits.maxSharedStringsBytes ?? limits.maxEntryBytes)) {
      throw new XlsxRefused("tooLarge", `${name} declares ${size} bytes`);
    }
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) {
      throw new XlsxRefused("tooLarge", `declared ${declaredTotal} bytes in all`);
    }
    if (size > RATIO_FLOOR_BYTES && size > limits.maxRatio * Math.max(compressedSize, 1)) {
      throw new XlsxRefused("tooLarge", `${name} declares a ${Math.round(size / Math.max(compressedSize, 1))}:1 ratio`);
    }
    const local = localOffset + 30 <= zip.size ? await zip.read(localOffset, 30) : Buffer.alloc(0);
    if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_SIG) throw unreadable("bad local header");
    const dataStart = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (dataStart + compressedSize > zip.size) throw unreadable("entry out of range");
    entries.push({ name, method, crc, compressedSize, size, dataStart });
  }
  return entries;
}

/** The parts a row reader needs, in the order it needs them (relations and shared strings before the sheet). */
function partsToRead(entries: ZipEntry[]): ZipEntry[] {
  const named = (n: string) => entries.find((e) => e.name === n);
  const sheets = entries
    .map((e) => ({ e, no: /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(e.name)?.[1] }))
    .filter((s): s is { e: ZipEntry; no: string } => s.no !== undefined)
    .sort((a, b) => Number(a.no) - Number(b.no));
  const first = sheets[0]?.e;
  if (!first) throw new XlsxRefused("unreadable", "no worksheet");
  return [named("xl/_rels/workbook.xml.rels"), named("xl/workbook.xml"), named(SHARED_STRINGS), first].filter(
    (e): e is ZipEntry => e !== undefined,
  );
}

/** One part's bytes as they inflate, counted against its declared size and the running total. */
async function* inflated(zip: ZipBytes, e: ZipEntry, budget: { left: number }): AsyncGenerator<Buffer> {
  const raw = zip.raw(e.dataStart, e.compressedSize);
  let seen = 0;
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    budget.left -= chunk.length;
    // The declared size was checked against the caps; a part that inflates past it is lying.
    if (seen > e.size || budget.left < 0) throw new XlsxRefused("tooLarge", `${e.name} inflates past ${e.size} bytes`);
  };
  let held: Buffer | undefined;
  let out: Iterable<Buffer> | AsyncIterable<Buffer>;
  const streams: { destroy(): void }[] = Buffer.isBuffer(raw) ? [] : [raw];
  if (e.method === 0) {
    out = Buffer.isBuffer(raw) ? [raw] : (raw as AsyncIterable<Buffer>);
  } else {
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
    streams.push(inflater);
    if (Buffer.isBuffer(raw)) inflater.end(raw);
    // From disk: a read error destroys the inflater too, and iterating it then throws that error.
    else pipeline(raw, inflater, () => undefined);
    out = inflater as AsyncIterable<Buffer>;
  }
  // One chunk is held back until the next is counted (or the part ends): the reader must never receive a
  // part's declared size in full before the part is known not to inflate past it, or it could finish the
  // sheet and stop before the refusal is seen.
  try {
    for await (const chunk of out) {
      count(chunk);
      if (held) yield held;
      held = chunk;
    }
  } catch (err) {
    if (err instanceof XlsxRefused) throw err;
    throw new XlsxRefused("unreadable", `${e.name}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    for (const s of streams) s.destroy();
  }
  if (seen !== e.size) {
    throw new XlsxRefused("unreadable", `${e.name} inflates to ${seen} bytes, not the ${e.size} declared`);
  }
  if (held) yield held;
}

/**
 * The parts as a zip of stored entries (exceljs's streaming reader takes a zip stream): each local header
 * names the declared size, the inflated bytes follow as they are checked, then a central directory.
 */
async function* storedZip(zip: ZipBytes, parts: ZipEntry[], limits: XlsxLimits): AsyncGenerator<Buffer> {
  const budget = { left: limits.maxTotalBytes };
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of parts) {
    const name = Buffer.from(e.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_SIG, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.size, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(CENTRAL_SIG, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt32LE(e.crc, 16);
    cd.writeUInt32LE(e.size, 20);
    cd.writeUInt32LE(e.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    yield Buffer.concat([local, name]);
    yield* inflated(zip, e, budget);
    offset += 30 + name.length + e.size;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD_SIG, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([cdBytes, end]);
}

export interface XlsxRow {
  /** The row number as the spreadsheet shows it. */
  rowNo: number;
  /** The cells from column A (exceljs values; read them with `cellText`). */
  cells: ExcelJS.CellValue[];
}

/**
 * The rows of an uploaded workbook's first worksheet, streamed, header included. Throws `XlsxRefused`:
 * before inflating anything when the central directory is over the limits, while reading when the actual
 * bytes are, and at the first non-blank row past `maxRows` (+1 for the header). A workbook too large to
 * hold in memory is read from a file (`{ path }`): only its headers and the inflating parts are held.
 */
export async function* readXlsxRows(file: XlsxSource, limits: XlsxLimits): AsyncGenerator<XlsxRow> {
  if (Buffer.isBuffer(file)) {
    yield* rowsOf(bufferBytes(file), limits);
    return;
  }
  let handle: FileHandle;
  try {
    handle = await open(file.path, "r");
  } catch (err) {
    throw new XlsxRefused("unreadable", err instanceof Error ? err.message : String(err));
  }
  try {
    yield* rowsOf(await fileBytes(handle, file.path), limits);
  } finally {
    await handle.close();
  }
}

async function* rowsOf(file: ZipBytes, limits: XlsxLimits): AsyncGenerator<XlsxRow> {
  const parts = partsToRead(await centralDirectory(file, limits));
  // A refusal inside the zip stream ends the stream rather than failing it, and the wait for the next
  // row races the refusal: exceljs pipes its input into the unzipper, and neither a pipe nor the unzipper
  // passes on a failed or cut-off input (a part stopped mid-way leaves the reader waiting forever). The
  // abandoned reader holds nothing once the source is destroyed.
  let refused: XlsxRefused | undefined;
  let refuse: (e: XlsxRefused) => void = () => undefined;
  const refusal = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  refusal.catch(() => undefined);
  async function* guarded(): AsyncGenerator<Buffer> {
    try {
      yield* storedZip(file, parts, limits);
    } catch (err) {
      refused =
        err instanceof XlsxRefused
          ? err
          : new XlsxRefused("unreadable", err instanceof Error ? err.message : String(err));
      refuse(refused);
    }
  }
  const source = Readable.from(guarded(), { objectMode: false });
  const next = <T>(step: Promise<T>): Promise<T> => Promise.race([step, refusal]);
  const Excel = await loadExcel();
  const reader = new Excel.stream.xlsx.WorkbookReader(source, {
    sharedStrings: "cache",
    hyperlinks: "ignore",
    styles: "ignore",
    worksheets: "emit",
    entries: "ignore",
  });
  let rows = 0;
  try {
    // Only the first worksheet was handed over.
    const sheet = await next(reader[Symbol.asyncIterator]().next());
    if (sheet.done) throw new XlsxRefused("unreadable", "no worksheet");
    const sheetRows = (sheet.value as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
    for (;;) {
      const step = await next(sheetRows.next());
      if (step.done) break;
      const row = step.value;
      const cells = (row.values as ExcelJS.CellValue[]).slice(1);
      if (row.number > 1 && cells.some((c) => cellText(c) !== "") && ++rows > limits.maxRows) {
        throw new XlsxRefused("tooManyRows", `more than ${limits.maxRows} rows`);
      }
      yield { rowNo: row.number, cells };
    }
  } catch (err) {
    if (err instanceof XlsxRefused) throw err;
    throw refused ?? new XlsxRefused("unreadable", err instanceof Error ? err.message : String(err));
  } finally {
    source.destroy();
  }
  if (refused) throw refused;
}
