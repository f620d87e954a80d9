import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { isLang, type Lang } from "@tessera/contracts/light";
import { LANG_STORAGE_KEY, LANG_TAGS } from "../../../i18n/languages";

export { LANGUAGE_NAMES } from "../../../i18n/languages";

/**
 * The storefront's i18next: its own small texts (locales/<lang>.json, the storefront's keys only, plus the
 * three server-side messages it shows itself), one language fetched at a time, not the back-office's locale
 * chunk (about 100 kB gzip per language). The language is the one the whole product remembers
 * (localStorage `lang`, as in src/i18n), else simplified Chinese.
 */
const loaders = import.meta.glob<Record<string, unknown>>("./locales/*.json", { import: "default" });
const load = (lang: Lang) => loaders[`./locales/${LANG_TAGS[lang]}.json`]!();

export const mallI18n = i18next.createInstance();

export function currentLang(): Lang {
  return isLang(mallI18n.language) ? mallI18n.language : "cn";
}

export async function initMallI18n(): Promise<void> {
  const stored = window.localStorage.getItem(LANG_STORAGE_KEY);
  const lang: Lang = isLang(stored) ? stored : "cn";
  await mallI18n.use(initReactI18next).init({
    resources: { [lang]: { translation: await load(lang) } },
    lng: lang,
    // Every key exists in all three files (i18n.test.ts), so no second language is fetched to fall back on.
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  document.documentElement.lang = LANG_TAGS[lang];
}

/** The reader's choice, remembered for the whole product. */
export async function chooseLang(lang: Lang): Promise<void> {
  window.localStorage.setItem(LANG_STORAGE_KEY, lang);
  if (!mallI18n.hasResourceBundle(lang, "translation")) {
    mallI18n.addResourceBundle(lang, "translation", await load(lang));
  }
  await mallI18n.changeLanguage(lang);
  document.documentElement.lang = LANG_TAGS[lang];
}
