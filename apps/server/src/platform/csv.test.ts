import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalBankPayouts } from "./adapters/bank";
import { csvCell, csvRow } from "./csv";

describe("CSV cells", () => {
  it("neutralises text that a spreadsheet would run as a formula, and quotes per RFC 4180", () => {
    expect(csvCell('=HYPERLINK("http://x","pay")')).toBe(`"'=HYPERLINK(""http://x"",""pay"")"`);
    expect(csvCell("+1+1")).toBe("'+1+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
    expect(csvCell("a\rb")).toBe(`"a\rb"`);
    expect(csvCell("a,b")).toBe(`"a,b"`);
    expect(csvCell("Acme Ltd")).toBe("Acme Ltd");
    // Numbers we computed stay numbers, negative ones included.
    expect(csvCell(-120)).toBe("-120");
    expect(csvRow(["a", 1])).toBe("a,1\r\n");
  });

  it("the bank payout file writes a merchant's formula as text", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "payouts-"));
    try {
      const { file } = await createLocalBankPayouts(dir).submit({
        reference: "WD1",
        amount: 12_345,
        currency: "CNY",
        companyName: '=cmd|" /C calc"!A0',
        bank: "+Bank",
        city: "Shen\rzhen",
        account: "@6222",
        day: "2026-01-02",
      });
      const text = await readFile(file, "utf8");
      expect(text).toBe(
        `reference,amount_minor,currency,company_name,bank,city,account\r\nWD1,12345,CNY,"'=cmd|"" /C calc""!A0",'+Bank,"Shen\rzhen",'@6222\r\n`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
