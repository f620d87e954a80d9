/** Interface languages. `cn` is the default (spec 01 §1); `tw` is traditional Chinese, the international default. */
export const LANGS = ["cn", "tw", "en"] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = "cn";

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

/** Picks a language from a `lang` header value or an Accept-Language list. */
export function pickLang(explicit: string | undefined, acceptLanguage: string | undefined): Lang {
  if (isLang(explicit)) return explicit;
  const first = acceptLanguage?.split(",")[0]?.trim().toLowerCase() ?? "";
  if (first.startsWith("en")) return "en";
  if (first === "zh-tw" || first === "zh-hk" || first.startsWith("zh-hant")) return "tw";
  return DEFAULT_LANG;
}
