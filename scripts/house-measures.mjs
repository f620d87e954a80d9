#!/usr/bin/env node
// The house's measures (issue 39): where query building sits, module cycles, file sizes, cross-area web
// imports and long lines. Prints one line per measure; `--list` names the offenders.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, dirname, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const list = process.argv.includes("--list");

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const sourceRoots = [
  "apps/server/src",
  "apps/server/test",
  "apps/web/src",
  "packages/contracts/src",
  "packages/im-sdk/src",
  "e2e",
  "bench",
  "scripts",
];
const files = sourceRoots.flatMap((dir) => walk(join(root, dir)));
const rel = (path) => relative(root, path);
const isTest = (path) => /\.test\.tsx?$|\/test\/|^e2e\//.test(rel(path));

// 1. Query building outside repositories.
const queryCall = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/g;
const queryHome = (path) => {
  const r = rel(path);
  if (!r.startsWith("apps/server/src/")) return true;
  if (isTest(path)) return true;
  return /\.repo\.ts$|\/repo\.ts$|\.sql\.ts$|\/db\/|\/im\/store\/|\/tools\/|\/conservation\//.test(r);
};
let outsideCalls = 0;
let totalCalls = 0;
const outsideByFile = [];
for (const path of files) {
  if (!rel(path).startsWith("apps/server/src/") || isTest(path)) continue;
  const text = readFileSync(path, "utf8");
  const count = (text.match(queryCall) ?? []).length;
  totalCalls += count;
  if (count && !queryHome(path)) {
    outsideCalls += count;
    outsideByFile.push([rel(path), count]);
  }
}

// 2. Module cycles (server modules importing one another, types included: a type import is a dependency too).
const modulesDir = join(root, "apps/server/src/modules");
const moduleNames = readdirSync(modulesDir).filter((n) => statSync(join(modulesDir, n)).isDirectory());
const edges = new Map(moduleNames.map((m) => [m, new Set()]));
for (const path of files) {
  const r = rel(path);
  const match = /^apps\/server\/src\/modules\/([^/]+)\//.exec(r);
  if (!match || isTest(path)) continue;
  const from = match[1];
  const text = readFileSync(path, "utf8");
  for (const [, spec] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)) {
    if (!spec.startsWith(".")) continue;
    const target = relative(modulesDir, resolve(dirname(path), spec));
    const to = target.split("/")[0];
    if (to && to !== from && moduleNames.includes(to)) edges.get(from).add(to);
  }
}
const cycles = [];
const seen = new Set();
for (const start of moduleNames) {
  const stack = [[start, [start]]];
  while (stack.length) {
    const [node, path] = stack.pop();
    for (const next of edges.get(node)) {
      if (next === start) {
        const key = [...path].sort().join(",");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...path, start].join(" → "));
        }
      } else if (!path.includes(next) && path.length < 6) stack.push([next, [...path, next]]);
    }
  }
}

// 3. Source files over 600 lines (tests excluded).
const big = files
  .filter((p) => !isTest(p) && !/locales|\/proto\/.*\.json/.test(rel(p)))
  .map((p) => [rel(p), readFileSync(p, "utf8").split("\n").length])
  .filter(([, n]) => n > 600)
  .sort((a, b) => b[1] - a[1]);

// 4. Web imports from one audience's area into another's.
const areaOf = (r) => /^apps\/web\/src\/areas\/([^/]+)\//.exec(r)?.[1];
const crossArea = [];
for (const path of files) {
  const r = rel(path);
  const from = areaOf(r);
  if (!from) continue;
  const text = readFileSync(path, "utf8");
  for (const [, spec] of text.matchAll(/(?:from\s+|import\()\s*"([^"]+)"/g)) {
    if (!spec.startsWith(".")) continue;
    const to = areaOf(rel(resolve(dirname(path), spec)));
    if (to && to !== from) crossArea.push(`${r} → ${spec}`);
  }
}

// 5. Lines over 160 characters.
let longLines = 0;
const longByFile = [];
for (const path of files) {
  const n = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.length > 160).length;
  longLines += n;
  if (n) longByFile.push([rel(path), n]);
}

console.log(`query-builder calls outside repositories: ${outsideCalls} of ${totalCalls}`);
if (list) for (const [f, n] of outsideByFile.sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${f}`);
console.log(`module cycles: ${cycles.length}`);
if (list) for (const c of cycles) console.log(`  ${c}`);
console.log(`source files over 600 lines: ${big.length}`);
if (list) for (const [f, n] of big) console.log(`  ${n}\t${f}`);
console.log(`cross-area web imports: ${crossArea.length}`);
if (list) for (const c of crossArea) console.log(`  ${c}`);
console.log(`lines over 160 characters: ${longLines}`);
if (list) for (const [f, n] of longByFile.sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${n}\t${f}`);
