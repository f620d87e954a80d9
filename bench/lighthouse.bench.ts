import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { openPglite } from "../apps/server/src/db/database";
import { newShop, stockMall } from "../apps/server/test/kit/mall-fixtures";
import { benchApp } from "./lib/app";
import { freePort } from "./lib/ports";

/**
 * Lighthouse performance scores from Chromium (issue 25 item 8 and issue 30), on the built web app
 * (`npm run build`) served by the real server with its precompressed assets:
 * - `/login` with the desktop preset (the back-office is used on desktops; budget: at least 90);
 * - a released mall's storefront `/mall/:appId` with the default mobile preset (simulated slow 4G and a
 *   4x slower CPU: the storefront is opened on phones; budget: at least 90);
 * - the customer card bag `/client/cardBag` with the mobile preset (issue 40 item 9: its light entry; a new
 *   visitor, so the page it shows is the card bag's login; budget: at least 90).
 * The mall is set up with the mall tests' fixtures on an embedded database. CHROME_PATH names the browser
 * (default /usr/bin/chromium, Debian's package).
 */
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const WEB_DIST = path.resolve(process.env.WEB_DIST ?? path.join(import.meta.dirname, "../apps/web/dist"), "index.html");

interface Score {
  score: number;
  fcp: string;
  lcp: string;
  tbt: string;
}

async function measure(url: string, port: number, preset: "desktop" | "mobile"): Promise<Score> {
  const result = await lighthouse(
    url,
    { port, output: "json", logLevel: "error", onlyCategories: ["performance"] },
    preset === "desktop" ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const audit = (id: string) => lhr.audits[id]?.displayValue ?? "?";
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: audit("first-contentful-paint"),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
  };
}

export async function benchLighthouse(): Promise<string[]> {
  if (!existsSync(WEB_DIST)) return ["Lighthouse: apps/web/dist is missing (run `npm run build` first)"];
  if (!existsSync(CHROME)) return [`Lighthouse: no Chromium at ${CHROME} (set CHROME_PATH)`];
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-lighthouse-"));
  const database = await openPglite(path.join(dataDir, "db"));
  const t = await benchApp(database);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
  });
  try {
    const shop = await newShop(t, { codes: 20, theme: 3 });
    await stockMall(t, shop);
    const port = await freePort();
    await t.app.listen({ port, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${port}`;
    await measure(`${base}/login`, chrome.port, "desktop"); // a first run warms the server's caches
    const login = await measure(`${base}/login`, chrome.port, "desktop");
    const mall = await measure(`${base}/mall/${shop.appId}`, chrome.port, "mobile");
    const bag = await measure(`${base}/client/cardBag`, chrome.port, "mobile");
    const line = (name: string, s: Score) =>
      `${name.padEnd(36)} ${String(s.score).padStart(3)}   FCP ${s.fcp}   LCP ${s.lcp}   TBT ${s.tbt}   (budget: at least 90)`;
    return [
      "Lighthouse performance (Chromium):",
      line("  /login, desktop", login),
      line("  mall storefront, mobile", mall),
      line("  card bag (/client/cardBag), mobile", bag),
    ];
  } finally {
    chrome.kill();
    await t.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: npx tsx bench/lighthouse.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await benchLighthouse()).join("\n"));
}
