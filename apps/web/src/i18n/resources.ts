import type { Lang } from "@tessera/contracts";

/**
 * The app's texts: one folder per language (`locales/zh-CN`, `zh-TW`, `en`) and one file per module
 * (`core.json`, then one per feature), merged into the `translation` namespace. Each file owns its
 * top-level keys, so modules never edit each other's files; the locale test checks that every file
 * exists in all three languages with the same keys and that no two files share a top-level key.
 *
 * The app loads one language at a time (issue 25 item 8: all three were in the first download of every
 * page, about 100 kB gzip of which a reader uses a third); tests read all of them at once through
 * `allTranslations.ts`.
 */
export type Catalogue = Record<string, unknown>;

export const FOLDER_OF: Record<Lang, string> = { cn: "zh-CN", tw: "zh-TW", en: "en" };

const loaders = import.meta.glob<Catalogue>("./locales/*/*.json", { import: "default" });

/** All of one language's files merged into one catalogue, fetched on first use. */
export async function loadTranslations(lang: Lang): Promise<Catalogue> {
  const prefix = `./locales/${FOLDER_OF[lang]}/`;
  const files = await Promise.all(
    Object.entries(loaders)
      .filter(([path]) => path.startsWith(prefix))
      .map(([, load]) => load()),
  );
  return Object.assign({}, ...files) as Catalogue;
}
