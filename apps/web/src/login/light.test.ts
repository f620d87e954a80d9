import { readFileSync } from "node:fs";
import { isValidElement } from "react";
import { describe, expect, it } from "vitest";
import { LANGS } from "@tessera/contracts/light";
import { SESSION_KEYS } from "../api/tokens";
import { FEATURES, STEPS, TILES } from "./keys";
import { LightLanding } from "./LightLanding";
import { lightScreenFor } from "./lightScreen";
import { loadLangTexts } from "./texts";

function storage(items: Record<string, string> = {}): Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  const map = new Map(Object.entries(items));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe("light login screen", () => {
  it("finds every text it shows in core.json, in every language", async () => {
    // The screen loads core.json alone: a key moved to another file would show as the bare key.
    const source = readFileSync(new URL("./LightLanding.tsx", import.meta.url), "utf8");
    const literal = [...source.matchAll(/"((?:app|auth|error|header|landing)\.[\w.]+)"/g)].map((m) => m[1] ?? "");
    const keys = [...literal, ...[...TILES, ...FEATURES, ...STEPS].flat()];
    expect(literal.length).toBeGreaterThan(10);
    for (const lang of LANGS) {
      const { t } = await loadLangTexts(lang);
      expect(
        keys.filter((key) => t(key) === key),
        lang,
      ).toEqual([]);
    }
  });

  it("fills {{placeholders}} as i18next does and shows a missing key as itself", async () => {
    const { t } = await loadLangTexts("en");
    expect(t("app.footer", { year: 2026 })).toContain("2026");
    expect(t("landing.noSuchKey")).toBe("landing.noSuchKey");
  });

  it("opens on the login pages without a session, in the version's language", async () => {
    for (const [path, version, lang] of [
      ["/login", "domestic", "cn"],
      ["/login1", "domestic", "cn"],
      ["/international/INlogin", "international", "tw"],
    ] as const) {
      const screen = await lightScreenFor(path, storage());
      expect(isValidElement(screen) && screen.type === LightLanding, path).toBe(true);
      const props = screen?.props as { version: string; initialTexts: { lang: string } };
      expect(props.version).toBe(version);
      expect(props.initialTexts.lang).toBe(lang);
    }
    const chosen = await lightScreenFor("/international/INlogin", storage({ lang: "en" }));
    expect((chosen?.props as { initialTexts: { lang: string } }).initialTexts.lang).toBe("en");
  });

  it("leaves other pages and signed-in visitors to the whole app", () => {
    expect(lightScreenFor("/SelectUser", storage())).toBeNull();
    expect(lightScreenFor("/ops/login", storage())).toBeNull();
    expect(lightScreenFor("/login", storage({ [SESSION_KEYS.domestic.token]: "t" }))).toBeNull();
    // The other version's session does not count: the international login still opens light.
    expect(lightScreenFor("/international/INlogin", storage({ [SESSION_KEYS.domestic.token]: "t" }))).not.toBeNull();
  });
});
