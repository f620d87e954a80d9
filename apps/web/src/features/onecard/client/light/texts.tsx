import { createContext, useContext } from "react";
import { CODE, isLang, type Lang } from "@tessera/contracts/light";
import { createCustomerCall } from "../../../../api/customerCall";
import { LANG_STORAGE_KEY, LANG_TAGS } from "../../../../i18n/languages";

/**
 * The light card bag's texts, without i18next: the app's own `onecard.json` of the reader's language (a chunk
 * of its own, vite.config.ts) and locales/<lang>.json, the few texts it shows from elsewhere (the mall codes,
 * the dynamic code's countdown, the language menu's label and the two server messages it shows itself;
 * texts.test.ts checks they equal the app's catalogue and the contracts' messages). Same keys and
 * `{{name}}` placeholders as i18next.
 */
type Catalogue = Record<string, unknown>;
const app = import.meta.glob<Catalogue>("../../../../i18n/locales/*/onecard.json", { import: "default" });
const own = import.meta.glob<Catalogue>("./locales/*.json", { import: "default" });

export interface BagTexts {
  lang: Lang;
  t: (key: string, vars?: Record<string, string | number>) => string;
}

function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** The texts of one language. A missing key shows as the key, as i18next does. */
export async function loadBagTexts(lang: Lang): Promise<BagTexts> {
  const tag = LANG_TAGS[lang];
  const [onecard, extra] = await Promise.all([
    app[`../../../../i18n/locales/${tag}/onecard.json`]!(),
    own[`./locales/${tag}.json`]!(),
  ]);
  const catalogue = { ...onecard, ...extra };
  return {
    lang,
    t: (key, vars) =>
      // `msg:` keys (the contracts' messages, as i18next's namespace) are under `msg` in locales/<lang>.json.
      (lookup(catalogue, key.replace(/^msg:/, "msg.")) ?? key).replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
        String(vars?.[name] ?? whole),
      ),
  };
}

/** The reader's language as the whole product remembers it (localStorage `lang`), else simplified Chinese. */
export function storedLang(): Lang {
  const stored = window.localStorage.getItem(LANG_STORAGE_KEY);
  return isLang(stored) ? stored : "cn";
}

export const TextsContext = createContext<BagTexts>({ lang: "cn", t: (key) => key });
export const useTexts = (): BagTexts => useContext(TextsContext);

/** The texts the calls show (a toast outside React): set by the app when its language changes. */
let current: BagTexts = { lang: "cn", t: (key) => key };
export function setCallTexts(texts: BagTexts): void {
  current = texts;
}

let toastFn: (msg: string) => void = (msg) => console.error(msg);
export function setCallToast(fn: (msg: string) => void): void {
  toastFn = fn;
}

export const CUSTOMER_LOGIN_PATH = "/client/login";

/** The card bag's customer calls (api/customerCall.ts), with these texts and the light toast. */
export const customerCall = createCustomerCall({
  lang: () => current.lang,
  toast: (msg) => toastFn(msg),
  interfaceError: () => current.t("msg:error.interface"),
  loginExpired: () => current.t("msg:onecard.loginExpired"),
  expiredCode: CODE.MALL_LOGIN_EXPIRED,
  defaultLoginPath: CUSTOMER_LOGIN_PATH,
});
