import { describe, expect, it } from "vitest";
import { LANGS, MESSAGES } from "@tessera/contracts";
import { translationsFor } from "../../../../i18n/allTranslations";
import { LANG_TAGS } from "../../../../i18n/languages";
import en from "./locales/en.json";
import zhCN from "./locales/zh-CN.json";
import zhTW from "./locales/zh-TW.json";
import { bagPageOf } from "./paths";
import { loadBagTexts } from "./texts";

const OWN = { "zh-CN": zhCN, "zh-TW": zhTW, en } as Record<string, unknown>;

function entries(o: unknown, prefix = ""): [string, string][] {
  if (typeof o !== "object" || o === null) return [[prefix, String(o)]];
  return Object.entries(o).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k));
}

function lookup(catalogue: unknown, key: string): unknown {
  return key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

describe("the light card bag's texts", () => {
  it("repeat the app's catalogue and the contracts' messages word for word, in all three languages", () => {
    for (const lang of LANGS) {
      const own = entries(OWN[LANG_TAGS[lang]]);
      expect(own.map(([k]) => k).sort()).toEqual(
        entries(zhCN)
          .map(([k]) => k)
          .sort(),
      );
      const app = translationsFor(lang);
      for (const [key, text] of own) {
        if (key.startsWith("msg.")) expect(text, key).toBe(MESSAGES[key.slice(4) as keyof typeof MESSAGES][lang]);
        else expect(text, key).toBe(lookup(app, key));
      }
    }
  });

  it("read the app's onecard.json with i18next's placeholders", async () => {
    const { t } = await loadBagTexts("en");
    expect(t("onecard.title.cardBag")).toBe(lookup(translationsFor("en"), "onecard.title.cardBag"));
    expect(t("writeoff.dynamicRenews", { seconds: 42 })).toContain("42");
    expect(t("msg:error.interface")).toBe(MESSAGES["error.interface"].en);
    expect(t("no.such.key")).toBe("no.such.key");
  });
});

describe("the light card bag's pages", () => {
  it("are the login, bag, changes and orders, under /client and /oneCard, in any case", () => {
    expect(bagPageOf("/client/cardBag")).toBe("cardBag");
    expect(bagPageOf("/oneCard/cardbag/")).toBe("cardBag");
    expect(bagPageOf("/client/login")).toBe("login");
    expect(bagPageOf("/client/equityChange")).toBe("changes");
    expect(bagPageOf("/oneCard")).toBe("home");
    // The card bag's other pages stay in the app.
    expect(bagPageOf("/client/rechargeEquity")).toBeNull();
    expect(bagPageOf("/client/claim")).toBeNull();
    expect(bagPageOf("/oneCardQuery")).toBeNull();
  });
});
