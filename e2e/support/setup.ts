import { chromium } from "@playwright/test";
import { LAUNCH_OPTIONS } from "../playwright.config";
import { glyphWarnings, measureGlyphs } from "./fonts";

/**
 * Before the journeys: starts the chosen browser once (a browser that cannot start fails here, with its
 * own message, rather than in every journey), prints its version and whether it has the fonts the
 * screenshots need (a warning when not), and hands the font measurement to the journeys (E2E_GLYPHS).
 */
export default async function setup(): Promise<void> {
  const browser = await chromium.launch(LAUNCH_OPTIONS);
  try {
    const page = await browser.newPage();
    const glyphs = await measureGlyphs(page);
    process.env.E2E_GLYPHS = JSON.stringify(glyphs);
    const warnings = glyphWarnings(glyphs);
    console.log(
      `Fonts in Chromium ${browser.version()}: ${warnings.length ? "MISSING, see below" : "CJK and colour emoji present"}`,
    );
    for (const warning of warnings) console.warn(`WARNING: ${warning}`);
  } finally {
    await browser.close();
  }
}
