import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CMD } from "./frames";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { provisionFrame, pullFrame, sendFrame, unreadFrame, WireClient } from "./wire-client";

/**
 * Random and truncated frames: a socket that sends something that is not the protocol is closed with an
 * error; the gateway keeps serving every other socket (a session opened first keeps working throughout).
 */
let g: GatewayTest;
let user: { name: string; token: string };
let peer: { name: string; token: string };

beforeAll(async () => {
  g = await startGatewayTest();
  user = await g.user("fuzz");
  peer = await g.user("peer");
});
afterAll(async () => {
  await g?.close();
});

/** xorshift32: the same frames on every run, so a failure reproduces. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

function mutations(r: () => number, valid: Uint8Array[], n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    if (kind === 0) {
      out.push(Uint8Array.from({ length: 1 + Math.floor(r() * 120) }, () => Math.floor(r() * 256)));
    } else {
      const base = valid[Math.floor(r() * valid.length)] ?? new Uint8Array([0]);
      if (kind === 1) out.push(base.slice(0, Math.max(1, Math.floor(r() * base.length))));
      else {
        const copy = Uint8Array.from(base);
        for (let k = 0; k < 3; k++) copy[Math.floor(r() * copy.length)] = Math.floor(r() * 256);
        out.push(copy);
      }
    }
  }
  return out;
}

async function closedOrAlive(c: WireClient): Promise<"closed" | "alive"> {
  try {
    c.send(unreadFrame());
    await c.take((f) => f.command === CMD.UNREAD, 3000);
    return "alive";
  } catch {
    const closed = await c.untilClosed(3000);
    expect([1002, 4001, 4000]).toContain(closed.code);
    return "closed";
  }
}

describe("fuzz", () => {
  test("garbage before login closes the socket with an error (unless it still is a valid login)", async () => {
    const keeper = await g.login(user.name, user.token, "webim_keeper");
    const r = rng(0x9e3779b9);
    const valid = [
      provisionFrame(g.appKey, user.name, user.token, "webim_f"),
      unreadFrame(),
      pullFrame(g.appKey, { name: peer.name, domain: "easemob.com" }),
    ];
    const known = [
      Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      Uint8Array.from([0x4f]),
      Uint8Array.from([0x4a, 0x10, 0x01]),
    ];
    let logins = 0;
    for (const frame of [...known, ...mutations(r, valid, 90)]) {
      const c = await WireClient.connect(g.url);
      c.send(frame);
      try {
        // A mutation that only touched fields the login ignores is still a valid login.
        await c.take((f) => f.provision?.status.code === 0, 3000);
        logins++;
        c.close();
      } catch {
        const closed = await c.untilClosed(3000);
        expect([1002, 4001]).toContain(closed.code);
      }
    }
    expect(logins).toBeLessThan(10);
    const text = await WireClient.connect(g.url);
    text.ws.send("not binary");
    expect((await text.untilClosed()).code).toBe(1002);
    expect(await closedOrAlive(keeper)).toBe("alive");
    keeper.close();
  }, 60_000);

  test("garbage after login closes that socket or is answered; other sessions keep working", async () => {
    const keeper = await g.login(peer.name, peer.token, "webim_keeper2");
    const r = rng(0x1234567);
    const valid = [
      unreadFrame(),
      pullFrame(g.appKey, { name: peer.name, domain: "easemob.com" }, 5n),
      sendFrame(g.appKey, { id: 1n, from: user.name, to: peer.name, chatType: 1, text: "hello" }),
      sendFrame(g.appKey, { id: 2n, from: user.name, to: "12345", chatType: 2, text: "group" }),
    ];
    let closed = 0;
    let c = await g.login(user.name, user.token, "webim_victim");
    for (const frame of mutations(r, valid, 90)) {
      c.send(frame);
      if ((await closedOrAlive(c)) === "closed") {
        closed++;
        c = await g.login(user.name, user.token, "webim_victim");
      }
    }
    expect(closed).toBeGreaterThan(10);
    // The process still serves: the keeper sends and is acknowledged, and a fresh login works.
    keeper.send(sendFrame(g.appKey, { id: 99n, from: peer.name, to: user.name, chatType: 1, text: "still here" }));
    const ack = await keeper.take((f) => f.sync?.metaId === 99n);
    expect(ack.sync?.status?.code).toBe(0);
    c.close();
    keeper.close();
  }, 120_000);

  test("a frame over the size limit closes the socket", async () => {
    const c = await g.login(user.name, user.token, "webim_big");
    c.send(new Uint8Array(2 * 1024 * 1024));
    expect((await c.untilClosed()).code).toBe(1009);
  });
});
