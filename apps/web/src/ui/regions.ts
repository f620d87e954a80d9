import { ALL_REGION_CODES, type Lang } from "@tessera/contracts";
import { LANG_TAGS } from "../i18n/languages";

/** Region names in the interface language, through Intl.DisplayNames; the code when unknown. */
export function regionOptions(lang: Lang): { value: string; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([LANG_TAGS[lang]], { type: "region", fallback: "code" });
  } catch {
    names = null;
  }
  return ALL_REGION_CODES.map((code) => {
    let name: string;
    try {
      name = names?.of(code) ?? code;
    } catch {
      name = code;
    }
    return { value: code, label: name === code ? code : `${name} (${code})` };
  });
}
