/**
 * Builds the package: ESM (dist/esm, with .d.ts) by tsc and CommonJS (dist/cjs) by rolldown, one module
 * per source file so bundlers can tree-shake, plus a minified single-file browser bundle (dist/browser) by rolldown,
 * used for the size benchmark. Everything runs offline.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = join(root, "../../node_modules/typescript/bin/tsc");
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
await build({
  input: join(root, "src/index.ts"),
  platform: "neutral",
  output: {
    dir: join(root, "dist/cjs"),
    format: "cjs",
    preserveModules: true,
    preserveModulesRoot: join(root, "src"),
    entryFileNames: "[name].js",
  },
  logLevel: "warn",
});
writeFileSync(join(root, "dist/cjs/package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
mkdirSync(join(root, "dist/browser"), { recursive: true });
await build({
  input: join(root, "src/index.ts"),
  platform: "browser",
  output: { file: join(root, "dist/browser/im-sdk.min.js"), format: "esm", minify: true },
  logLevel: "warn",
});
console.log("built dist/esm, dist/cjs, dist/browser/im-sdk.min.js");
