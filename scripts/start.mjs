#!/usr/bin/env node
// `npm start`: build the web app when its sources are newer than the last build, then run the server
// (web app and API on one port). Nothing else needs to be installed or running.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "apps/web/dist/index.html");
const sources = ["apps/web/src", "apps/web/index.html", "apps/web/vite.config.ts", "packages/contracts/src"].map((p) => path.join(root, p));

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((name) => newest(path.join(p, name))));
}

if (!existsSync(dist) || Math.max(...sources.map(newest)) > statSync(dist).mtimeMs) {
  console.log("Building the web app ...");
  const build = spawnSync("npm", ["run", "build", "-w", "@tessera/web"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const server = spawn(process.execPath, [tsx, path.join(root, "apps/server/src/main.ts")], { cwd: process.cwd(), stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
