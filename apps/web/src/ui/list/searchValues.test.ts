import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { SEARCH_FIELDS, toFormValues, toSearchValues } from "./searchValues";

describe("search values", () => {
  it("uses the spec's field names", () => {
    expect(SEARCH_FIELDS).toEqual([
      "inpKey",
      "inpVal",
      "selKey",
      "selVal",
      "selKeyT",
      "selValT",
      "date",
      "month",
      "curCascader",
    ]);
  });
  it("drops empty inputs and their keys", () => {
    expect(toSearchValues({ inpKey: "to", inpVal: "  ", selKey: "channel", selVal: [] })).toEqual({});
    expect(toSearchValues({ inpKey: "to", inpVal: " a@b.co " })).toEqual({ inpKey: "to", inpVal: "a@b.co" });
  });
  it("date mode covers whole days; datetime mode keeps the times", () => {
    const range: [dayjs.Dayjs, dayjs.Dayjs] = [dayjs("2026-11-01T10:00:00"), dayjs("2026-11-02T11:00:00")];
    const d = toSearchValues({ date: range }, "date").date ?? ["", ""];
    expect(dayjs(d[0]).format("YYYY-MM-DD HH:mm:ss")).toBe("2026-11-01 00:00:00");
    expect(dayjs(d[1]).format("YYYY-MM-DD HH:mm:ss")).toBe("2026-11-02 23:59:59");
    const t = toSearchValues({ date: range }, "datetime").date ?? ["", ""];
    expect(dayjs(t[0]).format("HH:mm")).toBe("10:00");
    expect(t[0]).toMatch(/[+-]\d\d:\d\d$|Z$/);
  });
  it("months as YYYY-MM, and back", () => {
    const one = toSearchValues({ month: dayjs("2026-11-05") }, "month");
    expect(one.month).toBe("2026-11");
    const range = toSearchValues({ month: [dayjs("2026-01-05"), dayjs("2026-03-01")] }, "monthRange");
    expect(range.month).toEqual(["2026-01", "2026-03"]);
    const back = toFormValues(range, "monthRange").month;
    expect(Array.isArray(back) && back.map((m) => m.format("YYYY-MM"))).toEqual(["2026-01", "2026-03"]);
  });
  it("ignores garbage dates from the URL", () => {
    expect(toFormValues({ date: ["nope", "2026-11-01"] }, "date").date).toBeUndefined();
  });
});
