import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { startImTest, type ImTest } from "../../../../apps/server/test/im-harness";
import { connection, message, STATUS, type ChatMessage, type Connection, type WebSocketClass } from "../../src/index";

/**
 * Our SDK against the real server while the server drops the sockets, 20 times, in the middle of a
 * conversation: every message sent is delivered exactly once, sends made while disconnected are queued
 * and go out after the next login, and the connection reports its status changes in order.
 */
let im: ImTest;
let baseUrl: string;
let appKey: string;

interface Peer {
  name: string;
  conn: Connection;
  received: ChatMessage[];
  statuses: number[];
  events: string[];
}

async function peer(prefix: string): Promise<Peer> {
  const { name } = await im.user(prefix);
  const conn = new connection({
    appKey,
    apiUrl: baseUrl,
    url: `${baseUrl.replace(/^http/, "ws")}/websocket`,
    WebSocket: WebSocket as unknown as WebSocketClass,
  });
  const p: Peer = { name, conn, received: [], statuses: [], events: [] };
  conn.addEventHandler("test", {
    onTextMessage: (m) => p.received.push(m),
    onConnectionStatusChange: (s) => p.statuses.push(s),
    onConnected: () => p.events.push("connected"),
    onReconnecting: () => p.events.push("reconnecting"),
    onDisconnected: () => p.events.push("disconnected"),
  });
  await conn.open({ user: name, pwd: "pw-secret-1" });
  return p;
}

async function until(what: () => boolean, label: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function drop(name: string): void {
  for (const d of im.t.app.im.gateway.hub.devices(name)) d.kick(0);
}

beforeAll(async () => {
  im = await startImTest();
  await im.t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(im.t.app.server.address() as AddressInfo).port}`;
  appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
});
afterAll(async () => {
  await im?.close();
});

describe("reconnect under repeated drops", () => {
  test("20 drops during a conversation: nothing lost or duplicated, queued sends flushed after login, statuses in order", async () => {
    const alice = await peer("alice");
    const bob = await peer("bob");
    const sends: Promise<{ serverMsgId: string }>[] = [];
    const texts: string[] = [];
    const sent: ChatMessage[] = [];
    let n = 0;
    const say = (from: Peer, to: Peer): void => {
      const text = `m${n++}`;
      const m = message.create({ type: "txt", chatType: "singleChat", to: to.name, msg: text });
      texts.push(text);
      sent.push(m);
      sends.push(from.conn.send(m));
    };

    for (let round = 0; round < 20; round++) {
      // A message in flight when the socket goes, then the drop (alternating sides), then sends while
      // the dropped side is disconnected: those wait in the queue until its next login.
      say(alice, bob);
      const victim = round % 2 === 0 ? bob : alice;
      const other = victim === bob ? alice : bob;
      const loginsBefore = victim.events.filter((e) => e === "connected").length;
      drop(victim.name);
      await until(() => victim.conn.status !== STATUS.OPENED, "the drop to be noticed");
      say(victim, other);
      say(victim, other);
      expect(sent[sent.length - 1]!.status).toBe("INPROGRESS");
      say(other, victim);
      await until(
        () => victim.events.filter((e) => e === "connected").length > loginsBefore,
        `login after drop ${round + 1}`,
      );
    }

    const results = await Promise.all(sends);
    const ids = results.map((r) => r.serverMsgId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(sent.every((m) => m.status === "SUCCESS")).toBe(true);

    const toBob = sent.filter((m) => m.to === bob.name).map((m) => m.msg);
    const toAlice = sent.filter((m) => m.to === alice.name).map((m) => m.msg);
    await until(
      () => bob.received.length >= toBob.length && alice.received.length >= toAlice.length,
      "every message delivered",
    );
    await new Promise((r) => setTimeout(r, 300));
    // Exactly once each, nothing extra.
    expect(bob.received.map((m) => m.msg).sort()).toEqual([...toBob].sort());
    expect(alice.received.map((m) => m.msg).sort()).toEqual([...toAlice].sort());
    expect(new Set(bob.received.map((m) => m.id)).size).toBe(bob.received.length);
    // The messages one side sent arrive in the order sent.
    expect(bob.received.filter((m) => m.from === alice.name).map((m) => m.msg)).toEqual(
      sent.filter((m) => m.from === alice.name && m.to === bob.name).map((m) => m.msg),
    );
    expect(texts.length).toBe(80);

    // Each drop: reconnecting, then connected again; status 405 (closed) → 402 (logging in) → 403 (opened).
    for (const p of [alice, bob]) {
      expect(p.events[0]).toBe("connected");
      const rest = p.events.slice(1);
      expect(rest).toEqual(Array.from({ length: 10 }, () => ["reconnecting", "connected"]).flat());
      const afterOpen = p.statuses.slice(p.statuses.indexOf(STATUS.OPENED) + 1);
      expect(afterOpen).toEqual(
        Array.from({ length: 10 }, () => [STATUS.CLOSED, STATUS.DOLOGIN_IM, STATUS.OPENED]).flat(),
      );
    }
    alice.conn.close();
    bob.conn.close();
    await until(() => alice.events.at(-1) === "disconnected" && bob.events.at(-1) === "disconnected", "close");
    expect(alice.conn.status).toBe(STATUS.CLOSED);
  }, 120_000);

  test("messages pushed to an idle device are acknowledged as they arrive: a drop after a long stream brings nothing again", async () => {
    const alice = await peer("alice");
    const bob = await peer("bob");
    const texts = Array.from({ length: 150 }, (_, i) => `p${i}`);
    for (const text of texts) {
      void alice.conn.send(message.create({ type: "txt", chatType: "singleChat", to: bob.name, msg: text }));
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => bob.received.length >= texts.length, "the stream at bob");
    const logins = bob.events.filter((e) => e === "connected").length;
    drop(bob.name);
    await until(() => bob.events.filter((e) => e === "connected").length > logins, "bob back");
    await new Promise((r) => setTimeout(r, 500));
    // The SDK's own duplicate filter remembers only the last 100 ids: this is the server not sending them.
    expect(bob.received.map((m) => m.msg)).toEqual(texts);
    alice.conn.close();
    bob.conn.close();
  }, 60_000);
});
