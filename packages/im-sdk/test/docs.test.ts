import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, test } from "vitest";

/** README.md's API reference is generated from the types: it must match them. */
test("the README API reference is up to date with the exported types", () => {
  const root = join(import.meta.dirname, "..");
  const out = execFileSync(process.execPath, [join(root, "scripts/api-docs.mjs"), "--check"], { encoding: "utf8" });
  expect(out).toBe("");
});
