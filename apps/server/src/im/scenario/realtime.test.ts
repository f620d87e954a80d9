import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openRecording, startScenario, until, type Client, type Scenario } from "./setup";

/**
 * A client SDK (the published one, then ours: see clients.ts) over the real websocket: login, sending and receiving one-to-one and in a group,
 * recall, and a reconnect after the server drops the socket.
 */
type Event = {
  id: string;
  type?: string;
  from?: string;
  to?: string;
  msg?: string;
  chatType?: string;
  mid?: string;
  [k: string]: unknown;
};

interface Online extends Client {
  events: Record<string, Event[]>;
  send(options: Record<string, unknown>): Promise<{ localMsgId: string; serverMsgId: string }>;
}

let s: Scenario;
let alice: Online;
let bob: Online;
let carol: Online;

const HANDLERS = [
  "onLocationMessage",
  "onImageMessage",
  "onTextMessage",
  "onCustomMessage",
  "onCmdMessage",
  "onRecallMessage",
  "onReadMessage",
  "onDeliveredMessage",
  "onChannelMessage",
  "onModifiedMessage",
  "onDisconnected",
  "onReconnecting",
  "onConnected",
  "onError",
  "onGroupEvent",
  "onContactInvited",
];

async function online(c: Client): Promise<Online> {
  const events = await openRecording<Event>(c, HANDLERS);
  return {
    ...c,
    events,
    send: (options) => c.call("send", s.message(options)),
  };
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
    const sent = await alice.send({
      type: "txt",
      chatType: "singleChat",
      to: bob.name,
      msg: "hello bob",
      ext: { k: 1 },
    });
    expect(sent.serverMsgId).toMatch(/^\d+$/);
    const got = await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "bob's text");
    expect(got).toMatchObject({
      from: alice.name,
      to: bob.name,
      msg: "hello bob",
      chatType: "singleChat",
      ext: { k: 1 },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(bob.events.onTextMessage?.filter((e) => e.id === sent.serverMsgId)).toHaveLength(1);
  });

  test("custom and cmd messages arrive with their fields", async () => {
    const custom = await alice.send({
      type: "custom",
      chatType: "singleChat",
      to: bob.name,
      customEvent: "order",
      customExts: { sku: "A1", qty: 2 },
    });
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
    const history = await bob.call<{ messages: { id: string }[] }>("getHistoryMessages", {
      targetId: alice.name,
      chatType: "singleChat",
      pageSize: 50,
    });
    expect(history.messages.map((m) => m.id)).not.toContain(sent.serverMsgId);
  });

  test("a message to a user that does not exist is refused", async () => {
    const err = await alice.fail(
      "send",
      s.message({ type: "txt", chatType: "singleChat", to: "nobody-here", msg: "x" }),
    );
    expect(err.type).toBe(s.code.USER_NOT_FOUND);
  });
});

describe("other message types, receipts and edits", () => {
  test("location and image messages keep their fields", async () => {
    const loc = await alice.send({
      type: "loc",
      chatType: "singleChat",
      to: bob.name,
      addr: "Pier 7",
      buildingName: "Hall B",
      lat: 22.5,
      lng: 114.1,
    });
    const img = await alice.send({
      type: "img",
      chatType: "singleChat",
      to: bob.name,
      url: `${s.baseUrl}/files/x.png`,
      width: 40,
      height: 30,
      file_length: 1234,
    });
    const l = await until(() => (bob.events.onLocationMessage ?? []).find((e) => e.id === loc.serverMsgId), "location");
    expect(l).toMatchObject({ lat: 22.5, lng: 114.1, addr: "Pier 7", buildingName: "Hall B" });
    const i = await until(() => (bob.events.onImageMessage ?? []).find((e) => e.id === img.serverMsgId), "image");
    expect(i).toMatchObject({ width: 40, height: 30, file_length: 1234 });
  });

  test("read, delivery and channel acks reach the sender; the channel ack clears the unread count", async () => {
    const sent = await alice.send({ type: "txt", chatType: "singleChat", to: bob.name, msg: "read me" });
    await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "message");
    await bob.send({ type: "delivery", to: alice.name, ackId: sent.serverMsgId });
    await until(() => alice.events.onDeliveredMessage?.find((e) => e.mid === sent.serverMsgId), "delivery receipt");
    await bob.send({ type: "read", chatType: "singleChat", to: alice.name, id: sent.serverMsgId });
    await until(() => alice.events.onReadMessage?.find((e) => e.mid === sent.serverMsgId), "read receipt");
    await bob.send({ type: "channel", chatType: "singleChat", to: alice.name });
    await until(() => (alice.events.onChannelMessage?.length ? true : undefined), "channel ack");
    const unread = async () => {
      const list = await bob.call<{ data: { conversations: { conversationId: string; unReadCount: number }[] } }>(
        "getServerConversations",
        { pageSize: 20 },
      );
      return list.data.conversations.find((c) => c.conversationId === alice.name)?.unReadCount;
    };
    // The ack above resolved after the server stored the read state.
    expect(await unread()).toBe(0);
    await alice.send({ type: "txt", chatType: "singleChat", to: bob.name, msg: "one more" });
    expect(await unread()).toBe(1);
  });

  test("a text message is edited; the peer sees the new text and the edit count", async () => {
    const sent = await alice.send({ type: "txt", chatType: "singleChat", to: bob.name, msg: "typo" });
    await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "message");
    const res = await alice.call<{ message: { msg: string; modifiedInfo: { operationCount: number } } }>(
      "modifyMessage",
      {
        messageId: sent.serverMsgId,
        modifiedMessage: s.message({ type: "txt", chatType: "singleChat", to: bob.name, msg: "fixed" }),
      },
    );
    expect(res.message).toMatchObject({ msg: "fixed", modifiedInfo: { operationCount: 1 } });
    const ev = await until(() => bob.events.onModifiedMessage?.find((e) => e.id === sent.serverMsgId), "edit event");
    expect(ev).toMatchObject({ msg: "fixed", from: alice.name });
  });
});

describe("group", () => {
  test("members receive group messages; a non-member is refused", async () => {
    const g = await alice.call<{ data: { groupid: string } }>("createGroup", {
      data: {
        groupname: "Desk",
        desc: "",
        members: [bob.name],
        public: false,
        approval: false,
        allowinvites: false,
        inviteNeedConfirm: false,
        maxusers: 20,
      },
    });
    const gid = g.data.groupid;
    const sent = await alice.send({ type: "txt", chatType: "groupChat", to: gid, msg: "hi all" });
    const got = await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "group text");
    expect(got).toMatchObject({ from: alice.name, to: gid, chatType: "groupChat", msg: "hi all" });
    const cmd = await bob.send({ type: "cmd", chatType: "groupChat", to: gid, action: "ping" });
    await until(() => alice.events.onCmdMessage?.find((e) => e.id === cmd.serverMsgId), "group cmd");
    const err = await carol.fail("send", s.message({ type: "txt", chatType: "groupChat", to: gid, msg: "let me in" }));
    expect(err.type).toBe(s.code.GROUP_NOT_JOINED);
  });

  test("group management reaches other members as events; a muted member is refused", async () => {
    const g = await alice.call<{ data: { groupid: string } }>("createGroup", {
      data: {
        groupname: "Ops",
        desc: "",
        members: [bob.name],
        public: false,
        approval: false,
        allowinvites: false,
        inviteNeedConfirm: false,
        maxusers: 20,
      },
    });
    const gid = g.data.groupid;
    await alice.call("muteGroupMember", { groupId: gid, username: bob.name, muteDuration: 60_000 });
    const ev = await until(
      () => bob.events.onGroupEvent?.find((e) => e.id === gid && e.operation === "muteMember"),
      "mute event",
    );
    expect(ev).toMatchObject({ from: alice.name });
    const err = await bob.fail("send", s.message({ type: "txt", chatType: "groupChat", to: gid, msg: "can I?" }));
    expect(err.type).toBe(s.code.USER_MUTED_BY_ADMIN);
  });

  test("a contact request reaches the invitee", async () => {
    await carol.call("addContact", bob.name, "hi, carol here");
    const ev = await until(() => bob.events.onContactInvited?.find((e) => e.from === carol.name), "contact invite");
    expect(ev).toMatchObject({ to: bob.name, status: "hi, carol here" });
  });
});

describe("chat room", () => {
  test("join over the socket, receive room messages, leave", async () => {
    const created = await s.im.call<{ data: { id: string } }>("POST", "chatrooms", {
      token: alice.conn.token,
      body: { name: "Lobby", description: "d", maxusers: 50, owner: alice.name, members: [] },
    });
    const roomId = created.body.data.id;
    const joined = await bob.call<{ data: { result: boolean; info: { memberCount: number } } }>("joinChatRoom", {
      roomId,
    });
    expect(joined.data.result).toBe(true);
    expect(joined.data.info.memberCount).toBe(2);
    const sent = await alice.send({ type: "txt", chatType: "chatRoom", to: roomId, msg: "welcome" });
    const got = await until(() => bob.events.onTextMessage?.find((e) => e.id === sent.serverMsgId), "room message");
    expect(got).toMatchObject({ chatType: "chatRoom", to: roomId, from: alice.name, priority: "normal" });
    const urgent = await alice.send({
      type: "txt",
      chatType: "chatRoom",
      to: roomId,
      msg: "fire drill",
      priority: "high",
    });
    expect(
      await until(() => bob.events.onTextMessage?.find((e) => e.id === urgent.serverMsgId), "high priority"),
    ).toMatchObject({ priority: "high" });
    await bob.call("leaveChatRoom", { roomId });
    const err = await bob.fail("send", s.message({ type: "txt", chatType: "chatRoom", to: roomId, msg: "gone" }));
    expect(err.type).toBe(s.code.GROUP_NOT_JOINED);
    const missing = await carol.fail("joinChatRoom", { roomId: "99999999" });
    expect(missing.type).toBe(s.code.CHATROOM_NOT_EXIST);
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
