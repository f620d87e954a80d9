import { describe, expect, it } from "vitest";
import { colorThemeCookie, parseColorTheme, PRIMARY_COLORS } from "./theme";

describe("colour theme cookie colorChose (spec 01 §2)", () => {
  it("reads themes 1-4 and falls back to 1", () => {
    expect(parseColorTheme("a=b; colorChose=3; c=d")).toBe(3);
    expect(parseColorTheme("colorChose=9")).toBe(1);
    expect(parseColorTheme("")).toBe(1);
    expect(parseColorTheme("colorChose=abc")).toBe(1);
  });
  it("writes a site-wide cookie", () => {
    expect(colorThemeCookie(4)).toMatch(/^colorChose=4; path=\/;/);
  });
  it("has four distinct primary colours", () => {
    expect(new Set(Object.values(PRIMARY_COLORS)).size).toBe(4);
  });
});
