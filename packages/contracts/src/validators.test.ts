import { describe, expect, it } from "vitest";
import { registerReq } from "./accounts";
import { DICT_LABELS } from "./dict";
import { pickLang } from "./lang";
import { MESSAGES } from "./messages";
import { ALL_REGION_CODES, isAllowedInternationalRegion } from "./regions";
import {
  digitsOnly,
  isAccountName,
  isEmail,
  isMobile,
  isNationalId,
  isPersonName,
  isQq,
  isStrongPassword,
  passwordClasses,
} from "./validators";

describe("helper validators of spec 01 §5", () => {
  it("email", () => {
    expect(isEmail("a.b+c@example.co.uk")).toBe(true);
    for (const bad of ["", "a@", "@b.com", "a@b", "a b@c.com", "a@b..com"]) expect(isEmail(bad)).toBe(false);
  });
  it("mainland mobile: 11 digits starting with 1", () => {
    expect(isMobile("13812345678")).toBe(true);
    for (const bad of ["23812345678", "1381234567", "138123456789", "1381234567a"]) expect(isMobile(bad)).toBe(false);
  });
  it("QQ-style number: 5-15 digits, not starting with 0", () => {
    expect(isQq("12345")).toBe(true);
    expect(isQq("123456789012345")).toBe(true);
    for (const bad of ["1234", "1234567890123456", "01234"]) expect(isQq(bad)).toBe(false);
  });
  it("account name: 6-20, letters digits - _, starting with a letter, - or _", () => {
    expect(isAccountName("alice_01")).toBe(true);
    expect(isAccountName("_abcde")).toBe(true);
    for (const bad of ["abcde", "1abcdef", "a".repeat(21), "abc def"]) expect(isAccountName(bad)).toBe(false);
  });
  it("national ID: 15 or 18 digits (last may be X)", () => {
    expect(isNationalId("110101199003077777")).toBe(true);
    expect(isNationalId("11010119900307777X")).toBe(true);
    expect(isNationalId("110101900307777")).toBe(true);
    for (const bad of ["1101011990030777", "11010119900307777Y"]) expect(isNationalId(bad)).toBe(false);
  });
  it("person name: 2-30 letters or Chinese characters", () => {
    expect(isPersonName("张三")).toBe(true);
    expect(isPersonName("Mary Jones")).toBe(true);
    for (const bad of ["张", "a".repeat(31), "R2D2"]) expect(isPersonName(bad)).toBe(false);
  });
  it("strong password: 8+ characters with three of four classes", () => {
    expect(passwordClasses("aA1!")).toBe(4);
    expect(isStrongPassword("Abcdefg1")).toBe(true);
    expect(isStrongPassword("abcdefg1!")).toBe(true);
    expect(isStrongPassword("abcdefgh1")).toBe(false);
    expect(isStrongPassword("Abc1!")).toBe(false);
  });
  it("number input keeps digits only, up to 18", () => {
    expect(digitsOnly("a1b2-3")).toBe("123");
    expect(digitsOnly("1".repeat(25))).toHaveLength(18);
  });
});

describe("international regions", () => {
  it("accepts Hong Kong, Singapore, Europe and the Americas only", () => {
    for (const ok of ["HK", "SG", "GB", "DE", "FR", "US", "CA", "BR", "MX", "hk"]) {
      expect(isAllowedInternationalRegion(ok)).toBe(true);
    }
    for (const no of ["CN", "JP", "AU", "IN", "ZA", "TW", "MO"]) expect(isAllowedInternationalRegion(no)).toBe(false);
  });
  it("offers each region once", () => {
    expect(new Set(ALL_REGION_CODES).size).toBe(ALL_REGION_CODES.length);
  });
  it("the register schema refuses others with the spec's message", () => {
    const r = registerReq.safeParse({
      email: "a@b.co",
      emailCode: "1",
      password: "Abcdefg1",
      confirmPassword: "Abcdefg1",
      orgName: "X",
      version: "international",
      country: "JP",
      currency: "USD",
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("validation.countryNotAllowed");
  });
});

describe("catalogues", () => {
  it("every message and label exists in all three languages", () => {
    for (const texts of Object.values(MESSAGES)) {
      for (const text of Object.values(texts)) expect(text.length).toBeGreaterThan(0);
    }
    for (const values of Object.values(DICT_LABELS)) {
      for (const labels of Object.values(values)) expect(Object.keys(labels).sort()).toEqual(["cn", "en", "tw"]);
    }
  });
  it("picks the language from the lang header, then Accept-Language, default cn", () => {
    expect(pickLang("en", "zh-CN")).toBe("en");
    expect(pickLang(undefined, "zh-TW,zh;q=0.9")).toBe("tw");
    expect(pickLang(undefined, "en-US")).toBe("en");
    expect(pickLang("xx", undefined)).toBe("cn");
  });
});
