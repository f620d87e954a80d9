import { describe, expect, it } from "vitest";
import { translationsFor } from "../../i18n/allTranslations";
import { AREAS } from "../routes";
import { groupMenu, MENU_GROUPS } from "./menuGroups";

const get = (catalogue: unknown, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>(
      (node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined),
      catalogue,
    );

/** Issue 25 item 4: the purchaser's side menu in the sections of spec 01 §2, not a flat list. */
describe("side menu sections", () => {
  const sale = AREAS.find((a) => a.id === "sale");
  if (!sale) throw new Error("no sale area");
  const menu = sale.pages.filter((p) => p.menuKey);

  it("puts every purchaser menu page but Home in a section, and names only pages that exist", () => {
    const groups = MENU_GROUPS.sale ?? {};
    expect(menu.filter((p) => p.path !== "Home" && !groups[p.path]).map((p) => p.path)).toEqual([]);
    const paths = new Set(sale.pages.map((p) => p.path));
    expect(Object.keys(groups).filter((p) => !paths.has(p))).toEqual([]);
  });

  it("shows a handful of top-level entries instead of ~55, each section in menu order", () => {
    const entries = groupMenu("sale", menu);
    expect(menu.length).toBeGreaterThan(40);
    expect(entries.length).toBeLessThanOrEqual(10);
    expect(entries[0]).toEqual({ group: null, items: [menu[0]] });
    expect(entries.flatMap((e) => e.items)).toHaveLength(menu.length);
  });

  it("names each section in the three languages", () => {
    for (const lang of ["cn", "tw", "en"] as const) {
      for (const key of new Set(Object.values(MENU_GROUPS.sale ?? {}))) {
        expect(typeof get(translationsFor(lang), key), `${lang} ${key}`).toBe("string");
      }
    }
  });

  it("puts every supplier menu page but Home in a section too, naming only its pages, in the three languages", () => {
    const business = AREAS.find((a) => a.id === "business");
    const pages = business?.pages.filter((p) => p.menuKey) ?? [];
    const groups = MENU_GROUPS.business ?? {};
    expect(pages.filter((p) => p.path !== "Home" && !groups[p.path]).map((p) => p.path)).toEqual([]);
    const paths = new Set(business?.pages.map((p) => p.path));
    expect(Object.keys(groups).filter((p) => !paths.has(p))).toEqual([]);
    expect(groupMenu("business", pages).length).toBeLessThanOrEqual(12);
    for (const lang of ["cn", "tw", "en"] as const) {
      for (const key of new Set(Object.values(groups))) {
        expect(typeof get(translationsFor(lang), key), `${lang} ${key}`).toBe("string");
      }
    }
  });

  it("leaves an area without sections as it was", () => {
    const providers = AREAS.find((a) => a.id === "providers");
    const pages = providers?.pages.filter((p) => p.menuKey) ?? [];
    expect(groupMenu("providers", pages).every((e) => e.group === null && e.items.length === 1)).toBe(true);
  });
});
