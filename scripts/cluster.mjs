#!/usr/bin/env node
// `npm run cluster`: the production shape on one machine, to try in a minute. Two server processes (more with
// CLUSTER_NODES) on the PostgreSQL server of DATABASE_URL and the Redis of REDIS_URL, behind a small local
// proxy on CLUSTER_PORT (default 8080) that carries HTTP and websockets to the nodes whose /readyz says ready
// (no sticky sessions). A node that exits is started again, so `kill -TERM <node pid>` rolls it: it drains
// (readiness off, in-flight requests finish, websockets close with 1001 and their clients reconnect through
// the proxy to the other node), exits and comes back. Ctrl-C stops everything. See docs/deploy.md.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import httpProxy from "http-proxy";
import { buildServer } from "./build-server.mjs";
import { serverProcess } from "./server-process.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { DATABASE_URL, REDIS_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL) {
  console.error(
    "usage: DATABASE_URL=postgres://user@host:5432/tessera REDIS_URL=redis://127.0.0.1:6379 npm run cluster",
  );
  process.exit(2);
}
const port = Number(process.env.CLUSTER_PORT ?? 8080);
const count = Number(process.env.CLUSTER_NODES ?? 2);
const firstNodePort = Number(process.env.CLUSTER_NODE_PORT ?? port + 1);
// Every node must sign and read tokens and card secrets with one key, and find the same stored files.
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, "data-cluster"));
let secretKey = process.env.SECRET_KEY;
if (!secretKey) {
  secretKey = randomBytes(32).toString("hex");
  console.log(
    `SECRET_KEY was not set; the nodes share this one for this run (set it to keep card secrets readable across runs):\n  SECRET_KEY=${secretKey}`,
  );
}

await buildServer();

/** @type {{ port: number, child: import("node:child_process").ChildProcess | null, ready: boolean }[]} */
const nodes = Array.from({ length: count }, (_, i) => ({ port: firstNodePort + i, child: null, ready: false }));
let stopping = false;

function start(node) {
  // TRUST_PROXY: the nodes take the client's address from this proxy's X-Forwarded-For (it connects from loopback).
  const run = serverProcess({
    TRUST_PROXY: "127.0.0.1",
    ...process.env,
    PORT: String(node.port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SECRET_KEY: secretKey,
  });
  node.ready = false;
  node.child = spawn(run.command, run.args, { cwd: root, env: run.env, stdio: ["ignore", "inherit", "inherit"] });
  console.log(`node :${node.port} started (pid ${node.child.pid})`);
  node.child.on("exit", (code, signal) => {
    node.ready = false;
    node.child = null;
    console.log(`node :${node.port} exited (${signal ?? code})`);
    if (!stopping) setTimeout(() => start(node), 1000);
  });
}

async function isReady(node) {
  try {
    const res = await fetch(`http://127.0.0.1:${node.port}/readyz`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

// One node first: the first start migrates the database; the others then find it migrated.
start(nodes[0]);
while (!(await isReady(nodes[0]))) await new Promise((r) => setTimeout(r, 250));
for (const node of nodes.slice(1)) start(node);

const poll = setInterval(async () => {
  for (const node of nodes) {
    const ready = node.child !== null && (await isReady(node));
    if (ready !== node.ready) console.log(`node :${node.port} ${ready ? "ready" : "not ready"}`);
    node.ready = ready;
  }
}, 500);

let next = 0;
function pick() {
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[(next + i) % nodes.length];
    if (node.ready) {
      next = (next + i + 1) % nodes.length;
      return node;
    }
  }
  return null;
}

const proxy = httpProxy.createProxyServer({ xfwd: true });
const unavailable = (res) => {
  if (res.headersSent) return res.destroy();
  res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
  res.end(JSON.stringify({ code: 503, data: null, msg: "No server node is ready; try again in a moment" }));
};
proxy.on("error", (_err, _req, res) => {
  if (res instanceof http.ServerResponse) unavailable(res);
  else res.destroy();
});
const server = http.createServer((req, res) => {
  const node = pick();
  if (!node) return unavailable(res);
  proxy.web(req, res, { target: `http://127.0.0.1:${node.port}` });
});
server.on("upgrade", (req, socket, head) => {
  const node = pick();
  if (!node) return socket.destroy();
  proxy.ws(req, socket, head, { target: `ws://127.0.0.1:${node.port}` });
});
server.listen(port, "127.0.0.1", () => {
  console.log(
    `cluster on http://127.0.0.1:${port} (nodes ${nodes.map((n) => `:${n.port}`).join(", ")}; kill -TERM a node's pid to roll it; Ctrl-C stops all)`,
  );
});

async function stopAll() {
  if (stopping) return;
  stopping = true;
  clearInterval(poll);
  server.close();
  await Promise.all(
    nodes.map((n) => (n.child ? new Promise((r) => (n.child.once("exit", r), n.child.kill("SIGTERM"))) : null)),
  );
  process.exit(0);
}
process.on("SIGINT", () => void stopAll());
process.on("SIGTERM", () => void stopAll());
