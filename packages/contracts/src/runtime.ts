import { z } from "zod";

/**
 * In a browser page served under the Content-Security-Policy (no 'unsafe-eval'), zod must not compile
 * parsers with `new Function`: its first parse would probe for it, which the browser refuses and
 * reports as a violation. This module is the first the package evaluates (index.ts), so the setting
 * holds before any schema is used; servers keep the compiled parsers.
 */
export function parseWithoutEval(): void {
  z.config({ jitless: true });
}
if ("document" in globalThis) parseWithoutEval();
