import { rmSync } from "node:fs";
import { glyphWarnings, measuredGlyphs } from "./fonts";

/** Removes the temporary data folder of the server the journeys ran against; repeats a font warning. */
export default function teardown(): void {
  const dir = process.env.TESSERA_E2E_DATA_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
  const glyphs = measuredGlyphs();
  for (const warning of glyphs ? glyphWarnings(glyphs) : []) console.warn(`WARNING: ${warning}`);
}
