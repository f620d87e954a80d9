#!/usr/bin/env node
// `npm start`: build the web app when its sources are newer than the last build, bundle the server, then
// run it with plain node (web app and API on one port). Nothing else needs to be installed or running.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer } from "./build-server.mjs";
import { serverProcess } from "./server-process.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "apps/web/dist/index.html");
const sources = ["apps/web/src", "apps/web/index.html", "apps/web/vite.config.ts", "packages/contracts/src"].map((p) =>
  path.join(root, p),
);

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

// Bundling takes well under a second, so the server is bundled on every start and always runs the sources.
await buildServer();
// The sandbox default: with the local mail and SMS adapters (nothing set otherwise) and no TESSERA_MODE=live,
// the dev outbox and its mailbox page are on (DEV_ROUTES=true), and the server's first log line says so.
// DEV_ROUTES=false, real mail or TESSERA_MODE=live leaves them off. An SMS vendor's adapter against the local SMS
// gateway (SMS_ADAPTER=aliyun ALIYUN_SMS_ENDPOINT=local, or tencent with TENCENT_SMS_ENDPOINT=local) is sandbox too.
const env = process.env;
const sms = env.SMS_ADAPTER || "local";
const localSms =
  sms === "local" ||
  (sms === "aliyun" && env.ALIYUN_SMS_ENDPOINT === "local") ||
  (sms === "tencent" && env.TENCENT_SMS_ENDPOINT === "local");
const sandbox =
  (env.DEV_ROUTES ?? "") === "" && (env.MAIL_ADAPTER ?? "local") === "local" && localSms && env.TESSERA_MODE !== "live";
const run = serverProcess(sandbox ? { ...env, DEV_ROUTES: "true" } : env);
const server = spawn(run.command, run.args, { cwd: process.cwd(), env: run.env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
