// Docs follow the tree (issue 39): every server module, platform adapter, web feature and web area is named
// in docs/architecture.md's Layout section, so a newcomer reading it finds every folder.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const folders = (dir) => readdirSync(join(root, dir)).filter((name) => statSync(join(root, dir, name)).isDirectory());
const docs = readFileSync(join(root, "docs/architecture.md"), "utf8");
const layout = docs.slice(docs.indexOf("## Layout"), docs.indexOf("## Data"));

describe("docs/architecture.md Layout", () => {
  it.each([
    ["server modules", "apps/server/src/modules"],
    ["platform adapters", "apps/server/src/platform/adapters"],
    ["web features", "apps/web/src/features"],
    ["web areas", "apps/web/src/areas"],
  ])("names every one of the %s", (_what, dir) => {
    const missing = folders(dir).filter((name) => !new RegExp(`\\b${name}\\b`).test(layout));
    expect(missing).toEqual([]);
  });
});
