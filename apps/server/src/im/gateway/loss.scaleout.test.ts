import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, test } from "vitest";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { CMD } from "./frames";
import { decodeServerFrame, provisionFrame, pullFrame, sendFrame, unreadFrame, type ServerFrame } from "./wire-client";
import { WebSocket } from "ws";
import { freePort } from "../../../test/ports";

/**
 * The loss test: two server processes on one PostgreSQL and Redis; a sender streams 10,000 messages
 * while the receiver's connection is cut and restored at random and one process is killed (SIGKILL) and
 * restarted. Sender and receiver behave as the published client does: the sender resends what was not
 * acknowledged with the same message id, the receiver acknowledges each batch with its next pull and
 * drops message ids it already has. The receiver must end with exactly the 10,000, once each, in order,
 * and the database must hold exactly 10,000.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const TOTAL = 10_000;
const repoRoot = path.resolve(import.meta.dirname, "../../../../..");
const APP_KEY = "tessera#im";

interface Server {
  port: number;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const env = { SECRET_KEY: randomBytes(32).toString("hex") };
const running = new Set<Server>();

async function startServer(port: number): Promise<Server> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-loss-"));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(repoRoot, "apps/server/src/main.ts")],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: inject("postgresUrl"),
        REDIS_URL: redisUrl,
        LOG_LEVEL: "warn",
        IM_OPEN_REGISTRATION: "true",
        IM_RATE_LIMIT_PER_SECOND: "0",
        ARGON2_MEMORY_KIB: "4096",
        ARGON2_ITERATIONS: "1",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      break;
    }
    if (Date.now() > deadline) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const server: Server = {
    port,
    async kill(signal) {
      running.delete(server);
      if (child.exitCode === null) {
        child.kill(signal);
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.add(server);
  return server;
}

afterAll(async () => {
  for (const s of [...running]) await s.kill("SIGTERM");
});

async function register(port: number, name: string): Promise<string> {
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/tessera/im/${p}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { access_token?: string };
  };
  await post("users", { username: name, password: "pw-loss-1" });
  return String((await post("token", { grant_type: "password", username: name, password: "pw-loss-1" })).access_token);
}

/** A socket that logs in and hands every frame to `onFrame`; resolves once logged in, or null when the server is gone. */
async function open(
  port: number,
  name: string,
  token: string,
  resource: string,
  onFrame: (f: ServerFrame, ws: WebSocket) => void,
): Promise<WebSocket | null> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/websocket`);
  const ok = await new Promise<boolean>((resolve) => {
    ws.once("error", () => resolve(false));
    ws.once("close", () => resolve(false));
    ws.once("open", () => {
      ws.send(provisionFrame(APP_KEY, name, token, resource));
      ws.on("message", (data: Buffer) => {
        const f = decodeServerFrame(new Uint8Array(data));
        if (f.provision) resolve(f.provision.status.code === 0);
        else onFrame(f, ws);
      });
    });
  });
  if (!ok) {
    ws.terminate();
    return null;
  }
  return ws;
}

describe("no loss across cuts and a killed process", () => {
  test("10,000 messages arrive exactly once and in order", async () => {
    let a = await startServer(await freePort());
    let b = await startServer(await freePort());
    const tag = Date.now().toString(36);
    const alice = `lossa${tag}`;
    const bob = `lossb${tag}`;
    const aliceToken = await register(a.port, alice);
    const bobToken = await register(a.port, bob);
    const servers = () => [a, b];
    const pick = () => servers()[Math.floor(Math.random() * 2)] as Server;

    // Receiver: pulls on connect and on every notice, acknowledges with the next pull, drops ids it has.
    const seen = new Set<string>();
    const order: number[] = [];
    let duplicates = 0;
    let receiver: WebSocket | null = null;
    const queue = { name: alice, domain: "easemob.com" };
    const onReceiverFrame = (f: ServerFrame, ws: WebSocket) => {
      if (f.command === CMD.NOTICE || f.unread?.length) {
        ws.send(pullFrame(APP_KEY, queue));
      } else if (f.sync && f.sync.metaId === 0n) {
        for (const m of f.sync.metas) {
          const meta = decodeMeta(m);
          if (meta.ns !== 1) continue;
          const id = String(meta.id);
          if (seen.has(id)) {
            duplicates++;
            continue;
          }
          seen.add(id);
          order.push(Number(decodeMessageBody(meta.payload).contents[0]?.text));
        }
        if (!f.sync.isLast && f.sync.nextKey !== null) ws.send(pullFrame(APP_KEY, queue, f.sync.nextKey));
      }
    };
    const connectReceiver = async () => {
      while (!receiver) {
        receiver = await open(pick().port, bob, bobToken, "webim_recv", onReceiverFrame);
        if (receiver) {
          receiver.on("close", () => {
            receiver = null;
          });
          receiver.send(unreadFrame());
        } else await new Promise((r) => setTimeout(r, 100));
      }
    };

    // Sender: a window of unacknowledged sends, resent with the same ids after any reconnect.
    const unacked = new Map<bigint, number>();
    let next = 0;
    let sender: WebSocket | null = null;
    const pump = () => {
      while (sender && unacked.size < 64 && next < TOTAL) {
        const id = BigInt(next + 1);
        unacked.set(id, next);
        sender.send(sendFrame(APP_KEY, { id, from: alice, to: bob, chatType: 1, text: String(next) }));
        next++;
      }
    };
    const onSenderFrame = (f: ServerFrame) => {
      if (f.sync && f.sync.metaId !== 0n && f.sync.status?.code === 0) {
        unacked.delete(f.sync.metaId);
        pump();
      }
    };
    const connectSender = async () => {
      while (!sender) {
        const ws = await open(pick().port, alice, aliceToken, "webim_send", onSenderFrame);
        if (!ws) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        sender = ws;
        ws.on("close", () => {
          sender = null;
          void connectSender();
        });
        for (const [id, n] of [...unacked].sort((x, y) => Number(x[0] - y[0]))) {
          ws.send(sendFrame(APP_KEY, { id, from: alice, to: bob, chatType: 1, text: String(n) }));
        }
        pump();
      }
    };

    await connectReceiver();
    await connectSender();
    let killed = false;
    const deadline = Date.now() + 150_000;
    while (order.length < TOTAL && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 400));
      if (!killed && next > TOTAL * 0.4) {
        killed = true;
        const victim = b;
        await victim.kill("SIGKILL");
        b = await startServer(victim.port);
      }
      // Cut the receiver at random (a dropped network, not a logout) and come back.
      if (Math.random() < 0.5) (receiver as WebSocket | null)?.terminate();
      if (!receiver) await connectReceiver();
      if (!sender) await connectSender();
      // A receiver idle after a cut syncs as the client does on its heartbeat.
      (receiver as WebSocket | null)?.send(unreadFrame());
    }
    expect(killed).toBe(true);
    expect(order.length).toBe(TOTAL);
    expect(order).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    console.log(`loss test: ${TOTAL} delivered once each in order; ${duplicates} redelivered copies dropped by id`);
    (sender as WebSocket | null)?.close();
    (receiver as WebSocket | null)?.close();
    void a;
    a = b;
  }, 200_000);
});
