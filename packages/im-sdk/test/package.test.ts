import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "rolldown";
import { describe, expect, test } from "vitest";
import type * as Sdk from "../src/index";

/** Packaging: ESM and CJS builds with declarations, a browser bundle without Node built-ins, tree-shaking. */
const root = join(import.meta.dirname, "..");

describe("package", () => {
  test("the build writes ESM with .d.ts, CJS and a browser bundle; both module formats load", async () => {
    execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { stdio: "pipe" });
    for (const f of [
      "dist/esm/index.js",
      "dist/esm/index.d.ts",
      "dist/esm/connection.d.ts",
      "dist/cjs/index.js",
      "dist/browser/im-sdk.min.js",
    ]) {
      expect(existsSync(join(root, f))).toBe(true);
    }
    const cjs = createRequire(import.meta.url)(join(root, "dist/cjs/index.js")) as typeof Sdk;
    const esm = (await import(pathToFileURL(join(root, "dist/esm/index.js")).href)) as typeof Sdk;
    for (const m of [cjs, esm]) {
      expect(typeof new m.connection({ appKey: "a#b", useLocalCache: false }).getGroupInfo).toBe("function");
      expect(m.statusCode.GROUP_NOT_JOINED).toBe(602);
    }
    const browser = readFileSync(join(root, "dist/browser/im-sdk.min.js"), "utf8");
    expect(browser).not.toMatch(/from\s*"node:|require\("node:|\bBuffer\.from\b|process\.env/);
    expect(readFileSync(join(root, "dist/esm/index.d.ts"), "utf8")).toContain("export declare const connection");
  }, 60_000);

  test("tree-shakable: importing only the status codes leaves the connection out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "im-sdk-shake-"));
    try {
      const entry = join(dir, "entry.mjs");
      writeFileSync(
        entry,
        `import { statusCode } from ${JSON.stringify(join(root, "src/index.ts"))};\nconsole.log(statusCode.MAX_LIMIT);\n`,
      );
      const out = await build({
        input: entry,
        platform: "browser",
        write: false,
        logLevel: "silent",
        output: { format: "esm", minify: true },
      });
      const code = out.output[0].code;
      expect(code).not.toContain("getGroupInfo");
      expect(code.length).toBeLessThan(8_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
