// The language list alone (no schemas): the light login screen (src/login) uses this file too.
import { DEFAULT_LANG, isLang, type Lang } from "@tessera/contracts/light";

/**
 * Language names are shown in their own language whatever the interface language is, so the
 * switch always lists 简体中文 / 繁體中文 / English. They are therefore constants, not translations.
 */
export const LANGUAGE_NAMES: Record<Lang, string> = { cn: "简体中文", tw: "繁體中文", en: "English" };

/** The localStorage key that remembers the user's choice. */
export const LANG_STORAGE_KEY = "lang";

/** BCP 47 tags for <html lang>, Intl and i18next plural rules. */
export const LANG_TAGS: Record<Lang, string> = { cn: "zh-CN", tw: "zh-TW", en: "en" };

/**
 * The language to show: the user's stored choice, else traditional Chinese in the international
 * area (spec 01 §1), else the default `cn`.
 */
export function defaultLangFor(stored: string | null, international: boolean): Lang {
  if (isLang(stored)) return stored;
  return international ? "tw" : DEFAULT_LANG;
}
