import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PurchaseOrder } from "@tessera/contracts";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { sql } from "kysely";
import { WebSocket } from "ws";
import {
  connection,
  message,
  type ChatMessage,
  type Connection,
  type WebSocketClass,
} from "../../../../packages/im-sdk/src/index";
import { dock } from "../../test/docking";
import { startImTest, type ImTest } from "../../test/im-harness";
import { CLOSE } from "../im/gateway/session";
import { provisionFrame, sendFrame, WireClient } from "../im/gateway/wire-client";
import { fundSup } from "../../test/money";
import { newBrand, newGoods, newMerchant, importFile } from "../../test/kit/catalog-fixtures";
import { checkInvariants } from "../modules/ledger";
import { cardCsv } from "../../test/kit/cards";
import { loadWebsdk, sdkCall, type Connection as WebsdkConnection } from "../im/scenario/sdk";

/**
 * The operator's rolling restart, as docs/deploy.md describes it: `npm run cluster` (two server processes
 * behind its proxy) on the test's PostgreSQL and Redis, under IM and order load through the proxy. One
 * node gets SIGTERM, drains and is started again; then the other. Every IM message arrives exactly once
 * and in order, every order either succeeds or is refused with a readable error, and the ledger adds up.
 * A protocol client connected straight to the first node sends bursts across its SIGTERM: every message
 * stored was acknowledged to it, none is both stored and refused (issue 44, item 4).
 * Failover (issue 44, item 5): the published client, finding its hosts in /easemob/server.json through the
 * balancer, stays in service when the node it is on is killed (SIGKILL): every node names the balancer
 * (IM_PUBLIC_URL), the client reconnects through it to the other node, and a message sent after the kill
 * is delivered once.
 */
const repoRoot = path.resolve(import.meta.dirname, "../../../..");
const secretKey = randomBytes(32).toString("hex");
let im: ImTest;
let cluster: ChildProcess;
let output = "";
let base = "";
const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-cluster-"));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function until(what: () => boolean, label: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}; cluster output:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pid of the node on `port` as the cluster last started it. */
function pidOf(port: number): number {
  const starts = [...output.matchAll(new RegExp(`node :${port} started \\(pid (\\d+)\\)`, "g"))];
  return Number(starts.at(-1)?.[1]);
}
const count = (text: string) => output.split(text).length - 1;

beforeAll(async () => {
  im = await startImTest({ SECRET_KEY: secretKey });
  const port = await freePort();
  const nodePort = await freePort();
  base = `http://127.0.0.1:${port}`;
  cluster = spawn(process.execPath, [path.join(repoRoot, "scripts/cluster.mjs")], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: inject("postgresUrl"),
      REDIS_URL: process.env.TEST_REDIS_URL,
      SECRET_KEY: secretKey,
      CLUSTER_PORT: String(port),
      CLUSTER_NODE_PORT: String(nodePort),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      AUTO_PAYOUT: "false",
      // The proxy forwards a little after the node's readiness turned off, as a real balancer would.
      DRAIN_DELAY_MS: "700",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cluster.stdout?.on("data", (b: Buffer) => (output += b.toString()));
  cluster.stderr?.on("data", (b: Buffer) => (output += b.toString()));
  await until(
    () => count(`node :${nodePort} ready`) > 0 && count(`node :${nodePort + 1} ready`) > 0,
    "both nodes ready",
    120_000,
  );
}, 180_000);

afterAll(async () => {
  if (cluster && cluster.exitCode === null) {
    const exited = new Promise((r) => cluster.once("exit", r));
    cluster.kill("SIGTERM");
    await exited;
  }
  await im?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/**
 * Sends bursts on a socket of its own to the node on `port` until the node closes it; what the node
 * acknowledged and how it closed.
 */
async function burstAcrossDrain(port: number, name: string, token: string, to: string) {
  const appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
  const c = await WireClient.connect(`ws://127.0.0.1:${port}/websocket`);
  c.send(provisionFrame(appKey, name, token, "burst"));
  const reply = await c.take((f) => f.provision !== undefined);
  expect(reply.provision?.status.code).toBe(0);
  let sent = 0;
  const sending = (async () => {
    for (let id = 1n; !c.closed;) {
      for (let k = 0; k < 10 && c.ws.readyState === c.ws.OPEN; k++, id++, sent++) {
        c.send(sendFrame(appKey, { id, from: name, to, chatType: 1, text: `b${id}` }));
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async result() {
      const closed = await c.untilClosed(30_000);
      await sending;
      const acked = new Map<string, number>();
      for (const f of c.frames) {
        if (f.sync && f.sync.metaId !== 0n) acked.set(String(f.sync.metaId), f.sync.status?.code ?? 0);
      }
      return { closed, acked, sent };
    },
  };
}

interface Peer {
  name: string;
  conn: Connection;
  received: ChatMessage[];
}

async function peer(prefix: string): Promise<Peer> {
  const { name } = await im.user(prefix);
  const appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
  const conn = new connection({
    appKey,
    apiUrl: base,
    url: `${base.replace(/^http/, "ws")}/websocket`,
    WebSocket: WebSocket as unknown as WebSocketClass,
    reconnectDelay: () => 300,
  });
  const p: Peer = { name, conn, received: [] };
  conn.addEventHandler("drain", { onTextMessage: (m) => p.received.push(m) });
  await conn.open({ user: name, pwd: "pw-secret-1" });
  return p;
}

describe("rolling restart of a two-node cluster", () => {
  test("SIGTERM one node, restart, then the other: messages once and in order, orders done or refused, ledger whole", async () => {
    const t = im.t;
    const supplier = await newMerchant(t, "Drain Supplier");
    const brand = await newBrand(t, supplier);
    const goods = await newGoods(t, supplier, brand.id, { name: "Drain card", price: 100, settlementPrice: 90 });
    await importFile(
      t,
      supplier.token,
      goods.id,
      "cards.csv",
      cardCsv(400, (i) => `DRN${String(i).padStart(7, "0")},S${i},`, { end: false }),
    );
    const { buyer } = await dock(t, supplier);
    await fundSup(t, buyer, 1_000_000);
    const alice = await peer("alice");
    const bob = await peer("bob");

    const texts: string[] = [];
    const sends: Promise<unknown>[] = [];
    const orders: { status: number; code?: number; state?: string; msg?: string }[] = [];
    let running = true;
    const messaging = (async () => {
      for (let n = 0; running; n++) {
        const text = `m${n}`;
        texts.push(text);
        sends.push(alice.conn.send(message.create({ type: "txt", chatType: "singleChat", to: bob.name, msg: text })));
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const ordering = (async () => {
      for (let n = 0; running; n++) {
        try {
          const res = await fetch(`${base}/api/card-user/orders`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-auth-token": buyer.token, lang: "en" },
            body: JSON.stringify({ goodsId: String(goods.id), quantity: 1, orderNo: `DRAIN-${n}` }),
          });
          const body = (await res.json()) as { code: number; msg: string; data: PurchaseOrder | null };
          orders.push({ status: res.status, code: body.code, state: body.data?.state, msg: body.msg });
        } catch (err) {
          orders.push({ status: 0, msg: String(err) });
        }
        await new Promise((r) => setTimeout(r, 40));
      }
    })();

    const nodePort = Number(/nodes :(\d+)/.exec(output)?.[1]);
    await new Promise((r) => setTimeout(r, 1500));
    const burster = await im.user("burst");
    const sink = await im.user("sink");
    let burst: Awaited<ReturnType<typeof burstAcrossDrain>> | undefined;
    for (const port of [nodePort, nodePort + 1]) {
      const before = count(`node :${port} ready`);
      if (port === nodePort) {
        burst = await burstAcrossDrain(port, burster.name, burster.token, sink.name);
        await new Promise((r) => setTimeout(r, 300));
      }
      process.kill(pidOf(port), "SIGTERM");
      await until(
        () => count(`node :${port} exited (0)`) > 0 && count(`node :${port} ready`) > before,
        `node :${port} drained and back`,
      );
      await new Promise((r) => setTimeout(r, 1000));
    }
    running = false;
    await Promise.all([messaging, ordering]);

    // The burst across the first node's drain: stored ⇔ acknowledged OK, and the socket closed to reconnect.
    const b = await burst!.result();
    expect(b.closed.code).toBe(CLOSE.shutdown);
    const { rows } = await sql<{ client_id: string }>`
      SELECT client_id FROM im_messages WHERE from_user = ${burster.name}`.execute(t.ctx.database.db);
    const inStore = new Set(rows.map((r) => r.client_id.split(":").at(-1) ?? ""));
    const storedNotAcked = [...inStore].filter((id) => b.acked.get(id) !== 0);
    const ackedNotStored = [...b.acked].filter(([id, code]) => code === 0 && !inStore.has(id));
    expect({ storedNotAcked, ackedNotStored }).toEqual({ storedNotAcked: [], ackedNotStored: [] });
    expect([...b.acked.values()].filter((c) => c !== 0)).toEqual([]);
    expect(inStore.size).toBeGreaterThan(0);
    console.log(`drain: burst of ${b.sent} across SIGTERM, ${inStore.size} stored and acknowledged`);
    await Promise.all(sends);
    await until(() => bob.received.length >= texts.length, "every message at bob", 30_000);
    await new Promise((r) => setTimeout(r, 500));

    // Exactly once, in the order sent: what a device acknowledged is never sent again, on any node.
    expect(bob.received.map((m) => m.msg)).toEqual(texts);
    console.log(`drain: ${texts.length} messages, ${orders.length} orders`);
    // Every order answered: success, or a refusal a user can read (the proxy's "no node ready" included); never a 5xx from a node.
    expect(orders.length).toBeGreaterThan(20);
    for (const o of orders) {
      if (o.code === 1) expect(o.state).toBe("success");
      else expect([o.status, o.msg]).toEqual([503, "No server node is ready; try again in a moment"]);
    }
    const done = orders.filter((o) => o.code === 1).length;
    expect(done).toBeGreaterThan(10);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
    const balances = (
      await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: buyer.token })
    ).body.data.balances;
    expect(balances.sup.amount).toBe(1_000_000 - done * 100);
    alice.conn.close();
    bob.conn.close();
  }, 240_000);
});

/** A node's open IM websockets, from its /metrics (asked directly on loopback). */
async function imConnections(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^tessera_im_connections (\d+)$/m.exec(text)?.[1]);
}

interface WebsdkPeer {
  name: string;
  conn: WebsdkConnection;
  connected: number;
  texts: { id: string; msg: string }[];
}

/**
 * The published client (easemob-websdk 4.21.1) as a page on the balancer's address would run it: HTTP DNS on,
 * its DNS list naming that address (the SDK's own list names Easemob's servers), so that REST and the
 * websocket go where /easemob/server.json says.
 */
async function websdkPeer(prefix: string): Promise<WebsdkPeer> {
  const sdk = loadWebsdk();
  const { name, token } = await im.user(prefix);
  const conn = new sdk.connection({
    appKey: `${im.t.config.im.org}#${im.t.config.im.app}`,
    isHttpDNS: true,
    https: false,
    delivery: false,
    deviceId: `failover_${prefix}`,
    isFixedDeviceId: false,
  });
  conn.dnsArr = [base];
  conn.dnsTotal = 1;
  const p: WebsdkPeer = { name, conn, connected: 0, texts: [] };
  (conn.addEventHandler as (id: string, h: unknown) => void).call(conn, "failover", {
    onConnected: () => p.connected++,
    onTextMessage: (m: { id: string; msg: string }) => p.texts.push(m),
  });
  await sdkCall(conn, "open", { user: name, accessToken: token });
  return p;
}

describe("failover through the cluster's balancer", () => {
  test("SIGKILL the node a published client is on: it reconnects through the same address to the other node, and a message sent after the kill arrives once", async () => {
    const nodePort = Number(/nodes :(\d+)/.exec(output)?.[1]);
    const proxyPort = new URL(base).port;
    const appKey = encodeURIComponent(`${im.t.config.im.org}#${im.t.config.im.app}`);
    // Every node, asked directly, hands out the balancer, never itself.
    for (const port of [nodePort, nodePort + 1]) {
      const res = await fetch(`http://127.0.0.1:${port}/easemob/server.json?app_key=${appKey}`);
      const doc = (await res.json()) as Record<string, { hosts: unknown[] }>;
      const balancer = { protocol: "http", domain: "127.0.0.1", ip: "127.0.0.1", port: proxyPort };
      expect([doc.rest?.hosts, doc["msync-wx"]?.hosts]).toEqual([[balancer], [balancer]]);
    }

    // The SDK builds its REST address from server.json as a page served over http would.
    const g = globalThis as { location?: unknown };
    g.location = { protocol: "http:" };
    try {
      const bob = await websdkPeer("fo_bob");
      // Only bob's socket left open (the rolling restart's clients have closed theirs).
      for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        if ((await imConnections(nodePort)) + (await imConnections(nodePort + 1)) === 1) break;
      }
      const before = await Promise.all([imConnections(nodePort), imConnections(nodePort + 1)]);
      const alice = await websdkPeer("fo_alice");
      // The node alice's socket went to: the one with one more connection.
      let victim = -1;
      for (const end = Date.now() + 10_000; victim < 0 && Date.now() < end;) {
        const now = await Promise.all([imConnections(nodePort), imConnections(nodePort + 1)]);
        const i = now.findIndex((n, k) => n === (before[k] ?? 0) + 1);
        if (i >= 0) victim = nodePort + i;
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(victim).toBeGreaterThan(0);
      const survivor = victim === nodePort ? nodePort + 1 : nodePort;
      const readyBefore = count(`node :${victim} ready`);
      const connectedBefore = alice.connected;

      process.kill(pidOf(victim), "SIGKILL");
      await until(() => alice.connected > connectedBefore, "alice reconnected", 15_000);
      // Back on a node while the killed one is not ready again (the cluster restarts a crashed node after
      // 5 s): on the other node, through the balancer.
      expect(count(`node :${victim} ready`)).toBe(readyBefore);
      expect(count(`node :${victim} exited (SIGKILL)`)).toBe(1);
      expect(await imConnections(survivor)).toBeGreaterThan(0);

      const sent = await sdkCall<{ serverMsgId: string }>(
        alice.conn,
        "send",
        loadWebsdk().message.create({ type: "txt", chatType: "singleChat", to: bob.name, msg: "after the crash" }),
      );
      await until(() => bob.texts.some((m) => m.id === sent.serverMsgId), "the message at bob", 15_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(bob.texts.filter((m) => m.msg === "after the crash").map((m) => m.id)).toEqual([sent.serverMsgId]);
      for (const p of [alice, bob]) (p.conn.close as () => void).call(p.conn);
    } finally {
      delete g.location;
    }
  }, 60_000);
});
