import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { WebSocket } from "ws";
import { CMD } from "../apps/server/src/im/gateway/frames";
import {
  pullFrame,
  provisionFrame,
  sendFrame,
  WireClient,
  type ServerFrame,
} from "../apps/server/src/im/gateway/wire-client";
import { decodeMessageBody, decodeMeta } from "../apps/server/src/im/proto/decode";
import { buildServer } from "../scripts/build-server.mjs";
import { serverProcess } from "../scripts/server-process.mjs";
import { freePort } from "./lib/ports";
import { profileServer } from "./lib/inspector-profile";
import { allRunning, cpuMs, syscalls } from "./lib/proc";
import { sized } from "./lib/scale";
import { requires } from "./lib/verdict";

/**
 * IM realtime: one-to-one messages per second delivered end to end through the gateway (stored in the
 * database before the ack, pulled by the receiver), and p50/p99 latency at half that rate, with 1,000
 * and then 10,000 connected clients; server memory per idle connection. Beside it, a bare `ws` relay
 * (its own process, forwarding frames from socket to socket, nothing stored) measured the same way.
 * The load runs in this process; servers in theirs, all on 127.0.0.1.
 */

const repoRoot = path.resolve(import.meta.dirname, "..");
const PAIRS = 50;
/** The two loads: the gateway at SMALL and at LARGE connected clients (the rest idle), and the same for the relay. */
const SMALL = sized(1_000, 200);
const LARGE = sized(10_000, 400);
const IDLE_USERS = 100;
/** Messages a sender may have sent but not yet seen delivered. */
const WINDOW = 16;
const PASSWORD = "bench-pw-1";
const TAG = Date.now().toString(36);

interface Proc {
  port: number;
  pid: number;
  stop(): Promise<void>;
  /** Statements the server sent to PostgreSQL so far (BENCH_STATEMENTS=1 only), by kind. */
  statements?: () => Promise<Map<string, number>>;
}

/**
 * Preloaded into the server with BENCH_STATEMENTS=1: counts the statements every pg client sends (by
 * their first words) and writes the counts to a file on SIGUSR2, for statements per message.
 */
const STATEMENT_COUNTER = `
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
const pg = createRequire(process.env.BENCH_PG_FROM)("pg");
const counts = {};
const proto = pg.Client.prototype;
const original = proto.query;
proto.query = function (...args) {
  const a = args[0];
  const text = typeof a === "string" ? a : a && typeof a.text === "string" ? a.text : "";
  const kind = text.trim().replace(/\\s+/g, " ").slice(0, 48);
  counts[kind] = (counts[kind] ?? 0) + 1;
  return original.apply(this, args);
};
process.on("SIGUSR2", () => writeFileSync(process.env.BENCH_STATEMENTS_FILE, JSON.stringify(counts)));
`;

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0);
}

async function waitPort(child: ChildProcess, check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The real server, run as `npm start` runs it, its pid the server's own (for its memory and CPU). */
async function startGateway(databaseUrl: string | undefined): Promise<Proc> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-ws-"));
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_STATEMENTS=1: the server counts its statements (a preloaded module patches pg's client).
  const countFile = path.join(dataDir, "statements.json");
  const counter = path.join(dataDir, "count-statements.mjs");
  if (process.env.BENCH_STATEMENTS) writeFileSync(counter, STATEMENT_COUNTER);
  const preload = process.env.BENCH_STATEMENTS ? ["--import", counter] : [];
  // The server as `npm start` runs it (the bundle, its node flags and allocator settings).
  await buildServer();
  const run = serverProcess({
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    IM_OPEN_REGISTRATION: "true",
    IM_MAX_DEVICES: "1000",
    IM_RATE_LIMIT_PER_SECOND: "0",
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    BENCH_PG_FROM: path.join(repoRoot, "apps/server/package.json"),
    BENCH_STATEMENTS_FILE: countFile,
  });
  // BENCH_SERVER_FLAGS: more node flags for the server (e.g. "--trace-gc"); its output is shown then.
  const flags = process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter((f) => f !== "") ?? [];
  const child = spawn(run.command, [...prof, ...preload, ...flags, ...run.args], {
    cwd: repoRoot,
    env: run.env,
    stdio: ["ignore", flags.length > 0 ? "inherit" : "ignore", "inherit"],
  });
  await waitPort(child, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, "server");
  return {
    port,
    pid: child.pid ?? 0,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
    ...(process.env.BENCH_STATEMENTS && {
      async statements() {
        rmSync(countFile, { force: true });
        child.kill("SIGUSR2");
        for (let i = 0; i < 100; i++) {
          try {
            return new Map(Object.entries(JSON.parse(readFileSync(countFile, "utf8")) as Record<string, number>));
          } catch {
            await new Promise((r) => setTimeout(r, 20));
          }
        }
        return new Map<string, number>();
      },
    }),
  };
}

/** A bare relay: a client names itself with a text frame; binary frames are `to\\0payload`, forwarded. */
async function startRelay(): Promise<Proc> {
  const script = `
    import { WebSocketServer } from "ws";
    const byName = new Map();
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
    wss.on("connection", (ws) => {
      ws.on("message", (data, isBinary) => {
        if (!isBinary) { byName.set(data.toString(), ws); return; }
        const zero = data.indexOf(0);
        byName.get(data.subarray(0, zero).toString())?.send(data.subarray(zero + 1));
      });
    });
    wss.on("listening", () => console.log("PORT " + wss.address().port));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: path.join(repoRoot, "apps/server"),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m?.[1]) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`relay exited with ${code}`)));
  });
  return {
    port,
    pid: child.pid ?? 0,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** One sender→receiver pair, for either system: send(ts) and a callback per delivered timestamp. */
interface Pair {
  send(sentAt: number): void;
  onDelivered: (sentAt: number) => void;
  close(): void;
}

async function rest<T>(port: number, p: string, body: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/tessera/im/${p}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

async function user(port: number, name: string): Promise<string> {
  await rest(port, "users", { username: name, password: PASSWORD });
  return (
    await rest<{ access_token: string }>(port, "token", { grant_type: "password", username: name, password: PASSWORD })
  ).access_token;
}

const APP_KEY = "tessera#im";

async function gatewayLogin(url: string, name: string, token: string, resource: string): Promise<WireClient> {
  const c = await WireClient.connect(url);
  c.send(provisionFrame(APP_KEY, name, token, resource));
  const r = await c.take((f) => f.provision !== undefined, 30_000);
  if (r.provision?.status.code !== 0) throw new Error(`login refused: ${r.provision?.status.reason}`);
  c.frames.length = 0;
  return c;
}

/** A gateway pair: the receiver pulls on every notice and acknowledges with the next pull's key. */
async function gatewayPair(port: number, i: number): Promise<Pair> {
  const url = `ws://127.0.0.1:${port}/websocket`;
  const from = `s${i}-${TAG}`;
  const to = `r${i}-${TAG}`;
  const [ft, tt] = await Promise.all([user(port, from), user(port, to)]);
  const sender = await gatewayLogin(url, from, ft, "webim_s");
  const receiver = await gatewayLogin(url, to, tt, "webim_r");
  let id = 0n;
  let key: bigint | undefined;
  let pulling = false;
  let again = false;
  const queue = { name: from, domain: "easemob.com" };
  const pair: Pair = {
    send(sentAt) {
      id += 1n;
      sender.send(sendFrame(APP_KEY, { id, from, to, chatType: 1, text: String(sentAt) }));
    },
    onDelivered: () => undefined,
    close() {
      sender.close();
      receiver.close();
    },
  };
  const pull = () => {
    pulling = true;
    again = false;
    receiver.send(pullFrame(APP_KEY, queue, key));
  };
  // Frames are consumed as they come instead of through take(): the load must not poll.
  sender.ws.removeAllListeners("message");
  receiver.ws.removeAllListeners("message");
  receiver.ws.on("message", (data: Buffer) => {
    const f: ServerFrame = decodeFrame(data);
    if (f.command === CMD.NOTICE) {
      if (pulling) again = true;
      else pull();
    } else if (f.sync && f.sync.metaId === 0n) {
      for (const m of f.sync.metas) {
        pair.onDelivered(Number(decodeMessageBody(decodeMeta(m).payload).contents[0]?.text));
      }
      if (f.sync.nextKey !== null) key = f.sync.nextKey;
      if (!f.sync.isLast || again) pull();
      else pulling = false;
    }
  });
  return pair;
}

let decodeFrame: (b: Uint8Array) => ServerFrame;

async function relayPair(port: number, i: number): Promise<Pair> {
  const open = async (name: string) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.send(name);
    return ws;
  };
  const to = `r${i}`;
  const sender = await open(`s${i}`);
  const receiver = await open(to);
  const prefix = Buffer.from(`${to}\0`);
  const pair: Pair = {
    send(sentAt) {
      sender.send(Buffer.concat([prefix, Buffer.from(String(sentAt))]));
    },
    onDelivered: () => undefined,
    close() {
      sender.close();
      receiver.close();
    },
  };
  receiver.on("message", (data: Buffer) => pair.onDelivered(Number(data.toString())));
  return pair;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 10) / 10;
}

/** The pids of the backends connected to the bench's database (the server's pool). */
async function databaseBackends(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const r = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return r.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/**
 * Full speed with a window per pair: delivered messages per second. With `server`, a diagnostic line per
 * run: CPU per delivered message of the server, of PostgreSQL (every postgres process on the machine)
 * and of the load, and with BENCH_STATEMENTS=1 the server's statements per message.
 */
async function throughput(
  pairs: Pair[],
  seconds: number,
  server?: { proc: Proc; label: string; lines: string[]; databaseUrl?: string | undefined; profile?: boolean },
): Promise<number> {
  // The server's own database connections (the machine's other postgres work is not this bench's).
  const backends = server?.databaseUrl ? await databaseBackends(server.databaseUrl) : [];
  const cpu0 = server
    ? {
        own: cpuMs(server.proc.pid),
        sys: cpuMs(server.proc.pid, "sys"),
        pg: cpuMs(null),
        backends: cpuMs(backends),
        load: process.cpuUsage(),
        io: syscalls(server.proc.pid),
      }
    : null;
  const st0 = await server?.proc.statements?.();
  const profDir = process.env.BENCH_CPU_PROF_LOAD;
  const stopProfile = server && profDir && server.profile !== false ? await profileServer(server.proc.pid) : null;
  let delivered = 0;
  let stop = false;
  await Promise.all(
    pairs.map(
      (p) =>
        new Promise<void>((resolve) => {
          let inFlight = 0;
          p.onDelivered = () => {
            delivered++;
            inFlight--;
            if (!stop) {
              inFlight++;
              p.send(performance.now());
            } else if (inFlight === 0) resolve();
          };
          for (let k = 0; k < WINDOW; k++) {
            inFlight++;
            p.send(performance.now());
          }
          setTimeout(() => {
            stop = true;
          }, seconds * 1000);
          setTimeout(resolve, seconds * 1000 + 15_000);
        }),
    ),
  );
  if (stopProfile && profDir && server) {
    await stopProfile(path.join(profDir, `gateway-${server.label.replace(/\W+/g, "-")}.cpuprofile`));
  }
  if (server && cpu0 && delivered > 0) {
    const us = (ms: number) => ((ms * 1000) / delivered).toFixed(0);
    const load = process.cpuUsage(cpu0.load);
    const io = syscalls(server.proc.pid);
    const per = (n: number) => (n / delivered).toFixed(2);
    let line =
      `  ${server.label}: CPU per message: server ${us(cpuMs(server.proc.pid) - cpu0.own)} µs (system ${us(cpuMs(server.proc.pid, "sys") - cpu0.sys)}; ${per(io.reads - cpu0.io.reads)} reads, ${per(io.writes - cpu0.io.writes)} ` +
      `writes)${server.databaseUrl ? `, postgres ${us(cpuMs(null) - cpu0.pg)} µs (its connections ${allRunning(backends) ? `${us(cpuMs(backends) - cpu0.backends)} µs` : "not counted: the pool replaced some"})` : ""}, load ${us((load.user + load.system) / 1000)} µs`;
    const st1 = await server.proc.statements?.();
    if (st0 && st1) {
      const diff = [...st1].map(([k, n]) => [k, n - (st0.get(k) ?? 0)] as const).filter(([, n]) => n > 0);
      const total = diff.reduce((a, [, n]) => a + n, 0);
      line += `; statements per message ${(total / delivered).toFixed(2)} (${diff
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, n]) => `${(n / delivered).toFixed(2)} ${k.slice(0, 28)}`)
        .join(" | ")})`;
    }
    server.lines.push(line);
  }
  return Math.round(delivered / seconds);
}

/** Paced at `rate` messages/s in all: latency from send to delivery. */
async function latency(pairs: Pair[], rate: number, seconds: number): Promise<{ p50: number; p99: number; n: number }> {
  const samples: number[] = [];
  for (const p of pairs) p.onDelivered = (sentAt) => samples.push(performance.now() - sentAt);
  const perPairInterval = (pairs.length / Math.max(1, rate)) * 1000;
  const timers = pairs.map((p, i) => {
    let t: NodeJS.Timeout | undefined;
    const start = setTimeout(
      () => {
        t = setInterval(() => p.send(performance.now()), perPairInterval);
      },
      (i * perPairInterval) / pairs.length,
    );
    return () => {
      clearTimeout(start);
      clearInterval(t);
    };
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  for (const stop of timers) stop();
  await new Promise((r) => setTimeout(r, 2000));
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 50), p99: pct(samples, 99), n: samples.length };
}

async function idleGateway(
  port: number,
  count: number,
  users: { name: string; token: string }[],
  offset: number,
): Promise<WireClient[]> {
  const url = `ws://127.0.0.1:${port}/websocket`;
  const out: WireClient[] = [];
  for (let i = 0; i < count; i += 100) {
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, count - i) }, (_, k) => {
          const u = users[(i + k) % users.length] as { name: string; token: string };
          return gatewayLogin(url, u.name, u.token, `webim_idle${offset + i + k}`);
        }),
      )),
    );
  }
  return out;
}

async function idleRelay(port: number, count: number): Promise<WebSocket[]> {
  const out: WebSocket[] = [];
  for (let i = 0; i < count; i += 200) {
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(200, count - i) }, async () => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
          await new Promise<void>((resolve, reject) => {
            ws.once("open", () => resolve());
            ws.once("error", reject);
          });
          return ws;
        }),
      )),
    );
  }
  return out;
}

export async function benchImWs(seconds: number, databaseUrl?: string): Promise<string[]> {
  decodeFrame = (await import("../apps/server/src/im/gateway/wire-client")).decodeServerFrame;
  const run = Math.max(2, Math.round(seconds / 2));
  const lines: string[] = [];
  const report = (label: string, conns: number, rate: number, lat: { p50: number; p99: number; n: number }) =>
    lines.push(
      `${label.padEnd(12)} ${String(conns).padStart(6)} clients  ${String(rate).padStart(6)} msg/s delivered ` +
        `  at ${Math.round(rate / 2)} msg/s: p50 ${lat.p50} ms  p99 ${lat.p99} ms (${lat.n} msgs)`,
    );

  const gatewayRates: number[] = [];
  const relayRates: number[] = [];
  const gw = await startGateway(databaseUrl);
  const idle: WireClient[] = [];
  let pairs: Pair[] = [];
  try {
    pairs = await Promise.all(Array.from({ length: PAIRS }, (_, i) => gatewayPair(gw.port, i)));
    const users: { name: string; token: string }[] = [];
    for (let i = 0; i < IDLE_USERS; i++) {
      users.push({ name: `idle${i}-${TAG}`, token: await user(gw.port, `idle${i}-${TAG}`) });
    }
    const base = 2 * PAIRS;
    idle.push(...(await idleGateway(gw.port, SMALL - base, users, 0)));
    // Memory first, on a server that has not carried load yet (afterwards its heap has room to spare):
    // RSS at 1,000 clients and after 9,000 more idle logins. Those close again for the 1,000 run.
    await new Promise((r) => setTimeout(r, 1000));
    const rss1k = rssKb(gw.pid);
    const extra = await idleGateway(gw.port, LARGE - SMALL, users, SMALL);
    await new Promise((r) => setTimeout(r, 1000));
    const rss10k = rssKb(gw.pid);
    for (const c of extra) c.close();
    await new Promise((r) => setTimeout(r, 1000));
    const diag: string[] = [];
    // A second of load first, unmeasured: a fresh process compiles its hot paths and collects the memory
    // test's closed sessions then, which is not what a message costs a running server.
    await throughput(pairs, 1);
    let rate = await throughput(pairs, run, { proc: gw, label: `${SMALL} clients`, lines: diag, databaseUrl });
    gatewayRates.push(rate);
    report("gateway", SMALL, rate, await latency(pairs, rate / 2, run));
    idle.push(...(await idleGateway(gw.port, LARGE - SMALL, users, LARGE)));
    // Again a second unmeasured after 9,000 logins (their garbage, their database writes settling).
    await throughput(pairs, 1);
    rate = await throughput(pairs, run, { proc: gw, label: `${LARGE} clients`, lines: diag, databaseUrl });
    gatewayRates.push(rate);
    report("gateway", LARGE, rate, await latency(pairs, rate / 2, run));
    lines.push(
      `gateway memory per idle connection: ${((rss10k - rss1k) / (LARGE - SMALL)).toFixed(1)} KB (RSS ${Math.round(rss1k / 1024)} ` +
        `MB at ${SMALL}, ${Math.round(rss10k / 1024)} MB at ${LARGE})`,
    );
    lines.push(...diag);
  } finally {
    for (const p of pairs) p.close();
    for (const c of idle) c.close();
    await gw.stop();
  }

  // Messages sent and none delivered: the gateway refused the load, and the figures mean nothing.
  for (const [i, r] of gatewayRates.entries()) {
    lines.push(...requires("gateway", r > 0, `no message delivered at ${i === 0 ? SMALL : LARGE} clients`));
  }
  // BENCH_RELAY=0: the gateway only (quicker runs while working on it; the budget needs the relay beside it).
  if (process.env.BENCH_RELAY === "0") return lines;
  const relay = await startRelay();
  const relayIdle: WebSocket[] = [];
  try {
    pairs = await Promise.all(Array.from({ length: PAIRS }, (_, i) => relayPair(relay.port, i)));
    relayIdle.push(...(await idleRelay(relay.port, SMALL - 2 * PAIRS)));
    await new Promise((r) => setTimeout(r, 1000));
    const rss1k = rssKb(relay.pid);
    const extra = await idleRelay(relay.port, LARGE - SMALL);
    await new Promise((r) => setTimeout(r, 1000));
    const rss10k = rssKb(relay.pid);
    for (const ws of extra) ws.close();
    await throughput(pairs, 1);
    // The relay's CPU per message too: the load's share of the two cores differs between the systems.
    const diag: string[] = [];
    let rate = await throughput(pairs, run, {
      proc: relay,
      label: `bare ws, ${SMALL} clients`,
      lines: diag,
      profile: false,
    });
    relayRates.push(rate);
    report("bare ws", SMALL, rate, await latency(pairs, rate / 2, run));
    relayIdle.push(...(await idleRelay(relay.port, LARGE - SMALL)));
    rate = await throughput(pairs, run, {
      proc: relay,
      label: `bare ws, ${LARGE} clients`,
      lines: diag,
      profile: false,
    });
    relayRates.push(rate);
    report("bare ws", LARGE, rate, await latency(pairs, rate / 2, run));
    lines.push(`bare ws memory per idle connection: ${((rss10k - rss1k) / (LARGE - SMALL)).toFixed(1)} KB`);
    lines.push(...diag);
    // The budget: the gateway delivers at least a quarter of what the bare relay does in the same run.
    const share = (i: number) => `${Math.round((100 * (gatewayRates[i] ?? 0)) / Math.max(1, relayRates[i] ?? 0))} %`;
    lines.push(`gateway / bare ws: ${share(0)} at ${SMALL} clients, ${share(1)} at ${LARGE} (budget: 33 %)`);
  } finally {
    for (const p of pairs) p.close();
    for (const ws of relayIdle) ws.close();
    await relay.stop();
  }
  return lines;
}

// `npx tsx bench/im-ws.bench.ts` runs this benchmark alone.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const line of await benchImWs(Number(process.env.BENCH_SECONDS ?? 10), process.env.BENCH_DATABASE_URL)) {
    console.log(line);
  }
  process.exit(0);
}
