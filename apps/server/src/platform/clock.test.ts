import type { FastifyReply } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { displayCell, displayTime, platformDay, setDisplayZone } from "./clock";
import { loadExcel } from "./heavy-libraries";
import { sendXlsx } from "./http/export";

describe("display time (TZ_DISPLAY)", () => {
  afterEach(() => setDisplayZone("Asia/Shanghai"));

  it("shows an instant in Asia/Shanghai unless told otherwise", () => {
    expect(displayTime("2026-11-29T05:34:12.328Z")).toBe("2026-11-29 13:34:12");
    expect(displayTime(new Date("2026-11-29T16:05:00Z"), { seconds: false })).toBe("2026-11-30 00:05");
    expect(displayTime(null)).toBeNull();
    expect(platformDay(new Date("2026-11-29T16:05:00Z"))).toBe("2026-11-30");
  });

  it("follows the configured zone and refuses an unknown one", () => {
    setDisplayZone("Europe/London");
    expect(displayTime("2026-07-01T05:34:00Z")).toBe("2026-07-01 06:34:00");
    expect(() => setDisplayZone("Nowhere/Else")).toThrow();
  });

  it("turns instants of an export into local text and leaves other cells", () => {
    expect(displayCell("2029-11-28T05:05:13.328Z")).toBe("2029-11-28 13:05:13");
    expect(displayCell(new Date("2029-11-28T05:05:13Z"))).toBe("2029-11-28 13:05:13");
    expect(displayCell("2029-11-28")).toBe("2029-11-28");
    expect(displayCell("ORD-2029-11-28T")).toBe("ORD-2029-11-28T");
    expect(displayCell(12)).toBe(12);
    expect(displayCell(null)).toBeNull();
  });

  it("an xlsx export shows the platform's local time", async () => {
    let body: Buffer | undefined;
    const reply = {
      header() {
        return reply;
      },
      send(b: Buffer) {
        body = b;
        return reply;
      },
    };
    const rows = [{ at: "2026-11-29T05:34:12.328Z", d: new Date("2026-11-29T05:34:12Z"), no: "A1" }];
    await sendXlsx(
      reply as unknown as FastifyReply,
      "t",
      [
        { header: "at", value: (r: (typeof rows)[number]) => r.at },
        { header: "d", value: (r: (typeof rows)[number]) => r.d },
        { header: "no", value: (r: (typeof rows)[number]) => r.no },
      ],
      [rows],
    );
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(body as unknown as ArrayBuffer);
    const row = wb.worksheets[0]?.getRow(2);
    expect([row?.getCell(1).value, row?.getCell(2).value, row?.getCell(3).value]).toEqual([
      "2026-11-29 13:34:12",
      "2026-11-29 13:34:12",
      "A1",
    ]);
  });
});
