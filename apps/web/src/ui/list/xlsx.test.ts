import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { columnName, crc32, xlsxBytes } from "./xlsx";

/** The list pages' own .xlsx writer, read back by a spreadsheet library. */
describe("xlsx writer", () => {
  it("names columns and checksums as the formats define", () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual(["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA"]);
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  });

  it("writes a workbook a spreadsheet reads: header, text, numbers, empty cells, CJK and XML specials", async () => {
    const bytes = xlsxBytes(
      "采购订单/2026",
      ["订单号", "金额", "备注"],
      [
        ["PO-1", 194, '<b>&"x"'],
        ["PO-2", null, "充值 ¥97.00"],
      ],
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error("no sheet");
    expect(sheet.name).toBe("采购订单 2026");
    const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1);
    expect(values(1)).toEqual(["订单号", "金额", "备注"]);
    expect(values(2)).toEqual(["PO-1", 194, '<b>&"x"']);
    expect(values(3)).toEqual(["PO-2", undefined, "充值 ¥97.00"]);
    expect(sheet.getCell("A1").font.bold).toBe(true);
    expect(sheet.getCell("A2").font?.bold).not.toBe(true);
  });
});
