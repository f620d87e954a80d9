import { describe, expect, it } from "vitest";
import { formatMoney, parseMoney } from "./money";

describe("formatMoney", () => {
  it("formats minor units with two decimals and the currency symbol", () => {
    expect(formatMoney({ amount: 123456, currency: "CNY" })).toBe("¥1,234.56");
    expect(formatMoney({ amount: 0, currency: "USD" })).toBe("US$0.00");
    expect(formatMoney({ amount: 5, currency: "HKD" })).toBe("HK$0.05");
    expect(formatMoney({ amount: -100000050, currency: "USD" })).toBe("-US$1,000,000.50");
  });
});

describe("parseMoney", () => {
  it("reads major units as integer minor units without float rounding", () => {
    expect(parseMoney("1,234.5", "CNY")).toBe(123450);
    expect(parseMoney("0.29", "USD")).toBe(29);
    expect(parseMoney("19.99", "HKD")).toBe(1999);
    expect(parseMoney(" 100 ", "CNY")).toBe(10000);
    expect(parseMoney("7.", "CNY")).toBe(700);
  });
  it("refuses what is not an amount", () => {
    for (const bad of ["", "abc", "-1", "1.234", "1e3", "1.2.3"]) expect(parseMoney(bad, "CNY")).toBeNull();
  });
});
