import { describe, expect, it } from "vitest";
import { translationsFor } from "../i18n/allTranslations";
import { AREAS, PUBLIC_PAGES } from "./routes";

/** The route table's invariants: what a new page line in an area file must not break. */
function has(catalogue: unknown, key: string): boolean {
  let node = catalogue;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" && node.trim() !== "";
}

const fullPaths = [
  ...PUBLIC_PAGES.map((p) => p.path),
  ...AREAS.flatMap((a) => a.pages.map((p) => `${a.base}/${p.path}`)),
];

describe("route table", () => {
  it("has unique area ids and bases", () => {
    expect(new Set(AREAS.map((a) => a.id)).size).toBe(AREAS.length);
    expect(new Set(AREAS.map((a) => a.base.toLowerCase())).size).toBe(AREAS.length);
  });

  it("gives every page its own path (routes match case-insensitively)", () => {
    const seen = new Map<string, number>();
    for (const path of fullPaths) seen.set(path.toLowerCase(), (seen.get(path.toLowerCase()) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).map(([path]) => path)).toEqual([]);
  });

  it("writes public paths absolute and area paths relative", () => {
    expect(PUBLIC_PAGES.filter((p) => !p.path.startsWith("/")).map((p) => p.path)).toEqual([]);
    expect(
      AREAS.flatMap((a) =>
        a.pages.filter((p) => p.path === "" || p.path.includes("/")).map((p) => `${a.id}: ${p.path}`),
      ),
    ).toEqual([]);
  });

  it("leads a merchant area's base path to Home (always open to sub-accounts), every base to a menu page", () => {
    for (const area of AREAS) {
      const first = area.pages[0];
      expect(first?.menuKey, area.id).toBeDefined();
      if (area.role) expect(first?.path, area.id).toBe("Home");
    }
  });

  it("gives menu entries an icon, and pages outside the menu none", () => {
    expect(
      AREAS.flatMap((a) =>
        a.pages.filter((p) => Boolean(p.menuKey) !== Boolean(p.icon)).map((p) => `${a.id}/${p.path}`),
      ),
    ).toEqual([]);
    // Public pages have no menu.
    expect(PUBLIC_PAGES.filter((p) => p.menuKey || p.icon).map((p) => p.path)).toEqual([]);
  });

  it("has every title, menu and area name in the three languages", () => {
    const keys = new Set([
      ...AREAS.map((a) => a.nameKey),
      ...[...PUBLIC_PAGES, ...AREAS.flatMap((a) => a.pages)].flatMap((p) => [
        p.titleKey,
        ...(p.menuKey ? [p.menuKey] : []),
      ]),
    ]);
    for (const lang of ["cn", "tw", "en"] as const) {
      const catalogue = translationsFor(lang);
      expect([...keys].filter((k) => !has(catalogue, k)).map((k) => `${lang}: ${k}`)).toEqual([]);
    }
  });
});
