import { describe, expect, it } from "vitest";
import { pageInArea } from "./pageInArea";

const area = (base: string, ...paths: string[]) => ({ base, pages: paths.map((path) => ({ path })) });
const sale = area("/sale", "Home", "EquityApplet", "SelfSupport", "SmsSendRecord");
const intlSale = area("/international/sale", "Home", "EquityApplet", "SelfSupport");

describe("a setup step's page in the area the user is in", () => {
  it("is the domestic page in the domestic area", () => {
    expect(pageInArea("/sale/EquityApplet", sale)).toBe("/sale/EquityApplet");
    expect(pageInArea("/sale/SmsSendRecord", sale)).toBe("/sale/SmsSendRecord");
  });

  it("is the international page, or the tab that hosts it, in the international area; else not offered", () => {
    expect(pageInArea("/sale/EquityApplet", intlSale)).toBe("/international/sale/EquityApplet");
    expect(pageInArea("/sale/SelfSupport", intlSale)).toBe("/international/sale/SelfSupport");
    expect(pageInArea("/sale/SmsSendRecord", intlSale)).toBe("/international/sale/EquityApplet?tab=sms");
    expect(pageInArea("/business/TakeoutSet", intlSale)).toBeUndefined();
    expect(pageInArea("/sale/EquityApplet", undefined)).toBeUndefined();
  });
});
