import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../test/kit/use-test-app";

/** The built web app's two pages (apps/web: index.html for the back-office, mall.html for the storefront). */
const dist = mkdtempSync(path.join(tmpdir(), "tessera-web-"));
// Registered before the app's hooks: the pages are written before it starts and removed after it closes.
beforeAll(() => {
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>back-office</title>");
  writeFileSync(path.join(dist, "mall.html"), "<!doctype html><title>storefront</title>");
});
afterAll(() => {
  rmSync(dist, { recursive: true, force: true });
});
const t = useTestApp({ WEB_DIST: dist });

describe("the web app's pages", () => {
  it("serves the storefront's own page for /mall/*, uncached like index.html; the back-office's for the rest", async () => {
    for (const url of [
      "/mall/wx1",
      "/mall/wx1/",
      "/mall/wx1/orders/7",
      "/mall/wx1?v=beta",
      "/mall/wx1/login?back=%2Fmall%2Fwx1",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain("storefront");
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
    for (const url of ["/login", "/sale/EquityOrder", "/mallx", "/client/cardBag"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.body, url).toContain("back-office");
    }
  });

  it("leaves the mall's API calls to the API: an unknown one is the API's not-found, not a page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/mall/shop/nowhere" });
    expect(res.body).not.toContain("storefront");
  });
});
