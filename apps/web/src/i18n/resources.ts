import type { Lang } from "@tessera/contracts";

/**
 * The app's texts: one folder per language (`locales/zh-CN`, `zh-TW`, `en`) and one file per module
 * (`core.json`, then one per feature), merged into the `translation` namespace. Each file owns its
 * top-level keys, so modules never edit each other's files; the locale test checks that every file
 * exists in all three languages with the same keys and that no two files share a top-level key.
 */
export type Catalogue = Record<string, unknown>;

const FOLDER_OF: Record<Lang, string> = { cn: "zh-CN", tw: "zh-TW", en: "en" };

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
