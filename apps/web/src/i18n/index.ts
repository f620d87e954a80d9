import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { isLang, LANGS, type Lang } from "@tessera/contracts";
import { defaultLangFor, LANG_STORAGE_KEY, LANG_TAGS } from "./languages";
import { messageResources } from "./messages";
import { translationsFor } from "./resources";

/**
 * i18next with the app's texts (namespace `translation`, structured keys) and the contracts'
 * MESSAGES (namespace `msg`). Language codes are the app's own: cn, tw, en.
 */
export const i18n = i18next.createInstance();

function isInternationalPath(pathname: string): boolean {
  return pathname === "/international" || pathname.startsWith("/international/");
}

export function storedLang(): Lang | null {
  const v = window.localStorage.getItem(LANG_STORAGE_KEY);
  return isLang(v) ? v : null;
}

const initial = defaultLangFor(storedLang(), isInternationalPath(window.location.pathname));

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(
    LANGS.map((lang) => [lang, { translation: translationsFor(lang), msg: messageResources(lang) }]),
  ),
  lng: initial,
  fallbackLng: "cn",
  supportedLngs: [...LANGS],
  ns: ["translation", "msg"],
  defaultNS: "translation",
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
document.documentElement.lang = LANG_TAGS[initial];
i18n.on("languageChanged", (lng) => {
  if (isLang(lng)) document.documentElement.lang = LANG_TAGS[lng];
});

export function currentLang(): Lang {
  return isLang(i18n.language) ? i18n.language : "cn";
}

/** The user's explicit choice: remembered in localStorage `lang`. */
export function chooseLang(lang: Lang): void {
  window.localStorage.setItem(LANG_STORAGE_KEY, lang);
  void i18n.changeLanguage(lang);
}

/** Follows the area default (tw in /international) while the user has not chosen a language. */
export function applyAreaDefaultLang(pathname: string): void {
  if (storedLang()) return;
  const lang = defaultLangFor(null, isInternationalPath(pathname));
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
}
