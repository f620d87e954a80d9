import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { acknowledgeMany } from "./acks";
import { CMD } from "./frames";
import { startGatewayTest, type GatewayTest } from "./test-server";
import type { WireClient } from "./wire-client";
import { decodeServerFrame, isAckOf, pullFrame, sendFrame, unreadFrame } from "./wire-client";

/**
 * Pushes: a new message reaches a device that is up to date with its queue as an unsolicited pull
 * reply, once; the device acknowledges it by pulling with its key. Pulls and pushes never overtake each
 * other, and acknowledgements of many devices are stored by one statement.
 */
let g: GatewayTest;

beforeAll(async () => {
  g = await startGatewayTest();
});
afterAll(async () => {
  await g?.close();
});

const texts = (metas: Uint8Array[]) =>
  metas.map((m) => decodeMessageBody(decodeMeta(m).payload).contents[0]?.text ?? "");
const userQueue = (name: string) => ({ name, domain: "easemob.com" });

/** Pulls a queue until it is empty, acknowledging each batch (the last key is returned for later pulls). */
async function drain(
  c: WireClient,
  queue: { name: string; domain: string },
  from?: bigint,
): Promise<{ texts: string[]; key: bigint | undefined }> {
  const out: string[] = [];
  let key = from;
  for (;;) {
    c.send(pullFrame(g.appKey, queue, key));
    const b = await c.take((f) => f.sync !== undefined && f.sync.metaId === 0n && f.sync.queue?.name === queue.name);
    out.push(...texts(b.sync?.metas ?? []));
    if (b.sync?.isLast) return { texts: out, key };
    key = b.sync?.nextKey ?? undefined;
  }
}

async function inboxOf(username: string): Promise<number> {
  const rows = await g.im.t.ctx.database.db
    .selectFrom("im_inbox")
    .select("id")
    .where("username", "=", username)
    .execute();
  return rows.length;
}

/** How far a device has acknowledged its one-to-one conversation with `peer` (null: nothing yet). */
async function cursorOf(username: string, resource: string, peer: string): Promise<number | null> {
  const conv = username < peer ? `c:${username}:${peer}` : `c:${peer}:${username}`;
  const row = await g.im.t.ctx.database.db
    .selectFrom("im_sync_cursors")
    .select("seq")
    .where("username", "=", username)
    .where("resource", "=", resource)
    .where("conv_key", "=", conv)
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}

/**
 * A receiver as the SDK behaves: pulls on a notice (one pull at a time), dispatches the metas of every
 * reply or push, and pulls with the reply's key while the queue is not done.
 */
function receiver(
  c: WireClient,
  queue: { name: string; domain: string },
): { got: string[]; frames: { pushed: number; notices: number } } {
  const got: string[] = [];
  const frames = { pushed: 0, notices: 0 };
  let key: bigint | undefined;
  let pulling = false;
  let again = false;
  const pull = () => {
    pulling = true;
    again = false;
    c.send(pullFrame(g.appKey, queue, key));
  };
  c.ws.removeAllListeners("message");
  c.ws.on("message", (data: Buffer) => {
    const f = decodeServerFrame(new Uint8Array(data));
    if (f.command === CMD.NOTICE) {
      frames.notices++;
      if (pulling) again = true;
      else pull();
    } else if (f.sync && f.sync.metaId === 0n) {
      got.push(...texts(f.sync.metas));
      if (f.sync.nextKey !== null) key = f.sync.nextKey;
      if (!f.sync.isLast) {
        if (!pulling) frames.pushed++;
        pull();
      } else if (again) pull();
      else pulling = false;
    }
  });
  return { got, frames };
}

describe("push to online devices", () => {
  test("a device up to date with the queue gets a new message pushed once, without a notice; its pull acknowledges it", async () => {
    const alice = await g.user("pa");
    const bob = await g.user("pb");
    const a = await g.login(alice.name, alice.token, "webim_pa");
    const b = await g.login(bob.name, bob.token, "webim_pb");
    // The first pull finds the queue empty: from now on the device is up to date with it.
    expect((await drain(b, userQueue(alice.name))).texts).toEqual([]);
    a.send(sendFrame(g.appKey, { id: 1n, from: alice.name, to: bob.name, chatType: 1, text: "pushed" }));
    expect((await a.take(isAckOf(1n))).sync?.status?.code).toBe(0);
    const push = await b.take((f) => f.sync !== undefined && f.sync.metaId === 0n);
    expect(texts(push.sync?.metas ?? [])).toEqual(["pushed"]);
    expect(push.sync).toMatchObject({ isLast: false, queue: expect.objectContaining({ name: alice.name }) as unknown });
    expect(push.sync?.nextKey).not.toBeNull();
    expect(b.frames.some((f) => f.command === CMD.NOTICE)).toBe(false);
    // A one-to-one message is delivered from its conversation: no queue entry, and the device's cursor
    // moves when it acknowledges.
    expect(await inboxOf(bob.name)).toBe(0);
    expect(await cursorOf(bob.name, "webim_pb", alice.name)).toBeNull();
    // The acknowledging pull answers empty and last, and the cursor is past the message.
    const done = await drain(b, userQueue(alice.name), push.sync?.nextKey ?? undefined);
    expect(done.texts).toEqual([]);
    expect(await cursorOf(bob.name, "webim_pb", alice.name)).toBe(1);
    // Nothing comes again, neither on this session nor after a reconnect.
    b.send(unreadFrame());
    expect((await b.take((f) => f.command === CMD.UNREAD)).unread).toEqual([]);
    b.close();
    await b.untilClosed();
    const b2 = await g.login(bob.name, bob.token, "webim_pb");
    expect((await drain(b2, userQueue(alice.name))).texts).toEqual([]);
    a.close();
    b2.close();
  });

  test("a pushed message not acknowledged before the connection drops comes again on reconnect, once", async () => {
    const alice = await g.user("pc");
    const bob = await g.user("pd");
    const a = await g.login(alice.name, alice.token, "webim_pc");
    const b = await g.login(bob.name, bob.token, "webim_pd");
    await drain(b, userQueue(alice.name));
    a.send(sendFrame(g.appKey, { id: 1n, from: alice.name, to: bob.name, chatType: 1, text: "unacked" }));
    await a.take(isAckOf(1n));
    expect(texts((await b.take((f) => f.sync?.metaId === 0n)).sync?.metas ?? [])).toEqual(["unacked"]);
    b.close();
    await b.untilClosed();
    const b2 = await g.login(bob.name, bob.token, "webim_pd");
    expect((await drain(b2, userQueue(alice.name))).texts).toEqual(["unacked"]);
    expect(await inboxOf(bob.name)).toBe(0);
    a.close();
    b2.close();
  });

  test("a device that has not pulled the queue yet is told by a notice, and pulls", async () => {
    const alice = await g.user("pe");
    const bob = await g.user("pf");
    const a = await g.login(alice.name, alice.token, "webim_pe");
    const b = await g.login(bob.name, bob.token, "webim_pf");
    a.send(sendFrame(g.appKey, { id: 1n, from: alice.name, to: bob.name, chatType: 1, text: "noticed" }));
    await a.take(isAckOf(1n));
    expect((await b.take((f) => f.command === CMD.NOTICE)).notice?.name).toBe(alice.name);
    expect(b.frames.some((f) => f.sync?.metaId === 0n)).toBe(false);
    expect((await drain(b, userQueue(alice.name))).texts).toEqual(["noticed"]);
    a.close();
    b.close();
  });

  test("messages streaming in while the receiver pulls arrive each once and in order, and nothing is left queued", async () => {
    const alice = await g.user("pg");
    const bob = await g.user("ph");
    const a = await g.login(alice.name, alice.token, "webim_pg");
    const b = await g.login(bob.name, bob.token, "webim_ph");
    const r = receiver(b, userQueue(alice.name));
    const n = 300;
    // Sent in waves while the receiver keeps pulling (acknowledging) after every push.
    for (let wave = 0; wave < 10; wave++) {
      for (let i = wave * 30; i < (wave + 1) * 30; i++) {
        a.send(sendFrame(g.appKey, { id: BigInt(i + 1), from: alice.name, to: bob.name, chatType: 1, text: `s${i}` }));
      }
      await a.take(isAckOf(BigInt((wave + 1) * 30)));
    }
    const deadline = Date.now() + 10_000;
    while (r.got.length < n && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    expect(r.got).toEqual(Array.from({ length: n }, (_, i) => `s${i}`));
    // Most arrived by push (a notice only before the first pull).
    expect(r.frames.pushed).toBeGreaterThan(0);
    while ((await inboxOf(bob.name)) > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    expect(await inboxOf(bob.name)).toBe(0);
    a.close();
    b.close();
  });

  test("a message sent over REST wakes the receiver's device even when it is up to date with the queue", async () => {
    const alice = await g.user("pi");
    const bob = await g.user("pj");
    const b = await g.login(bob.name, bob.token, "webim_pj");
    await drain(b, userQueue(alice.name));
    const res = await g.im.call("POST", "messages/users", {
      token: alice.token,
      body: { to: [bob.name], type: "txt", body: { msg: "over rest" } },
    });
    expect(res.status).toBe(200);
    expect((await b.take((f) => f.command === CMD.NOTICE)).notice?.name).toBe(alice.name);
    const { texts: got } = await drain(b, userQueue(alice.name));
    expect(got).toEqual(["over rest"]);
    b.close();
  });
});

describe("acknowledgements in batches", () => {
  test("one statement acknowledges the entries of several devices: entries no other device waits for go, the others keep a mark", async () => {
    const db = g.im.t.ctx.database.db;
    const alice = await g.user("ka");
    const bob = await g.user("kb");
    const carol = await g.user("kc");
    const created = await g.im.call<{ data: { groupid: string } }>("POST", "chatgroups", {
      token: alice.token,
      body: { groupname: "Acks", desc: "d", public: false, maxusers: 20, members: [bob.name, carol.name] },
    });
    const gid = created.body.data.groupid;
    // bob has two devices (both must read), carol one.
    const b1 = await g.login(bob.name, bob.token, "webim_kb1");
    const b2 = await g.login(bob.name, bob.token, "webim_kb2");
    const c1 = await g.login(carol.name, carol.token, "webim_kc1");
    const a = await g.login(alice.name, alice.token, "webim_ka");
    // A group message is queued for each member.
    a.send(sendFrame(g.appKey, { id: 1n, from: alice.name, to: gid, chatType: 2, text: "to the group" }));
    expect((await a.take(isAckOf(1n))).sync?.status?.code).toBe(0);
    const queue = `${gid}@conference.easemob.com`;
    const entries = await db
      .selectFrom("im_inbox")
      .select(["id", "username"])
      .where("queue", "=", queue)
      .where("message_id", "is not", null)
      .execute();
    const bobs = entries.filter((e) => e.username === bob.name).map((e) => Number(e.id));
    const carols = entries.filter((e) => e.username === carol.name).map((e) => Number(e.id));
    expect(bobs).toHaveLength(1);
    expect(carols).toHaveLength(1);
    const messageEntries = async (username: string) =>
      (
        await db
          .selectFrom("im_inbox")
          .select("id")
          .where("username", "=", username)
          .where("queue", "=", queue)
          .where("message_id", "is not", null)
          .execute()
      ).length;
    await acknowledgeMany(
      db,
      [
        { username: bob.name, resource: "webim_kb1", queue, ids: bobs },
        { username: carol.name, resource: "webim_kc1", queue, ids: carols },
        // Someone else's entry is not acknowledged by another user's device.
        { username: alice.name, resource: "webim_ka", queue, ids: bobs },
      ],
      g.im.t.clock.now(),
    );
    expect(await messageEntries(carol.name)).toBe(0);
    expect(await messageEntries(bob.name)).toBe(1);
    const marks = await db
      .selectFrom("im_inbox_acks")
      .select(["inbox_id", "resource"])
      .where("inbox_id", "in", bobs)
      .execute();
    expect(marks.map((m) => m.resource)).toEqual(["webim_kb1"]);
    // bob's other device still gets it, and its acknowledgement removes it.
    // (The group queue also holds the group's events.)
    expect((await drain(b2, { name: gid, domain: "conference.easemob.com" })).texts).toContain("to the group");
    expect(await messageEntries(bob.name)).toBe(0);
    for (const c of [a, b1, b2, c1]) c.close();
  });
});
