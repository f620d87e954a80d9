import { CODE, CURRENCY_MINOR_DIGITS, MALL_APP_ID_HEADER, MALL_PRIVATE_CODE_HEADER, MALL_PROTOCOL_VERSION, MALL_SELLER_ID_HEADER, MALL_THEME_COLOURS, MALL_VERSION_HEADER } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { formatMoney as appFormatMoney } from "../../components/money";
import * as copy from "./constants";

describe("the storefront's copies of contracts values", () => {
  it("equal the contracts' own", () => {
    expect([copy.MALL_APP_ID_HEADER, copy.MALL_SELLER_ID_HEADER, copy.MALL_VERSION_HEADER, copy.MALL_PROTOCOL_VERSION, copy.MALL_PRIVATE_CODE_HEADER]).toEqual([
      MALL_APP_ID_HEADER,
      MALL_SELLER_ID_HEADER,
      MALL_VERSION_HEADER,
      MALL_PROTOCOL_VERSION,
      MALL_PRIVATE_CODE_HEADER,
    ]);
    expect(copy.MALL_LOGIN_EXPIRED).toBe(CODE.MALL_LOGIN_EXPIRED);
    expect(copy.MALL_THEME_COLOURS).toEqual(MALL_THEME_COLOURS);
    expect(copy.CURRENCY_MINOR_DIGITS).toEqual(CURRENCY_MINOR_DIGITS);
  });

  it("formats money as the back-office does", () => {
    for (const m of [{ amount: 123456, currency: "CNY" as const }, { amount: -5, currency: "USD" as const }, { amount: 0, currency: "HKD" as const }, { amount: 8490, currency: "CNY" as const }]) {
      expect(copy.formatMoney(m)).toBe(appFormatMoney(m));
    }
  });
});
