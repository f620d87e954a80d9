import type { Version } from "@tessera/contracts";
import type { Lang } from "@tessera/contracts/light";
import { defaultLangFor, LANG_STORAGE_KEY } from "../i18n/languages";
import { FOLDER_OF } from "../i18n/resources";

/**
 * The light login screen's texts: the `core.json` of one language (the app's shared texts: header,
 * auth, landing), looked up with the same keys and `{{name}}` placeholders as i18next, without i18next.
 * Vite makes each language's core.json its own small chunk (vite.config.ts), which the whole app's
 * catalogue then reuses.
 */
export interface LightTexts {
  lang: Lang;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

type Catalogue = Record<string, unknown>;

const loaders = import.meta.glob<Catalogue>("../i18n/locales/*/core.json", { import: "default" });

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** The texts of one language. A missing key shows as the key, as i18next does. */
export async function loadLangTexts(lang: Lang): Promise<LightTexts> {
  const load = loaders[`../i18n/locales/${FOLDER_OF[lang]}/core.json`];
  if (!load) throw new Error(`no core texts for ${lang}`);
  const catalogue = await load();
  return {
    lang,
    t: (key, vars) =>
      (lookup(catalogue, key) ?? key).replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(vars?.[name] ?? whole)),
  };
}

/** The reader's language as the whole app picks it (i18n/index.ts): stored choice, else the version's default. */
export function loadLightTexts(version: Version, storage: Pick<Storage, "getItem">): Promise<LightTexts> {
  return loadLangTexts(defaultLangFor(storage.getItem(LANG_STORAGE_KEY), version === "international"));
}
