import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

/** Settings read from the environment: defaults, and a clear error naming the variable for bad values. */
describe("IM_SDK_REPORTS_RETENTION_DAYS", () => {
  it("defaults to 30 days and takes a whole number of days", () => {
    expect(loadConfig({}).im.sdkReportsRetentionDays).toBe(30);
    expect(loadConfig({ IM_SDK_REPORTS_RETENTION_DAYS: "" }).im.sdkReportsRetentionDays).toBe(30);
    expect(loadConfig({ IM_SDK_REPORTS_RETENTION_DAYS: "1" }).im.sdkReportsRetentionDays).toBe(1);
    expect(loadConfig({ IM_SDK_REPORTS_RETENTION_DAYS: "365" }).im.sdkReportsRetentionDays).toBe(365);
  });

  it("rejects 0, negatives, fractions and non-numbers", () => {
    for (const bad of ["0", "-3", "1.5", "abc", "30d"]) {
      expect(() => loadConfig({ IM_SDK_REPORTS_RETENTION_DAYS: bad }), bad).toThrow(
        `IM_SDK_REPORTS_RETENTION_DAYS must be a whole number of at least 1, got "${bad}"`,
      );
    }
  });
});
