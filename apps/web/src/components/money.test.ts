import { describe, expect, it } from "vitest";
import { formatMoney } from "./money";

describe("formatMoney", () => {
  it("formats minor units with two decimals and the currency symbol", () => {
    expect(formatMoney({ amount: 123456, currency: "CNY" })).toBe("¥1,234.56");
    expect(formatMoney({ amount: 0, currency: "USD" })).toBe("US$0.00");
    expect(formatMoney({ amount: 5, currency: "HKD" })).toBe("HK$0.05");
    expect(formatMoney({ amount: -100000050, currency: "USD" })).toBe("-US$1,000,000.50");
  });
});
