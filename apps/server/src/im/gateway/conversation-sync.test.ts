import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CMD } from "./frames";
import { DEVICE_DAYS } from "./sync";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { isAckOf, sendFrame, unreadFrame, type WireClient } from "./wire-client";

/**
 * One-to-one messages are delivered from their conversation, each device acknowledging up to a place in
 * it (migration 0089), with the rules queue entries had: a device gets what came after it first
 * appeared, and what none of its user's devices has read; what another device read more than
 * DEVICE_DAYS ago it reads from history instead.
 */
let g: GatewayTest;

beforeAll(async () => {
  g = await startGatewayTest();
});
afterAll(async () => {
  await g?.close();
});

const queueOf = (name: string) => ({ name, domain: "easemob.com" });

const drain = (c: WireClient, queue: { name: string; domain: string }) => g.drain(c, queue, { acknowledgeLast: true });

async function send(c: WireClient, from: string, to: string, id: bigint, text: string): Promise<void> {
  c.send(sendFrame(g.appKey, { id, from, to, chatType: 1, text }));
  expect((await c.take(isAckOf(id))).sync?.status?.code).toBe(0);
}

async function unread(c: WireClient): Promise<{ queue: string; n: number }[]> {
  c.send(unreadFrame());
  const f = await c.take((x) => x.command === CMD.UNREAD);
  return (f.unread ?? []).map((u) => ({ queue: u.queue.name, n: u.n }));
}

async function reconnect(c: WireClient, name: string, resource: string): Promise<WireClient> {
  c.close();
  await c.untilClosed();
  return g.login(name, await g.im.login(name), resource);
}

describe("one-to-one messages from the conversation", () => {
  test("a device gets what came after it first appeared; a new device only what no device of its user has read", async () => {
    const [alice, bob] = await Promise.all([g.user("cs-a"), g.user("cs-b")]);
    const a = await g.login(alice.name, alice.token, "webim_a");
    let b1 = await g.login(bob.name, bob.token, "webim_b1");
    // b3 appears now and goes away.
    let b3 = await g.login(bob.name, bob.token, "webim_b3");
    b3.close();
    await b3.untilClosed();
    await send(a, alice.name, bob.name, 1n, "one");
    await send(a, alice.name, bob.name, 2n, "two");
    expect(await unread(b1)).toEqual([{ queue: alice.name, n: 2 }]);
    expect(await drain(b1, queueOf(alice.name))).toEqual(["one", "two"]);
    expect(await unread(b1)).toEqual([]);
    // A device first seen now: b1 has read both.
    const b2 = await g.login(bob.name, bob.token, "webim_b2");
    expect(await unread(b2)).toEqual([]);
    expect(await drain(b2, queueOf(alice.name))).toEqual([]);
    // A device that appeared before they came gets them all the same.
    b3 = await g.login(bob.name, await g.im.login(bob.name), "webim_b3");
    expect(await drain(b3, queueOf(alice.name))).toEqual(["one", "two"]);
    // What no device has read yet reaches a new device too.
    await send(a, alice.name, bob.name, 3n, "three");
    const b4 = await g.login(bob.name, bob.token, "webim_b4");
    expect(await drain(b4, queueOf(alice.name))).toEqual(["three"]);
    // And each device gets each message once: after a reconnect nothing comes again.
    b1 = await reconnect(b1, bob.name, "webim_b1");
    expect(await drain(b1, queueOf(alice.name))).toEqual(["three"]);
    b1 = await reconnect(b1, bob.name, "webim_b1");
    expect(await drain(b1, queueOf(alice.name))).toEqual([]);
    for (const c of [a, b1, b2, b3, b4]) c.close();
  });

  test(`a device away more than ${DEVICE_DAYS} days reads what another device read from history; what no device read still comes`, async () => {
    const [alice, bob] = await Promise.all([g.user("cs-c"), g.user("cs-d")]);
    const a = await g.login(alice.name, alice.token, "webim_a");
    const away = await g.login(bob.name, bob.token, "webim_away");
    away.close();
    await away.untilClosed();
    const b1 = await g.login(bob.name, bob.token, "webim_b1");
    await send(a, alice.name, bob.name, 1n, "read elsewhere");
    expect(await drain(b1, queueOf(alice.name))).toEqual(["read elsewhere"]);
    b1.close();
    await b1.untilClosed();
    await send(a, alice.name, bob.name, 2n, "read nowhere");
    g.im.t.clock.advance((DEVICE_DAYS + 1) * 86_400);
    const back = await g.login(bob.name, await g.im.login(bob.name), "webim_away");
    expect(await drain(back, queueOf(alice.name))).toEqual(["read nowhere"]);
    a.close();
    back.close();
  });

  test("the sender's other devices get its message, the sending device does not; online-only messages are not kept for later", async () => {
    const [alice, bob] = await Promise.all([g.user("cs-e"), g.user("cs-f")]);
    const a1 = await g.login(alice.name, alice.token, "webim_a1");
    const a2 = await g.login(alice.name, alice.token, "webim_a2");
    await send(a1, alice.name, bob.name, 1n, "from a1");
    a1.send(
      sendFrame(g.appKey, {
        id: 2n,
        from: alice.name,
        to: bob.name,
        chatType: 1,
        text: "online only",
        onlineOnly: true,
      }),
    );
    expect((await a1.take(isAckOf(2n))).sync?.status?.code).toBe(0);
    expect(await drain(a1, queueOf(bob.name))).toEqual([]);
    // a2 is online: it got the online-only message pushed as well.
    expect((await drain(a2, queueOf(bob.name))).sort()).toEqual(["from a1", "online only"]);
    const b = await g.login(bob.name, bob.token, "webim_b");
    expect(await drain(b, queueOf(alice.name))).toEqual(["from a1"]);
    // A message to oneself reaches the sender's other devices too.
    await send(a1, alice.name, alice.name, 3n, "note to self");
    expect(await drain(a2, queueOf(alice.name))).toEqual(["note to self"]);
    expect(await drain(a1, queueOf(alice.name))).toEqual([]);
    for (const c of [a1, a2, b]) c.close();
  });
});
