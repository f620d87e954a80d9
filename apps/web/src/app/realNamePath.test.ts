import { describe, expect, it } from "vitest";
import { AREAS } from "./routes";
import { realNamePathFor } from "../features/onboarding/realNamePath";

/** Issue 25 item 1: every purchaser and supplier area, domestic and international, has its real-name page. */
describe("real-name page of each trading area", () => {
  it("links each area's notice to a real-name page that exists in that area's route table", () => {
    for (const id of ["sale", "business", "intlSale", "intlBusiness"] as const) {
      const area = AREAS.find((a) => a.id === id);
      if (!area) throw new Error(`no area ${id}`);
      const target = realNamePathFor(`${area.base}/Home`);
      expect(target, id).not.toBeNull();
      const page = area.pages.find((p) => `${area.base}/${p.path}` === target);
      expect(page, `${id}: ${target}`).toBeDefined();
      expect(page?.menuKey, `${id} shows it in its menu`).toBe("onboarding.menu.realName");
    }
  });

  it("knows no real-name page outside the trading areas", () => {
    expect(realNamePathFor("/providers/Home")).toBeNull();
    expect(realNamePathFor("/login")).toBeNull();
    expect(realNamePathFor("/international/sale")).toBe("/international/sale/Authentication");
    expect(realNamePathFor("/international/business/ProcurementLiaison")).toBe(
      "/international/business/AuthenticationB",
    );
  });
});
