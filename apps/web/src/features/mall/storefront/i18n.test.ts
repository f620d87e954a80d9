import { describe, expect, it } from "vitest";
import { MESSAGES } from "@tessera/contracts";
import en from "./locales/en.json";
import zhCN from "./locales/zh-CN.json";
import zhTW from "./locales/zh-TW.json";

function entries(o: unknown, prefix = ""): [string, string][] {
  if (typeof o !== "object" || o === null) return [[prefix, String(o)]];
  return Object.entries(o).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k));
}
const cn = new Map(entries(zhCN));
const keys = (o: unknown) =>
  entries(o)
    .map(([k]) => k)
    .sort();

describe("the storefront's texts", () => {
  it("have the same keys and {{placeholders}} in all three languages, none empty", () => {
    expect(keys(zhTW)).toEqual(keys(zhCN));
    expect(keys(en)).toEqual(keys(zhCN));
    const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const file of [zhTW, en]) {
      for (const [k, v] of entries(file)) {
        expect(v.trim(), k).not.toBe("");
        expect(placeholders(v), k).toEqual(placeholders(cn.get(k) ?? ""));
      }
    }
  });

  // The app's locale test (src/i18n/locales.test.ts) for the storefront's own sources and texts.
  const sources = import.meta.glob<string>(["./*.ts", "./*.tsx", "!./*.test.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  });
  const calls = (source: string) =>
    [...source.matchAll(/\bt\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)].map((m) => m[1] ?? "");

  it("every key the code uses exists", () => {
    const missing: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      for (const chunk of calls(source)) {
        for (const m of chunk.matchAll(/"([a-zA-Z][\w.]*)"/g)) {
          if (m[1] && !cn.has(m[1]) && !m[1].includes(" ")) missing.push(`${file}: ${m[1]}`);
        }
        for (const m of chunk.matchAll(/`([^`]*\$\{[^`]*)`/g)) {
          const re = new RegExp(
            `^${(m[1] ?? "")
              .split(/\$\{[^}]*\}/)
              .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
              .join("\\w+")}$`,
          );
          if (![...cn.keys()].some((k) => re.test(k))) missing.push(`${file}: ${m[1]}`);
        }
      }
    }
    expect(Object.keys(sources).length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it("say what the checkout would about a top-up account, word for word (issue 40, item 4)", () => {
    for (const [file, lang] of [
      [zhCN, "cn"],
      [zhTW, "tw"],
      [en, "en"],
    ] as const) {
      expect(file.msg.topUpAccountEmpty).toBe(MESSAGES["mall.topUpAccountEmpty"][lang]);
      for (const [type, text] of Object.entries(file.msg.topUpAccount.invalid)) {
        expect(text).toBe(MESSAGES[`topUpAccount.invalid.${type}` as keyof typeof MESSAGES][lang]);
      }
    }
  });
});
