import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { StaffApps } from "../features/accounts/StaffApps";
import { AreasContext } from "../ui/areas";
import { AREAS } from "./routes";

/** Spec 01 marketplace screen 6: the supplier home links to the verification app and the brand's app, in both versions. */
function render(path: string): string {
  return renderToStaticMarkup(
    createElement(
      AreasContext,
      { value: AREAS },
      createElement(MemoryRouter, { initialEntries: [path] }, createElement(StaffApps)),
    ),
  );
}

describe("the supplier home's staff apps", () => {
  const origin = (globalThis as { window?: unknown }).window;
  it("shows the verification app with its QR on the domestic and the international supplier home, and the brand's app of each", () => {
    (globalThis as { window?: unknown }).window = { location: { origin: "https://tessera.example" } };
    try {
      const domestic = render("/business/Home");
      expect(domestic).toContain('data-testid="staff-apps"');
      expect(domestic).toContain('data-testid="verify-qr"');
      expect(domestic).toContain('href="/verify"');
      expect(domestic).toContain('href="/business/brandMallCode"');
      expect(domestic).not.toContain("/BrandChat");

      const international = render("/international/business/Home");
      expect(international).toContain('data-testid="staff-apps"');
      expect(international).toContain('data-testid="verify-qr"');
      expect(international).toContain('href="/verify"');
      // Issue 40 item 17: the international brand's app is its mall codes too, not the brand chat.
      expect(international).toContain('href="/international/business/brandMallCode"');
      expect(international).not.toContain("/BrandChat");

      // A purchaser's home has no staff apps.
      expect(render("/sale/Home")).toBe("");
      expect(render("/international/sale/Home")).toBe("");
    } finally {
      (globalThis as { window?: unknown }).window = origin;
    }
  });
});
