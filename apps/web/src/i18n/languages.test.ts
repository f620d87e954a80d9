import { describe, expect, it } from "vitest";
import { MESSAGES } from "@tessera/contracts";
import { defaultLangFor } from "./languages";
import { messageResources } from "./messages";

describe("interface language", () => {
  it("uses the stored choice, else tw in the international area, else cn", () => {
    expect(defaultLangFor("en", true)).toBe("en");
    expect(defaultLangFor(null, true)).toBe("tw");
    expect(defaultLangFor(null, false)).toBe("cn");
    expect(defaultLangFor("fr", false)).toBe("cn");
  });
});

describe("contracts messages as namespace msg", () => {
  it("nests every dotted key with its text", () => {
    const en = messageResources("en");
    for (const [key, texts] of Object.entries(MESSAGES)) {
      const value = key
        .split(".")
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
      expect(value, key).toBe(texts.en);
    }
  });
});
