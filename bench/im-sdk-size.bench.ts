/**
 * Bundle size of the IM client SDK for browsers: our `@tessera/im-sdk` beside the published
 * `easemob-websdk` it mirrors, each bundled for the browser and minified by rolldown, then gzipped with
 * node:zlib. Both bundles carry every feature of the SDK (the whole connection API). Needs no server.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "rolldown";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function minified(input: string): Promise<Buffer> {
  const result = await build({
    input,
    platform: "browser",
    write: false,
    logLevel: "silent",
    output: { format: "esm", minify: true },
  });
  const chunk = result.output.find((o) => o.type === "chunk");
  if (!chunk || chunk.type !== "chunk") throw new Error(`no bundle for ${input}`);
  return Buffer.from(chunk.code);
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

export async function benchImSdkSize(): Promise<string[]> {
  const ours = await minified(path.join(repo, "packages/im-sdk/src/index.ts"));
  const publishedEntry = createRequire(path.join(repo, "apps/server/package.json")).resolve("easemob-websdk");
  const theirs = await minified(publishedEntry);
  const rows: [string, Buffer][] = [
    ["@tessera/im-sdk", ours],
    ["easemob-websdk", theirs],
  ];
  const lines = ["IM client SDK, browser bundle (rolldown minify, gzip -9):"];
  for (const [name, code] of rows) {
    lines.push(
      `  ${name.padEnd(18)} min ${kb(code.length).padStart(10)}   min+gzip ${kb(gzipSync(code, { level: 9 }).length).padStart(9)}`,
    );
  }
  const ratio = gzipSync(ours, { level: 9 }).length / gzipSync(theirs, { level: 9 }).length;
  lines.push(`  ours is ${(ratio * 100).toFixed(0)}% of the published SDK (min+gzip)`);
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const line of await benchImSdkSize()) console.log(line);
}
