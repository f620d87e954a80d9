import { test, type Page } from "@playwright/test";

/**
 * Whether the browser has the fonts our screens need, measured in a page: with no CJK font Chromium
 * draws Chinese as empty boxes, and every box looks the same, so two different characters that draw
 * alike mean boxes; colour emoji draw in colour only from an emoji font. The global setup measures once
 * (E2E_GLYPHS carries the result to the journeys); the journeys that save screenshots for people note a
 * missing font on their result with `test.beforeEach(noteMissingFonts)`.
 */
export interface Glyphs {
  cjk: boolean;
  colourEmoji: boolean;
}

export async function measureGlyphs(page: Page): Promise<Glyphs> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const g = canvas.getContext("2d", { willReadFrequently: true });
    if (!g) throw new Error("no 2d canvas");
    const draw = (text: string) => {
      g.clearRect(0, 0, 64, 64);
      g.font = "48px sans-serif";
      g.textBaseline = "top";
      g.fillStyle = "#000";
      g.fillText(text, 4, 4);
      return g.getImageData(0, 0, 64, 64).data;
    };
    const zhong = draw("中");
    const yu = draw("语");
    const cjk = zhong.some((v, i) => v !== yu[i]);
    const emoji = draw("😀");
    let colourEmoji = false;
    for (let i = 0; i < emoji.length && !colourEmoji; i += 4) {
      colourEmoji = emoji[i + 3]! > 0 && (emoji[i] !== emoji[i + 1] || emoji[i + 1] !== emoji[i + 2]);
    }
    return { cjk, colourEmoji };
  });
}

export function glyphWarnings(glyphs: Glyphs): string[] {
  const warnings: string[] = [];
  if (!glyphs.cjk) {
    warnings.push(
      "no CJK font: Chinese text in the screenshots (e2e/artifacts/screenshots) is drawn as empty boxes; install fonts-noto-cjk (.ci/run does)",
    );
  }
  if (!glyphs.colourEmoji) {
    warnings.push(
      "no colour emoji font: emoji in the screenshots are monochrome or boxes; install fonts-noto-color-emoji (.ci/run does)",
    );
  }
  return warnings;
}

/** The global setup's measurement, in a journey's process. */
export function measuredGlyphs(): Glyphs | undefined {
  const json = process.env.E2E_GLYPHS;
  return json ? (JSON.parse(json) as Glyphs) : undefined;
}

/** For `test.beforeEach` in journeys that save screenshots: a warning annotation when a font is missing. */
export function noteMissingFonts(): void {
  const glyphs = measuredGlyphs();
  if (!glyphs) return;
  for (const description of glyphWarnings(glyphs)) test.info().annotations.push({ type: "warning", description });
}
