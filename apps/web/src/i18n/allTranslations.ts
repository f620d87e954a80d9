import type { Lang } from "@tessera/contracts";
import { FOLDER_OF, type Catalogue } from "./resources";

/**
 * Every language's texts at once, for tests and checks (the app itself loads one language at a time,
 * resources.ts). Nothing the app imports reaches this file, so its eager import stays out of the bundle.
 */
const files = import.meta.glob<Catalogue>("./locales/*/*.json", { eager: true, import: "default" });

/** The module files of one language: file name (without .json) → contents. */
export function localeFiles(lang: Lang): Map<string, Catalogue> {
  const prefix = `./locales/${FOLDER_OF[lang]}/`;
  const out = new Map<string, Catalogue>();
  for (const [path, contents] of Object.entries(files)) {
    if (path.startsWith(prefix)) out.set(path.slice(prefix.length, -".json".length), contents);
  }
  return out;
}

/** All of one language's files merged into one catalogue. */
export function translationsFor(lang: Lang): Catalogue {
  const merged: Catalogue = {};
  for (const contents of localeFiles(lang).values()) Object.assign(merged, contents);
  return merged;
}
