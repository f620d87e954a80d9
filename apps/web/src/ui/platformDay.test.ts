import { describe, expect, it } from "vitest";
import { platformToday } from "./platformDay";

describe("platformToday", () => {
  it("is the UTC+8 calendar day", () => {
    expect(platformToday(Date.parse("2026-11-23T15:59:00Z")).format("YYYY-MM-DD")).toBe("2026-11-23");
    expect(platformToday(Date.parse("2026-11-23T16:00:00Z")).format("YYYY-MM-DD")).toBe("2026-11-24");
  });
});
