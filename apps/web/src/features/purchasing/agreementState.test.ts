import { describe, expect, it } from "vitest";
import { translationsFor } from "../../i18n/allTranslations";
import { agreementStateKey } from "./agreementState";

const get = (catalogue: unknown, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>(
      (node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined),
      catalogue,
    );

/** Issue 25 item 7: after my own signature the docking list says the counterpart's is awaited. */
describe("docking agreement state", () => {
  it("names whose signature is awaited, from either side", () => {
    expect(agreementStateKey("purchaser", { purchaserSigned: true, supplierSigned: false })).toBe(
      "docking.awaitCounterpart",
    );
    expect(agreementStateKey("supplier", { purchaserSigned: true, supplierSigned: false })).toBe("docking.awaitMine");
    expect(agreementStateKey("supplier", { purchaserSigned: false, supplierSigned: false })).toBe("docking.awaitBoth");
    expect(agreementStateKey("purchaser", { purchaserSigned: true, supplierSigned: true })).toBe("docking.signedBoth");
  });

  it("has each state in the three languages", () => {
    for (const lang of ["cn", "tw", "en"] as const) {
      for (const key of ["docking.awaitCounterpart", "docking.awaitMine", "docking.awaitBoth", "docking.signedBoth"]) {
        expect(typeof get(translationsFor(lang), key), `${lang} ${key}`).toBe("string");
      }
    }
  });
});
