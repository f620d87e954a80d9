import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { isLang, LANGS, type Lang } from "@tessera/contracts";
import { defaultLangFor, LANG_STORAGE_KEY, LANG_TAGS } from "./languages";
import { messageResources } from "./messages";
import { loadTranslations } from "./resources";

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

/**
 * Ready when the first language's texts have arrived; main.tsx renders after it. The server's messages
 * (namespace `msg`, small) come in every language at once; the app's texts one language at a time.
 */
export const i18nReady: Promise<void> = loadTranslations(initial).then(async (translation) => {
  await i18n.use(initReactI18next).init({
    resources: {
      ...Object.fromEntries(LANGS.map((lang) => [lang, { msg: messageResources(lang) }])),
      [initial]: { translation, msg: messageResources(initial) },
    },
    lng: initial,
    // Every key exists in every language (the locale test), so no second language is fetched to fall back on.
    fallbackLng: false,
    supportedLngs: [...LANGS],
    ns: ["translation", "msg"],
    defaultNS: "translation",
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  document.documentElement.lang = LANG_TAGS[initial];
});
i18n.on("languageChanged", (lng) => {
  if (isLang(lng)) document.documentElement.lang = LANG_TAGS[lng];
});

/** Switches to a language, fetching its texts first if this page has not shown it yet. */
async function switchTo(lang: Lang): Promise<void> {
  if (!i18n.hasResourceBundle(lang, "translation")) {
    i18n.addResourceBundle(lang, "translation", await loadTranslations(lang));
  }
  await i18n.changeLanguage(lang);
}

export function currentLang(): Lang {
  return isLang(i18n.language) ? i18n.language : "cn";
}

/** The user's explicit choice: remembered in localStorage `lang`. */
export function chooseLang(lang: Lang): void {
  window.localStorage.setItem(LANG_STORAGE_KEY, lang);
  void switchTo(lang);
}

/** Follows the area default (tw in /international) while the user has not chosen a language. */
export function applyAreaDefaultLang(pathname: string): void {
  if (storedLang()) return;
  const lang = defaultLangFor(null, isInternationalPath(pathname));
  if (i18n.language !== lang) void switchTo(lang);
}
