import { afterEach, describe, expect, it } from "vitest";
import { displayZone, formatDay, formatTime, isInstant, setDisplayZone } from "./time";

describe("formatTime", () => {
  afterEach(() => setDisplayZone("Asia/Shanghai"));

  it("shows an instant in Asia/Shanghai by default, whatever the browser's zone", () => {
    expect(displayZone()).toBe("Asia/Shanghai");
    expect(formatTime("2026-11-29T05:34:12.328Z")).toBe("2026-11-29 13:34");
    expect(formatTime("2026-11-29T05:34:12.328Z", { seconds: true })).toBe("2026-11-29 13:34:12");
    expect(formatTime("2026-11-29T16:05:00Z")).toBe("2026-11-30 00:05");
  });

  it("follows the server's zone and ignores an unknown one", () => {
    setDisplayZone("Europe/London");
    expect(formatTime("2026-07-01T05:34:00Z")).toBe("2026-07-01 06:34");
    setDisplayZone("Nowhere/Else");
    expect(displayZone()).toBe("Europe/London");
  });

  it("says nothing is there for null", () => {
    expect(formatTime(null)).toBe("-");
    expect(formatTime(undefined, { empty: "—" })).toBe("—");
  });
});

describe("formatDay", () => {
  it("is the platform day of an instant; a calendar date stays", () => {
    expect(formatDay("2029-11-27T17:05:13.328Z")).toBe("2029-11-28");
    expect(formatDay("2029-11-28T05:05:13.328Z")).toBe("2029-11-28");
    expect(formatDay("2027-12-31")).toBe("2027-12-31");
    expect(formatDay(null)).toBe("-");
  });
});

describe("isInstant", () => {
  it("knows a server timestamp from a date or a number", () => {
    expect(isInstant("2029-11-28T05:05:13.328Z")).toBe(true);
    expect(isInstant("2029-11-28T13:05:13+08:00")).toBe(true);
    expect(isInstant("2029-11-28")).toBe(false);
    expect(isInstant("20291128050513")).toBe(false);
  });
});
