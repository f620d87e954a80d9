import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { findMessage } from "../store/messages";
import { Writer } from "../proto/wire";
import { CMD, STATUS } from "./frames";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { isAckOf, messageBody, provisionFrame, pullFrame, sendFrame, unreadFrame, WireClient } from "./wire-client";

/** The gateway with our own frames: login and its failures, send and ack, offline delivery, duplicates, refusals. */
let g: GatewayTest;
let alice: { name: string; token: string };
let bob: { name: string; token: string };

beforeAll(async () => {
  g = await startGatewayTest();
  alice = await g.user("alice");
  bob = await g.user("bob");
});
afterAll(async () => {
  await g?.close();
});

/** The texts of the message metas (group queues also carry the group's events). */
const texts = (metas: Uint8Array[]) =>
  metas
    .map((m) => decodeMeta(m))
    .filter((m) => m.ns === 1)
    .map((m) => decodeMessageBody(m.payload).contents[0]?.text);

async function refused(name: string, token: string): Promise<{ code: number; reason: string; close: number }> {
  const c = await WireClient.connect(g.url);
  c.send(provisionFrame(g.appKey, name, token, "webim_x"));
  const reply = await c.take((f) => f.provision !== undefined);
  const closed = await c.untilClosed();
  return { code: reply.provision?.status.code ?? -1, reason: reply.provision?.status.reason ?? "", close: closed.code };
}

const drain = (c: WireClient, queue: { name: string; domain: string }) => g.drain(c, queue);

describe("login", () => {
  test("a valid token logs in; the reply echoes the resource and the absolute expiry", async () => {
    const c = await WireClient.connect(g.url);
    c.send(provisionFrame(g.appKey, alice.name, alice.token, "webim_a1"));
    const r = await c.take((f) => f.command === CMD.PROVISION);
    expect(r.provision?.status.code).toBe(0);
    expect(r.provision?.resource).toBe("webim_a1");
    const expires = (JSON.parse(r.provision?.authToken ?? "{}") as { expires_in: number }).expires_in;
    expect(expires).toBeGreaterThan(g.im.t.clock.now().getTime());
    c.send(unreadFrame());
    const u = await c.take((f) => f.command === CMD.UNREAD);
    expect(u.unread).toEqual([]);
    c.close();
  });

  test("the chat SDK 5's login: the token only in the provision's authToken JSON", async () => {
    const login = async (name: string, authToken: string) => {
      const c = await WireClient.connect(g.url);
      c.send(provisionFrame(g.appKey, name, "", "webim_sdk5", undefined, { authToken }));
      const r = await c.take((f) => f.command === CMD.PROVISION);
      c.close();
      return r.provision?.status.code;
    };
    expect(await login(alice.name, JSON.stringify({ token: `$t$${alice.token}` }))).toBe(0);
    expect(await login(alice.name, JSON.stringify({ token: alice.token }))).toBe(0);
    // Another user's token, no token, and what is not the JSON are refused as a mismatch.
    expect(await login(bob.name, JSON.stringify({ token: `$t$${alice.token}` }))).toBe(1);
    expect(await login(alice.name, JSON.stringify({}))).toBe(1);
    expect(await login(alice.name, `$t$${alice.token}`)).toBe(1);
  });

  test("each login failure has its code and reason, and the socket is closed", async () => {
    expect(await refused(alice.name, "YWMtgarbage.x")).toEqual({
      code: 1,
      reason: "Sorry, token or password does not match login info",
      close: 4001,
    });
    expect(await refused(bob.name, alice.token)).toMatchObject({
      code: 1,
      reason: "Sorry, token or password does not match login info",
    });
    expect(await refused("bad name!", alice.token)).toMatchObject({ code: 4, reason: "Invalid parameter" });
    const ghost = g.im.t.app.im.services.deps.signer.sign({
      subject: "ghost-user",
      issuedMs: Date.now(),
      expiresMs: Date.now() + 60_000,
    });
    expect(await refused("ghost-user", ghost)).toMatchObject({ code: 1, reason: "Sorry, user not found" });
    const old = g.im.t.app.im.services.deps.signer.sign({
      subject: alice.name,
      issuedMs: Date.now() - 120_000,
      expiresMs: Date.now() - 60_000,
    });
    expect(await refused(alice.name, old)).toMatchObject({ code: 1, reason: "Sorry, token expired" });
  });

  test("the session ends when its token expires", async () => {
    const now = g.im.t.clock.now().getTime();
    const short = g.im.t.app.im.services.deps.signer.sign({ subject: alice.name, issuedMs: now, expiresMs: now + 300 });
    const c = await g.login(alice.name, short, "webim_short");
    expect((await c.untilClosed(3000)).code).toBe(4003);
  });

  test("frames before login other than PROVISION close the socket", async () => {
    const c = await WireClient.connect(g.url);
    c.send(unreadFrame());
    expect((await c.untilClosed()).code).toBe(1002);
  });

  test("more devices than allowed are refused with TOO_MANY_DEVICES", async () => {
    const u = await g.user("many");
    const max = g.im.t.app.im.gateway.options.maxDevices;
    const open: WireClient[] = [];
    for (let i = 0; i < max; i++) open.push(await g.login(u.name, u.token, `webim_d${i}`));
    expect(await refused(u.name, u.token)).toMatchObject({ code: 13 });
    for (const c of open) c.close();
  });

  test("a second login on the same resource kicks the first with LOGIN_ANOTHER_DEVICE", async () => {
    const u = await g.user("twice");
    const first = await g.login(u.name, u.token, "webim_same");
    const second = await g.login(u.name, u.token, "webim_same");
    const kick = await first.take((f) => (f.sync?.metas.length ?? 0) > 0);
    const meta = decodeMeta(kick.sync?.metas[0] ?? new Uint8Array());
    expect(meta.ns).toBe(0);
    expect(meta.payload[0]).toBe(0x08);
    expect(meta.payload[1]).toBe(2);
    expect((await first.untilClosed()).code).toBe(4000);
    second.close();
  });
});

describe("send, ack and delivery", () => {
  test("the ack comes after the message is stored, and the online peer is woken", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a2");
    const b = await g.login(bob.name, bob.token, "webim_b2");
    a.send(sendFrame(g.appKey, { id: 1001n, from: alice.name, to: bob.name, chatType: 1, text: "first" }));
    const ack = await a.take(isAckOf(1001n));
    expect(ack.sync?.status).toEqual({ code: 0, reason: "" });
    const row = await findMessage(g.im.t.ctx.database.db, Number(ack.sync?.serverId));
    expect(row).toMatchObject({ from_user: alice.name, to_target: bob.name, created_ms: Number(ack.sync?.timestamp) });
    const n = await b.take((f) => f.command === CMD.NOTICE);
    expect(n.notice?.name).toBe(alice.name);
    expect(await drain(b, { name: alice.name, domain: "easemob.com" })).toEqual(["first"]);
    a.close();
    b.close();
  });

  test("an offline device gets everything on reconnect, in order, exactly once", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a3");
    for (let i = 0; i < 120; i++) {
      a.send(sendFrame(g.appKey, { id: BigInt(2000 + i), from: alice.name, to: bob.name, chatType: 1, text: `m${i}` }));
    }
    for (let i = 0; i < 120; i++) expect((await a.take(isAckOf(BigInt(2000 + i)))).sync?.status?.code).toBe(0);
    let b = await g.login(bob.name, bob.token, "webim_b3");
    b.send(unreadFrame());
    const u = await b.take((f) => f.command === CMD.UNREAD);
    expect(u.unread).toEqual([
      { queue: expect.objectContaining({ name: alice.name, domain: "easemob.com" }) as unknown, n: 120 },
    ]);
    // First batch taken but not acknowledged: the connection drops, and the batch comes again.
    b.send(pullFrame(g.appKey, { name: alice.name, domain: "easemob.com" }));
    const first = await b.take((f) => f.sync?.queue?.name === alice.name);
    expect(texts(first.sync?.metas ?? []).slice(0, 2)).toEqual(["m0", "m1"]);
    b.close();
    await b.untilClosed();
    b = await g.login(bob.name, bob.token, "webim_b3");
    const all = await drain(b, { name: alice.name, domain: "easemob.com" });
    expect(all).toEqual(Array.from({ length: 120 }, (_, i) => `m${i}`));
    b.close();
    await b.untilClosed();
    b = await g.login(bob.name, bob.token, "webim_b3");
    b.send(unreadFrame());
    expect((await b.take((f) => f.command === CMD.UNREAD)).unread).toEqual([]);
    b.close();
    a.close();
  });

  test("the same client message id sent twice makes one message with one server id", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a4");
    const frame = sendFrame(g.appKey, { id: 3001n, from: alice.name, to: bob.name, chatType: 1, text: "once" });
    a.send(frame);
    a.send(frame);
    const first = await a.take(isAckOf(3001n));
    const second = await a.take(isAckOf(3001n));
    expect(second.sync?.serverId).toBe(first.sync?.serverId);
    const rows = await g.im.t.ctx.database.db
      .selectFrom("im_messages")
      .select("id")
      .where("from_user", "=", alice.name)
      .where("client_id", "=", "webim_a4:3001")
      .execute();
    expect(rows).toHaveLength(1);
    const b = await g.login(bob.name, bob.token, "webim_b4");
    expect(await drain(b, { name: alice.name, domain: "easemob.com" })).toEqual(["once"]);
    a.close();
    b.close();
  });

  test("resends queued behind their first copy's batch are one message, in order with the others", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a4r");
    const frame = (id: bigint, text: string) =>
      sendFrame(g.appKey, { id, from: alice.name, to: bob.name, chatType: 1, text });
    // The first copy goes out in a batch of its own; the rest queue behind it (their batch finds it stored).
    for (const [id, text] of [
      [3101n, "r1"],
      [3102n, "r2"],
      [3101n, "r1"],
      [3103n, "r3"],
      [3101n, "r1"],
      [3102n, "r2"],
    ] as const) {
      a.send(frame(id, text));
    }
    const acks = [];
    for (let i = 0; i < 6; i++) {
      acks.push(await a.take((f) => f.sync !== undefined && f.sync.metaId >= 3101n && f.sync.metaId <= 3103n));
    }
    const serverIds = new Map<bigint, Set<bigint>>();
    for (const f of acks) {
      expect(f.sync?.status?.code).toBe(0);
      const id = f.sync?.metaId ?? 0n;
      serverIds.set(id, (serverIds.get(id) ?? new Set()).add(f.sync?.serverId ?? 0n));
    }
    expect([...serverIds.values()].map((ids) => ids.size)).toEqual([1, 1, 1]);
    const b = await g.login(bob.name, bob.token, "webim_b4r");
    expect(await drain(b, { name: alice.name, domain: "easemob.com" })).toEqual(["r1", "r2", "r3"]);
    a.close();
    b.close();
  });

  test("refusals carry the reasons the client maps", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a5");
    a.send(sendFrame(g.appKey, { id: 4001n, from: alice.name, to: "nobody-at-all", chatType: 1, text: "x" }));
    expect((await a.take(isAckOf(4001n))).sync?.status).toEqual({
      code: 1,
      reason: "username nobody-at-all doesn't exist!",
    });
    a.send(sendFrame(g.appKey, { id: 4002n, from: alice.name, to: "999999", chatType: 2, text: "x" }));
    expect((await a.take(isAckOf(4002n))).sync?.status).toEqual({ code: 1, reason: "group not found" });
    a.send(sendFrame(g.appKey, { id: 4003n, from: bob.name, to: alice.name, chatType: 1, text: "spoof" }));
    expect((await a.take(isAckOf(4003n))).sync?.status?.code).toBe(4);
    a.send(sendFrame(g.appKey, { id: 4004n, from: alice.name, to: bob.name, chatType: 1, text: "x".repeat(70_000) }));
    expect((await a.take(isAckOf(4004n))).sync?.status).toEqual({ code: 7, reason: "Sorry, data is too large" });
    // bob blocks alice
    const block = await g.im.call("POST", `sdk/user/${bob.name}/blocks`, {
      token: bob.token,
      body: { usernames: [alice.name] },
    });
    expect(block.status).toBe(200);
    a.send(sendFrame(g.appKey, { id: 4005n, from: alice.name, to: bob.name, chatType: 1, text: "x" }));
    expect((await a.take(isAckOf(4005n))).sync?.status).toEqual({ code: 1, reason: "blocked" });
    await g.im.call("DELETE", `sdk/user/${bob.name}/blocks`, { token: bob.token, body: { usernames: [alice.name] } });
    a.close();
  });

  test("sends stored together in one transaction: a refused one does not disturb the others", async () => {
    const erin = await g.user("erin");
    const a = await g.login(alice.name, alice.token, "webim_batch");
    for (let i = 0; i < 40; i++) {
      const to = i % 4 === 3 ? "nobody-batch" : erin.name;
      a.send(sendFrame(g.appKey, { id: BigInt(10_000 + i), from: alice.name, to, chatType: 1, text: `b${i}` }));
    }
    for (let i = 0; i < 40; i++) {
      const status = (await a.take(isAckOf(BigInt(10_000 + i)))).sync?.status;
      expect(status?.code).toBe(i % 4 === 3 ? 1 : 0);
    }
    const e = await g.login(erin.name, erin.token, "webim_batch_r");
    expect(await drain(e, { name: alice.name, domain: "easemob.com" })).toEqual(
      Array.from({ length: 40 }, (_, i) => i)
        .filter((i) => i % 4 !== 3)
        .map((i) => `b${i}`),
    );
    a.close();
    e.close();
  });

  test("recall within the window reaches the peer; after the window it is refused", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a6");
    a.send(sendFrame(g.appKey, { id: 5001n, from: alice.name, to: bob.name, chatType: 1, text: "take back" }));
    const sent = (await a.take(isAckOf(5001n))).sync?.serverId ?? 0n;
    a.send(
      sendFrame(g.appKey, {
        id: 5002n,
        from: alice.name,
        to: bob.name,
        chatType: 1,
        text: "",
        bodyType: 6,
        ackMessageId: sent,
      }),
    );
    expect((await a.take(isAckOf(5002n))).sync?.status?.code).toBe(0);
    a.send(sendFrame(g.appKey, { id: 5003n, from: alice.name, to: bob.name, chatType: 1, text: "too late" }));
    const late = (await a.take(isAckOf(5003n))).sync?.serverId ?? 0n;
    g.im.t.clock.advance(g.im.t.app.im.gateway.options.recallWindowMs / 1000 + 1);
    a.send(
      sendFrame(g.appKey, {
        id: 5004n,
        from: alice.name,
        to: bob.name,
        chatType: 1,
        text: "",
        bodyType: 6,
        ackMessageId: late,
      }),
    );
    expect((await a.take(isAckOf(5004n))).sync?.status).toEqual({ code: 1, reason: "exceed recall time limit" });
    const b = await g.login(bob.name, bob.token, "webim_b6");
    b.send(pullFrame(g.appKey, { name: alice.name, domain: "easemob.com" }));
    const batch = await b.take((f) => f.sync?.queue?.name === alice.name);
    const bodies = (batch.sync?.metas ?? []).map((m) => decodeMessageBody(decodeMeta(m).payload));
    // The recalled message is not delivered; its RECALL is, then the later message.
    expect(bodies.map((x) => x.type)).toEqual([6, 1]);
    expect(bodies[0]?.ackMessageId).toBe(sent);
    a.close();
    b.close();
  });

  test("unread counts: own messages never count, a channel ack clears them", async () => {
    const carol = await g.user("carol");
    const a = await g.login(alice.name, alice.token, "webim_a7");
    for (let i = 0; i < 3; i++) {
      a.send(
        sendFrame(g.appKey, { id: BigInt(6000 + i), from: alice.name, to: carol.name, chatType: 1, text: `u${i}` }),
      );
      await a.take(isAckOf(BigInt(6000 + i)));
    }
    const unread = async (who: string, key: string) =>
      (
        await g.im.t.ctx.database.db
          .selectFrom("im_conversations")
          .select("unread")
          .where("username", "=", who)
          .where("conv_key", "=", key)
          .executeTakeFirst()
      )?.unread;
    const key = alice.name < carol.name ? `c:${alice.name}:${carol.name}` : `c:${carol.name}:${alice.name}`;
    expect(await unread(carol.name, key)).toBe(3);
    expect(await unread(alice.name, key)).toBe(0);
    const c = await g.login(carol.name, carol.token, "webim_c7");
    c.send(sendFrame(g.appKey, { id: 6100n, from: carol.name, to: alice.name, chatType: 1, text: "", bodyType: 7 }));
    expect((await c.take(isAckOf(6100n))).sync?.status?.code).toBe(0);
    expect(await unread(carol.name, key)).toBe(0);
    a.close();
    c.close();
  });
});

describe("group routing", () => {
  test("members get group messages through the group queue; directed messages reach only the listed members", async () => {
    const carol = await g.user("carol");
    const created = await g.im.call<{ data: { groupid: string } }>("POST", "chatgroups", {
      token: alice.token,
      body: { groupname: "Desk", desc: "d", public: false, maxusers: 20, members: [bob.name, carol.name] },
    });
    const gid = created.body.data.groupid;
    const a = await g.login(alice.name, alice.token, "webim_g1");
    a.send(sendFrame(g.appKey, { id: 8001n, from: alice.name, to: gid, chatType: 2, text: "to all" }));
    expect((await a.take(isAckOf(8001n))).sync?.status?.code).toBe(0);
    a.send(
      sendFrame(g.appKey, { id: 8002n, from: alice.name, to: gid, chatType: 2, text: "bob only" }, undefined, [
        bob.name,
      ]),
    );
    expect((await a.take(isAckOf(8002n))).sync?.status?.code).toBe(0);
    const queue = { name: gid, domain: "conference.easemob.com" };
    const b = await g.login(bob.name, bob.token, "webim_g2");
    expect(await drain(b, queue)).toEqual(["to all", "bob only"]);
    const c = await g.login(carol.name, carol.token, "webim_g3");
    expect(await drain(c, queue)).toEqual(["to all"]);
    const outsider = await g.user("outsider");
    const o = await g.login(outsider.name, outsider.token, "webim_g4");
    o.send(sendFrame(g.appKey, { id: 8003n, from: outsider.name, to: gid, chatType: 2, text: "hi" }));
    expect((await o.take(isAckOf(8003n))).sync?.status).toEqual({ code: 1, reason: "not in group or chatroom" });
    for (const x of [a, b, c, o]) x.close();
  });
});

describe("sessions", () => {
  test("a user's other device gets the copy of what this device sent; the sending device does not", async () => {
    const dana = await g.user("dana");
    const d1 = await g.login(dana.name, dana.token, "webim_m1");
    const d2 = await g.login(dana.name, dana.token, "webim_m2");
    d1.send(sendFrame(g.appKey, { id: 9001n, from: dana.name, to: bob.name, chatType: 1, text: "from d1" }));
    await d1.take(isAckOf(9001n));
    const n = await d2.take((f) => f.command === CMD.NOTICE);
    expect(n.notice?.name).toBe(bob.name);
    expect(await drain(d2, { name: bob.name, domain: "easemob.com" })).toEqual(["from d1"]);
    expect(await drain(d1, { name: bob.name, domain: "easemob.com" })).toEqual([]);
    d1.close();
    d2.close();
  });

  test("a device that was offline still gets what another device of the same user already read", async () => {
    const erin = await g.user("erin");
    const e1 = await g.login(erin.name, erin.token, "webim_e1");
    let e2 = await g.login(erin.name, erin.token, "webim_e2");
    e2.close();
    await e2.untilClosed();
    const b = await g.login(bob.name, bob.token, "webim_b9");
    for (let i = 0; i < 3; i++) {
      b.send(sendFrame(g.appKey, { id: BigInt(9100 + i), from: bob.name, to: erin.name, chatType: 1, text: `x${i}` }));
      await b.take(isAckOf(BigInt(9100 + i)));
    }
    const queue = { name: bob.name, domain: "easemob.com" };
    expect(await drain(e1, queue)).toEqual(["x0", "x1", "x2"]);
    // e1 acknowledges by pulling again; the entries wait for e2.
    expect(await drain(e1, queue)).toEqual([]);
    e2 = await g.login(erin.name, erin.token, "webim_e2");
    expect(await drain(e2, queue)).toEqual(["x0", "x1", "x2"]);
    expect(await drain(e2, queue)).toEqual([]);
    // Read by both devices: gone for everyone.
    const left = await g.im.t.ctx.database.db
      .selectFrom("im_inbox")
      .select("id")
      .where("username", "=", erin.name)
      .execute();
    expect(left).toEqual([]);
    b.close();
    e1.close();
    e2.close();
  });

  test("a location whose coordinates are not numbers is refused as a wrong parameter; a valid one is stored", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a9");
    const location = (lat: number) => {
      const w = new Writer().varint(1, 1);
      w.message(2, (j) => j.string(2, alice.name)).message(3, (j) => j.string(2, bob.name));
      w.message(4, (c) => c.varint(1, 3).double(3, lat).double(4, 114.1).string(5, "Harbour Road"));
      return w.finish();
    };
    a.send(
      sendFrame(g.appKey, { id: 7101n, from: alice.name, to: bob.name, chatType: 1, text: "" }, location(Number.NaN)),
    );
    const bad = await a.take(isAckOf(7101n));
    expect(bad.sync?.status).toMatchObject({ code: STATUS.WRONG_PARAMETER, reason: "the message body is not valid" });
    a.send(sendFrame(g.appKey, { id: 7102n, from: alice.name, to: bob.name, chatType: 1, text: "" }, location(22.3)));
    const ok = await a.take(isAckOf(7102n));
    expect(ok.sync?.status?.code).toBe(0);
    const stored = await findMessage(g.im.t.ctx.database.db, Number(ok.sync?.serverId));
    expect(stored?.payload.bodies[0]).toEqual({ type: "loc", lat: 22.3, lng: 114.1, addr: "Harbour Road" });
    a.close();
  });

  test("bodies with unknown content types are refused, the socket stays open", async () => {
    const a = await g.login(alice.name, alice.token, "webim_a8");
    const body = messageBody(g.appKey, { from: alice.name, to: bob.name, chatType: 1, text: "" });
    const bad = Uint8Array.from([...body.slice(0, -2), 0x08, 0x63]);
    a.send(sendFrame(g.appKey, { id: 7001n, from: alice.name, to: bob.name, chatType: 1, text: "" }, bad));
    const ack = await a.take(isAckOf(7001n));
    expect(ack.sync?.status?.code).not.toBe(0);
    a.send(unreadFrame());
    await a.take((f) => f.command === CMD.UNREAD);
    a.close();
  });
});
