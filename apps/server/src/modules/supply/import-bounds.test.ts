import { readdir } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { createDeflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";
import type { CardBatch, Page } from "@tessera/contracts";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { deflatedSheet, withSheet, zipOf, type Part } from "../../../test/xlsx-bomb";
import { importFile, newBrand, newGoods, newMerchant, type TestMerchant } from "../../../test/kit/catalog-fixtures";
import { XLSX_IMPORT_LIMITS } from "./import/rows";

/**
 * The card-secret import is bounded before it is parsed (issue 38 item 4): its xlsx is spooled under
 * DATA_DIR and read through platform/xlsx.ts, so a shared-strings or worksheet bomb is refused without
 * inflating, and a legitimate million-row file stays under the caps.
 */
const t = useTestApp();
let a: TestMerchant;
let brandId: number;
beforeAll(async () => {
  a = await newMerchant(t, "Bounded Supplier");
  brandId = (await newBrand(t, a, "Bounded Cards")).id;
});

const HEADER = ["Card number", "Card secret", "Expiry date (YYYY-MM-DD)"];
const TOO_LARGE =
  "The file unpacks to more than 640 MB (or its shared strings to more than 160 MB) or is compressed abnormally, so it cannot be imported; please split it into smaller files";

/** `repeat` MB of shared strings (each `<si>` one string) deflated without holding them. */
async function deflatedSharedStrings(repeat: number): Promise<{ data: Buffer; size: number }> {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">',
  );
  const block = Buffer.from("<si><t>x</t></si>".repeat(64 * 1024));
  const tail = Buffer.from("</sst>");
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  deflate.write(head);
  for (let i = 0; i < repeat; i++) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end(tail);
  await done;
  return { data: Buffer.concat(chunks), size: head.length + repeat * block.length + tail.length };
}

/** A real card workbook (header and one code, shared strings) with one part replaced. */
async function bomb(part: Part): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("cards");
  ws.addRow(HEADER);
  ws.addRow(["BOMB-0001", "S1", ""]);
  const base = Buffer.from(await wb.xlsx.writeBuffer());
  if (part.name === "xl/worksheets/sheet1.xml") return withSheet(part, base);
  // withSheet replaces only the worksheet: the shared strings are swapped here the same way.
  const parts: Part[] = [];
  const eocd = base.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let p = base.readUInt32LE(eocd + 16);
  for (let n = base.readUInt16LE(eocd + 10); n > 0; n--) {
    const method = base.readUInt16LE(p + 10);
    const csize = base.readUInt32LE(p + 20);
    const nameLen = base.readUInt16LE(p + 28);
    const local = base.readUInt32LE(p + 42);
    const name = base.toString("utf8", p + 46, p + 46 + nameLen);
    const start = local + 30 + base.readUInt16LE(local + 26) + base.readUInt16LE(local + 28);
    const raw = base.subarray(start, start + csize);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    parts.push(name === part.name ? part : { name, data: deflateRawSync(data), size: data.length });
    p += 46 + nameLen + base.readUInt16LE(p + 30) + base.readUInt16LE(p + 32);
  }
  if (!parts.some((x) => x.name === part.name)) throw new Error(`no ${part.name} in the base workbook`);
  return zipOf(parts);
}

async function spooled(): Promise<string[]> {
  return readdir(path.join(t.ctx.config.dataDir, "imports")).catch(() => []);
}

describe("the card import's xlsx is bounded before it is parsed", () => {
  it("refuses shared-strings and worksheet bombs at once, in three languages, and keeps nothing", async () => {
    const g = await newGoods(t, a, brandId, { name: "Bomb target" });
    // 200 MB of shared strings declared honestly (over the 160 MB cap and any ratio a workbook has),
    // 256 MB of them declared as 900 kB (under the ratio floor: caught by counting what inflates),
    // and a 300 MB worksheet of blank rows behind a real header.
    const honest = await deflatedSharedStrings(200);
    const lying = await deflatedSharedStrings(256);
    const sheet = await deflatedSheet(300, HEADER);
    const files = [
      await bomb({ name: "xl/sharedStrings.xml", ...honest }),
      await bomb({ name: "xl/sharedStrings.xml", data: lying.data, size: 900 * 1024 }),
      await bomb({ name: "xl/worksheets/sheet1.xml", ...sheet }),
    ];
    for (const file of files) expect(file.length).toBeLessThan(2 * 1024 * 1024);
    for (const [i, file] of files.entries()) {
      const started = Date.now();
      const res = await importFile(t, a.token, g.id, `bomb-${i}.xlsx`, file);
      expect([res.status, res.body.msg], `bomb ${i}`).toEqual([400, TOO_LARGE]);
      // Refused by the central directory or within the first MB inflated: no stall.
      expect(Date.now() - started, `bomb ${i}`).toBeLessThan(5_000);
    }
    expect((await importFile(t, a.token, g.id, "bomb.xlsx", files[0] ?? Buffer.alloc(0), "cn")).body.msg).toBe(
      "文件解压后超过640MB（共享字符串超过160MB）或压缩比异常，无法导入；请拆分为多个文件分批导入",
    );
    expect((await importFile(t, a.token, g.id, "bomb.xlsx", files[0] ?? Buffer.alloc(0), "tw")).body.msg).toBe(
      "檔案解壓後超過640MB（共用字串超過160MB）或壓縮比異常，無法匯入；請拆分為多個檔案分批匯入",
    );

    const records = await t.call<Page<CardBatch>>("GET", `/api/card-brander/sup/purchaseCardRecords?goodsId=${g.id}`, {
      token: a.token,
    });
    expect(records.body.data.list.filter((r) => r.status !== "failed")).toHaveLength(0);
    expect(
      (await t.call<{ stock: number }>("GET", `/api/card-brander/product/${g.id}`, { token: a.token })).body.data.stock,
    ).toBe(0);
    // Each spooled upload is removed when its import ends.
    expect(await spooled()).toEqual([]);
  });

  it("still imports a real workbook through the spool, and removes the spooled file", async () => {
    const g = await newGoods(t, a, brandId, { name: "Spooled import" });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("cards");
    ws.addRow(HEADER);
    for (let i = 0; i < 2_000; i++) ws.addRow([`SPOOL-${i}`, `P${i}`, "2099-12-31"]);
    wb.addWorksheet("notes").addRow(["never read"]);
    const imp = await importFile(t, a.token, g.id, "spool.xlsx", Buffer.from(await wb.xlsx.writeBuffer()));
    expect(imp.body.data).toMatchObject({ imported: 2_000, rejected: 0, totalRows: 2_000, status: "done" });
    expect(await spooled()).toEqual([]);
  });

  it("the caps hold a million-row file with twice the margin (measured on 20,000 rows, scaled)", async () => {
    // Sizes of a file exceljs writes with and without shared strings: 16-digit numbers, 14-character
    // secrets, a date, as a million-row import would carry them.
    const SAMPLE = 20_000;
    const scale = 1_000_000 / SAMPLE;
    for (const useSharedStrings of [true, false]) {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on("data", (c: Buffer) => chunks.push(c));
      const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings, useStyles: false });
      const ws = wb.addWorksheet("cards");
      ws.addRow(HEADER).commit();
      for (let i = 0; i < SAMPLE; i++) {
        ws.addRow([
          String(6200000000000000 + i * 7919),
          `S${((i * 2654435761) >>> 0).toString(36)}${((i * 40503) >>> 0).toString(36)}XY`,
          "2027-12-31",
        ]).commit();
      }
      ws.commit();
      await wb.commit();
      const zip = Buffer.concat(chunks);
      const sizes = new Map<string, { size: number; compressed: number }>();
      const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
      let p = zip.readUInt32LE(eocd + 16);
      for (let n = zip.readUInt16LE(eocd + 10); n > 0; n--) {
        const nameLen = zip.readUInt16LE(p + 28);
        sizes.set(zip.toString("utf8", p + 46, p + 46 + nameLen), {
          compressed: zip.readUInt32LE(p + 20),
          size: zip.readUInt32LE(p + 24),
        });
        p += 46 + nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
      }
      const total = [...sizes.values()].reduce((s, e) => s + e.size, 0);
      const sheet = sizes.get("xl/worksheets/sheet1.xml");
      const strings = sizes.get("xl/sharedStrings.xml");
      if (!sheet) throw new Error("no worksheet");
      expect(2 * scale * total).toBeLessThan(XLSX_IMPORT_LIMITS.maxTotalBytes);
      expect(2 * scale * sheet.size).toBeLessThan(XLSX_IMPORT_LIMITS.maxEntryBytes);
      expect(sheet.size / sheet.compressed).toBeLessThan(XLSX_IMPORT_LIMITS.maxRatio / 2);
      if (useSharedStrings) {
        if (!strings) throw new Error("no shared strings");
        expect(2 * scale * strings.size).toBeLessThan(XLSX_IMPORT_LIMITS.maxSharedStringsBytes ?? 0);
      }
    }
  });
});
