import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadWebsdk } from "./sdk";
import { startScenario, type Client, type Scenario } from "./setup";

/**
 * The published client over the real websocket: login, sending and receiving one-to-one and in a group,
 * recall, and a reconnect after the server drops the socket.
 */
type Event = { id: string; type?: string; from?: string; to?: string; msg?: string; chatType?: string; mid?: string; [k: string]: unknown };

interface Online extends Client {
  events: Record<string, Event[]>;
  send(options: Record<string, unknown>): Promise<{ localMsgId: string; serverMsgId: string }>;
}

let s: Scenario;
let alice: Online;
let bob: Online;
let carol: Online;

const HANDLERS = ["onTextMessage", "onCustomMessage", "onCmdMessage", "onRecallMessage", "onReadMessage", "onDeliveredMessage", "onChannelMessage", "onModifiedMessage", "onDisconnected", "onReconnecting", "onConnected", "onError", "onGroupEvent"];

async function online(c: Client): Promise<Online> {
  const events: Record<string, Event[]> = {};
  const handlers: Record<string, (e: Event) => void> = {};
  for (const h of HANDLERS) {
    events[h] = [];
    handlers[h] = (e) => events[h]?.push(e);
  }
  (c.conn.addEventHandler as (id: string, h: unknown) => void).call(c.conn, "test", handlers);
  await c.call("open", { user: c.name, accessToken: c.conn.token });
  const sdk = loadWebsdk();
  return {
    ...c,
    events,
    send: (options) => c.call("send", sdk.message.create(options)),
  };
}

async function until<T>(what: () => T | undefined, label: string, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  s = await startScenario();
  const [a, b, c] = await Promise.all([s.client("alice"), s.client("bob"), s.client("carol")]);
  alice = await online(a);
  bob = await online(b);
  carol = await online(c);
});
afterAll(async () => {
  for (const c of [alice, bob, carol]) if (c) (c.conn.close as () => void).call(c.conn);
  await s?.close();
});

describe("one-to-one", () => {
  test("a text message is acknowledged with a server id and delivered once", async () => {
    const sent = await alice.send({ type: "txt", chatType: "singleChat", to: bob.name, msg: "hello bob", ext: { k: 1 } });
    expect(sent.serverMsgId).toMatch(/^\d+$/);
    const got = await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "bob's text");
    expect(got).toMatchObject({ from: alice.name, to: bob.name, msg: "hello bob", chatType: "singleChat", ext: { k: 1 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(bob.events.onTextMessage?.filter((e) => e.id === sent.serverMsgId)).toHaveLength(1);
  });

  test("custom and cmd messages arrive with their fields", async () => {
    const custom = await alice.send({ type: "custom", chatType: "singleChat", to: bob.name, customEvent: "order", customExts: { sku: "A1", qty: 2 } });
    const cmd = await alice.send({ type: "cmd", chatType: "singleChat", to: bob.name, action: "refresh" });
    const c = await until(() => bob.events.onCustomMessage?.find((e) => e.id === custom.serverMsgId), "custom");
    expect(c).toMatchObject({ customEvent: "order", customExts: { sku: "A1", qty: 2 } });
    const m = await until(() => bob.events.onCmdMessage?.find((e) => e.id === cmd.serverMsgId), "cmd");
    expect(m).toMatchObject({ action: "refresh", from: alice.name });
  });

  test("recall reaches the peer and the message leaves history", async () => {
    const sent = await alice.send({ type: "txt", chatType: "singleChat", to: bob.name, msg: "oops" });
    await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "the message");
    await alice.call("recallMessage", { mid: sent.serverMsgId, to: bob.name, chatType: "singleChat" });
    const r = await until(() => bob.events.onRecallMessage?.find((e) => e.mid === sent.serverMsgId), "recall");
    expect(r).toMatchObject({ from: alice.name, to: bob.name });
    const history = await bob.call<{ messages: { id: string }[] }>("getHistoryMessages", { targetId: alice.name, chatType: "singleChat", pageSize: 50 });
    expect(history.messages.map((m) => m.id)).not.toContain(sent.serverMsgId);
  });

  test("a message to a user that does not exist is refused", async () => {
    const err = await alice.fail("send", loadWebsdk().message.create({ type: "txt", chatType: "singleChat", to: "nobody-here", msg: "x" }));
    expect(err.type).toBe(s.code.USER_NOT_FOUND);
  });
});

describe("group", () => {
  test("members receive group messages; a non-member is refused", async () => {
    const g = await alice.call<{ data: { groupid: string } }>("createGroup", {
      data: { groupname: "Desk", desc: "", members: [bob.name], public: false, approval: false, allowinvites: false, inviteNeedConfirm: false, maxusers: 20 },
    });
    const gid = g.data.groupid;
    const sent = await alice.send({ type: "txt", chatType: "groupChat", to: gid, msg: "hi all" });
    const got = await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "group text");
    expect(got).toMatchObject({ from: alice.name, to: gid, chatType: "groupChat", msg: "hi all" });
    const cmd = await bob.send({ type: "cmd", chatType: "groupChat", to: gid, action: "ping" });
    await until(() => alice.events.onCmdMessage?.find((e) => e.id === cmd.serverMsgId), "group cmd");
    const err = await carol.fail("send", loadWebsdk().message.create({ type: "txt", chatType: "groupChat", to: gid, msg: "let me in" }));
    expect(err.type).toBe(s.code.GROUP_NOT_JOINED);
  });
});

describe("reconnect", () => {
  test("after the server drops the socket the client reconnects and gets what it missed, once", async () => {
    const before = bob.events.onConnected?.length ?? 0;
    const devices = s.im.t.app.im.gateway.hub.devices(bob.name);
    expect(devices).toHaveLength(1);
    devices[0]?.kick(0);
    // A STATISTIC INFORMATION meta is not a kick; the close that follows is a drop, and the client reconnects.
    const sent = await alice.send({ type: "txt", chatType: "singleChat", to: bob.name, msg: "while you were away" });
    await until(() => ((bob.events.onConnected?.length ?? 0) > before ? true : undefined), "reconnect", 15_000);
    await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "missed message", 15_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(bob.events.onTextMessage?.filter((e) => e.id === sent.serverMsgId)).toHaveLength(1);
  }, 30_000);
});
