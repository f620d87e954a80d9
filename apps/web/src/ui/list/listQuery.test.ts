import { describe, expect, it } from "vitest";
import { mergeListState, readListState, writeListState } from "./listQuery";

describe("list state in the URL", () => {
  it("defaults to page 1 of 20", () => {
    expect(readListState(new URLSearchParams())).toEqual({ page: 1, pageSize: 20, values: {} });
  });
  it("accepts only the spec's page sizes", () => {
    expect(readListState(new URLSearchParams("pageSize=1000")).pageSize).toBe(1000);
    expect(readListState(new URLSearchParams("pageSize=30")).pageSize).toBe(20);
    expect(readListState(new URLSearchParams("page=-3")).page).toBe(1);
    expect(readListState(new URLSearchParams("page=2.5")).page).toBe(1);
  });
  it("round-trips filters", () => {
    const state = {
      page: 3,
      pageSize: 50 as const,
      values: {
        inpKey: "to",
        inpVal: "a@b.co",
        selKey: "channel",
        selVal: ["email", "sms"],
        selKeyT: "state",
        selValT: "1",
        date: ["2026-11-01T00:00:00+08:00", "2026-11-18T23:59:59+08:00"] as [string, string],
        month: ["2026-01", "2026-11"] as [string, string],
        curCascader: ["CN", "GD"],
      },
    };
    const params = writeListState(state);
    expect(readListState(new URLSearchParams(params.toString()))).toEqual(state);
  });
  it("leaves defaults out of the URL", () => {
    expect(writeListState({ page: 1, pageSize: 20, values: {} }).toString()).toBe("");
  });
  it("a single month stays a string; a one-item cascader stays a list", () => {
    const s = readListState(new URLSearchParams("month=2026-11&curCascader=CN"));
    expect(s.values.month).toBe("2026-11");
    expect(s.values.curCascader).toEqual(["CN"]);
  });
});

describe("mergeListState", () => {
  it("keeps the page's own query keys and replaces the list's", () => {
    const current = new URLSearchParams("tab=refunds&page=3&selVal=old&account=sup");
    const next = mergeListState(current, { page: 1, pageSize: 50, values: { selVal: "success" } });
    expect(next.get("tab")).toBe("refunds");
    expect(next.get("account")).toBe("sup");
    expect(next.get("page")).toBeNull();
    expect(next.get("pageSize")).toBe("50");
    expect(next.getAll("selVal")).toEqual(["success"]);
  });
});
