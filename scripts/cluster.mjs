#!/usr/bin/env node
// `npm run cluster`: the production shape on one machine, to try in a minute. Two server processes (more with
// CLUSTER_NODES) on the PostgreSQL server of DATABASE_URL and the Redis of REDIS_URL, behind a small local
// balancer on CLUSTER_PORT (default 8080; scripts/balancer.mjs) that carries HTTP and websockets to the nodes
// whose /readyz says ready (no sticky sessions) and skips a node that refuses connections. Every node names
// the balancer as its public address (IM_PUBLIC_URL, in /easemob/server.json and file URLs), so IM clients
// always come back through it. A node that exits is started again, so `kill -TERM <node pid>` rolls it: it
// drains (readiness off, in-flight requests finish, websockets close with 1001 and their clients reconnect
// through the balancer to the other node), exits and comes back; `kill -KILL <node pid>` is a crash: its
// clients reconnect through the balancer to the other node at once. Ctrl-C stops everything. See docs/deploy.md.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startBalancer } from "./balancer.mjs";
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
// What clients are told to connect to (server.json): the balancer, unless something in front of it (TLS) is.
const publicUrl = process.env.IM_PUBLIC_URL ?? `http://127.0.0.1:${port}`;
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
const CRASH_RESTART_MS = 5000;

function start(node) {
  // TRUST_PROXY: the nodes take the client's address from this proxy's X-Forwarded-For (it connects from loopback).
  const run = serverProcess({
    TRUST_PROXY: "127.0.0.1",
    ...process.env,
    PORT: String(node.port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SECRET_KEY: secretKey,
    IM_PUBLIC_URL: publicUrl,
  });
  node.ready = false;
  node.child = spawn(run.command, run.args, { cwd: root, env: run.env, stdio: ["ignore", "inherit", "inherit"] });
  console.log(`node :${node.port} started (pid ${node.child.pid})`);
  node.child.on("exit", (code, signal) => {
    balancer.markDown(node);
    node.child = null;
    console.log(`node :${node.port} exited (${signal ?? code})`);
    // A drained node (exit 0) comes back at once; one that crashed after a pause, as a supervisor would
    // (no tight restart loop), while its clients carry on through the balancer on the other nodes.
    if (!stopping) setTimeout(() => stopping || start(node), code === 0 ? 1000 : CRASH_RESTART_MS);
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

const balancer = startBalancer({
  port,
  nodes,
  onChange: (node) => console.log(`node :${node.port} ${node.ready ? "ready" : "not ready"}`),
});
await balancer.listening;

// One node first: the first start migrates the database; the others then find it migrated.
start(nodes[0]);
while (!(await isReady(nodes[0]))) await new Promise((r) => setTimeout(r, 250));
for (const node of nodes.slice(1)) start(node);
console.log(
  `cluster on http://127.0.0.1:${port}, clients told ${publicUrl} (nodes ${nodes.map((n) => `:${n.port}`).join(", ")}; kill -TERM a node's pid to roll it, kill -KILL to crash it; Ctrl-C stops all)`,
);

async function stopAll() {
  if (stopping) return;
  stopping = true;
  balancer.close();
  await Promise.all(
    nodes.map((n) => (n.child ? new Promise((r) => (n.child.once("exit", r), n.child.kill("SIGTERM"))) : null)),
  );
  process.exit(0);
}
process.on("SIGINT", () => void stopAll());
process.on("SIGTERM", () => void stopAll());
