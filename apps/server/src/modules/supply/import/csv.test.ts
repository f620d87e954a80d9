import { describe, expect, it } from "vitest";
import { CsvError, CsvReader } from "./csv";

/** All records of `text` fed to a reader in pieces of `size` characters (or bytes, for a Buffer). */
function read(text: string | Buffer, size = Number.MAX_SAFE_INTEGER, max?: number): string[][] {
  const reader = new CsvReader(max);
  const out: string[][] = [];
  for (let i = 0; i < text.length; i += size) out.push(...reader.push(text.slice(i, i + size)));
  out.push(...reader.end());
  return out;
}

const SAMPLE =
  '\ufeffnumber,secret,expiry\r\nA1,S1,2099-01-01\r\n"B,2","line\none","say ""hi"""\n\nC3,x"y,\n"D4"tail,E\n';
const EXPECTED = [
  ["number", "secret", "expiry"],
  ["A1", "S1", "2099-01-01"],
  ["B,2", "line\none", 'say "hi"'],
  [""],
  ["C3", 'x"y', ""],
  ["D4tail", "E"],
];

describe("CsvReader", () => {
  it("reads LF and CRLF records, quoted fields with commas, line breaks and doubled quotes, a leading BOM", () => {
    expect(read(SAMPLE)).toEqual(EXPECTED);
  });

  it("gives the same records whatever the chunk boundaries, also inside a multi-byte character", () => {
    for (const size of [1, 2, 3, 5, 7, 13]) expect(read(SAMPLE, size)).toEqual(EXPECTED);
    const bytes = Buffer.from('卡号,卡密\n甲乙,"丙,丁"\n', "utf8");
    for (const size of [1, 2, 4]) {
      expect(read(bytes, size)).toEqual([
        ["卡号", "卡密"],
        ["甲乙", "丙,丁"],
      ]);
    }
  });

  it("reads a last record without a line break, and no extra record after a final one", () => {
    expect(read("a,b\nc,d")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(read('a,"b"')).toEqual([["a", "b"]]);
    expect(read("a,b\n")).toEqual([["a", "b"]]);
    expect(read("")).toEqual([]);
  });

  it("refuses a quoted field that is never closed", () => {
    expect(() => read('a,"never closed\nb,c\n')).toThrow(CsvError);
  });

  it("refuses a record over the size limit, also one that never ends", () => {
    expect(() => read(`${"x".repeat(50)}\n`, 10, 40)).toThrow(CsvError);
    expect(() => read(`"${"x".repeat(50)}"\n`, 10, 40)).toThrow(CsvError);
    expect(read(`${"x".repeat(30)}\n`, 10, 40)).toEqual([["x".repeat(30)]]);
  });
});
