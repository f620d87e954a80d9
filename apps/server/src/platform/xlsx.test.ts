import { deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { deflatedSheet, withSheet, zipOf } from "../../test/xlsx-bomb";
import { cellText, readXlsxRows, XlsxRefused, type XlsxLimits } from "./xlsx";

const LIMITS: XlsxLimits = {
  maxTotalBytes: 50 * 1024 * 1024,
  maxEntryBytes: 50 * 1024 * 1024,
  maxRatio: 100,
  maxRows: 1000,
};

async function workbook(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("stores");
  for (const r of rows) ws.addRow(r);
  wb.addWorksheet("help").addRow(["not read"]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readAll(file: Buffer, limits: XlsxLimits = LIMITS): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const r of readXlsxRows(file, limits)) rows.push(r.cells.map(cellText));
  return rows;
}

async function refusal(file: Buffer, limits: XlsxLimits = LIMITS): Promise<XlsxRefused> {
  const err = await readAll(file, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(XlsxRefused);
  return err as XlsxRefused;
}

describe("readXlsxRows", () => {
  it("streams the first worksheet's rows, header included, with shared strings", async () => {
    const file = await workbook([["门店名称", "省份"], ["一号店", "广东省"], [], ["二号店", "13800138000"]]);
    expect(await readAll(file)).toEqual([
      ["门店名称", "省份"],
      ["一号店", "广东省"],
      ["二号店", "13800138000"],
    ]);
  });

  it("stops at the first non-blank row past the limit", async () => {
    const file = await workbook([["h"], ...Array.from({ length: 10 }, (_, i) => [`row ${i}`])]);
    expect((await readAll(file, { ...LIMITS, maxRows: 10 })).length).toBe(11);
    expect((await refusal(file, { ...LIMITS, maxRows: 9 })).reason).toBe("tooManyRows");
  });

  it("refuses a zip bomb that declares its size from the central directory, before inflating anything", async () => {
    const sheet = await deflatedSheet(200); // about 200 MB of sheet XML
    expect(sheet.size).toBeGreaterThan(150 * 1024 * 1024);
    expect(sheet.data.length).toBeLessThan(1024 * 1024);
    // The compressed bytes are replaced by garbage of the same length: had anything been inflated, the
    // reader would answer "unreadable".
    const file = await withSheet({ name: "", data: Buffer.alloc(sheet.data.length, 0xff), size: sheet.size });
    const r = await refusal(file);
    expect(r.reason).toBe("tooLarge");
    expect(r.message).toContain("declares");
  });

  it("refuses a part whose ratio no spreadsheet has, even under the size caps", async () => {
    const sheet = await deflatedSheet(30); // about 30 MB compressing far past 100:1
    expect(sheet.size / sheet.data.length).toBeGreaterThan(100);
    expect((await refusal(await withSheet({ name: "", ...sheet }))).reason).toBe("tooLarge");
  });

  it("stops inflating a bomb that lies about its size, at the size it declared, without growing memory", async () => {
    const sheet = await deflatedSheet(200);
    // Declares 2 MB at 1:5, so the central directory passes; the actual bytes are counted.
    const file = await withSheet({ name: "", data: sheet.data, size: 2 * 1024 * 1024 });
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external + m.arrayBuffers;
    };
    const before = used();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, used())), 5);
    let rows = 0;
    let err: unknown;
    try {
      for await (const r of readXlsxRows(file, { ...LIMITS, maxRows: Number.MAX_SAFE_INTEGER })) {
        rows += r.cells.length > 0 ? 1 : 0;
      }
    } catch (e) {
      err = e;
    } finally {
      clearInterval(timer);
    }
    expect(err).toBeInstanceOf(XlsxRefused);
    expect((err as XlsxRefused).reason).toBe("tooLarge");
    expect((err as XlsxRefused).message).toContain("inflates past");
    // Only what the 2 MB declared held was read (about 32,000 rows of the bomb's 3 million).
    expect(rows).toBeLessThan(40_000);
    // The bomb's 200 MB were never held (loading the workbook whole grew the server by gigabytes); what
    // remains is the garbage of parsing 2 MB, not yet collected.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("refuses what is not an xlsx zip", async () => {
    expect((await refusal(Buffer.from("name,phone\nA,1\n"))).reason).toBe("unreadable");
    const noSheet = zipOf([{ name: "xl/workbook.xml", data: deflateRawSync(Buffer.from("<workbook/>")), size: 11 }]);
    expect((await refusal(noSheet)).reason).toBe("unreadable");
  });
});
