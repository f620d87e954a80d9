import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startScenario, type Client, type Scenario } from "./setup";

/**
 * Stored messages read back with a client SDK (the published one, then ours: see clients.ts): roaming history (cursor, direction, server-side
 * search), message removal, conversations (list, pinned, pin, delete), reactions, reports, group read
 * acks and threads. Clients send over the socket (next issue), so the messages are stored through the
 * server-side send API, as the back-office does.
 */
let s: Scenario;
let alice: Client;
let bob: Client;
let carol: Client;
let groupId: string;

type Reply<T = unknown> = { type: number; data: T; [k: string]: unknown };
type HistoryMessage = {
  id: string;
  type: string;
  msg?: string;
  from: string;
  to: string;
  chatType: string;
  time: number;
  ext?: Record<string, unknown>;
};
type History = { cursor: string; isLast: boolean; messages: HistoryMessage[] };

/** Stores a message from `from` through the server-side send API; returns its server id. */
async function store(
  from: Client,
  kind: "users" | "chatgroups",
  to: string,
  type: string,
  body: Record<string, unknown>,
  ext: Record<string, unknown> = {},
): Promise<string> {
  const res = await s.im.call<{ data: Record<string, string> }>("POST", `messages/${kind}`, {
    token: from.conn.token,
    body: { to: [to], type, body, ext },
  });
  if (res.status !== 200) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  const id = res.body.data[to];
  if (!id) throw new Error("no message id");
  return id;
}

beforeAll(async () => {
  s = await startScenario();
  [alice, bob, carol] = await Promise.all([s.client("alice"), s.client("bob"), s.client("carol")]);
  const g = await alice.call<Reply<{ groupid: string }>>("createGroup", {
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
  groupId = g.data.groupid;
});
afterAll(async () => {
  await s?.close();
});

describe("roaming history", () => {
  const ids: string[] = [];

  test("pages with the cursor in both directions until isLast", async () => {
    for (let i = 0; i < 5; i++) {
      s.im.t.clock.advance(1);
      ids.push(
        await store(
          i % 2 === 0 ? alice : bob,
          "users",
          i % 2 === 0 ? bob.name : alice.name,
          "txt",
          { msg: `m${i}` },
          { n: i },
        ),
      );
    }
    const first = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 2,
    });
    expect(first.messages.map((m) => m.msg)).toEqual(["m4", "m3"]);
    expect(first.isLast).toBe(false);
    expect(first.messages[0]).toMatchObject({
      id: ids[4],
      type: "txt",
      from: alice.name,
      to: bob.name,
      chatType: "singleChat",
      ext: { n: 4 },
    });
    const second = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 2,
      cursor: first.cursor,
    });
    expect(second.messages.map((m) => m.msg)).toEqual(["m2", "m1"]);
    const third = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 2,
      cursor: second.cursor,
    });
    expect(third.messages.map((m) => m.msg)).toEqual(["m0"]);
    expect(third.isLast).toBe(true);

    const up = await bob.call<History>("getHistoryMessages", {
      targetId: alice.name,
      chatType: "singleChat",
      pageSize: 3,
      searchDirection: "down",
    });
    expect(up.messages.map((m) => m.msg)).toEqual(["m0", "m1", "m2"]);

    // carol never talked to them: her own (empty) conversation with alice.
    const none = await carol.call<History>("getHistoryMessages", { targetId: alice.name, chatType: "singleChat" });
    expect(none.messages).toEqual([]);
    expect(none.isLast).toBe(true);
  });

  test("server-side search by sender, message type and time range", async () => {
    s.im.t.clock.advance(1);
    await store(alice, "users", bob.name, "loc", { addr: "Central", lat: 22.28, lng: 114.16, buildingName: "IFC" });
    s.im.t.clock.advance(1);
    await store(alice, "users", bob.name, "custom", { customEvent: "quote", customExts: [{ px: "7.8" }] });

    const locs = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 20,
      searchOptions: { msgTypes: ["loc", "custom"] },
    });
    expect(locs.messages.map((m) => m.type)).toEqual(["custom", "loc"]);
    expect(locs.messages[1]).toMatchObject({ addr: "Central", buildingName: "IFC" });
    const all = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 20,
    });
    const times = all.messages.map((m) => Number(m.time));
    const window = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 20,
      searchOptions: { startTime: times[5], endTime: times[3] },
    });
    expect(window.messages.map((m) => m.msg)).toEqual(["m3", "m2", "m1"]);
    await expect(alice.call("getHistoryMessages", { targetId: "", chatType: "singleChat" })).rejects.toBeDefined();
  });

  test("removal from one's own history, by ids or before a time", async () => {
    await alice.call("removeHistoryMessages", { targetId: bob.name, chatType: "singleChat", messageIds: [ids[0]] });
    const left = await alice.call<History>("getHistoryMessages", {
      targetId: bob.name,
      chatType: "singleChat",
      pageSize: 20,
    });
    expect(left.messages.map((m) => m.id)).not.toContain(ids[0]);
    const bobs = await bob.call<History>("getHistoryMessages", {
      targetId: alice.name,
      chatType: "singleChat",
      pageSize: 20,
    });
    expect(bobs.messages.map((m) => m.id)).toContain(ids[0]);

    const cut = left.messages.find((m) => m.msg === "m3")!;
    await bob.call("removeHistoryMessages", {
      targetId: alice.name,
      chatType: "singleChat",
      beforeTimeStamp: Number(cut.time),
    });
    const after = await bob.call<History>("getHistoryMessages", {
      targetId: alice.name,
      chatType: "singleChat",
      pageSize: 20,
    });
    expect(after.messages.map((m) => m.msg)).toEqual([undefined, undefined, "m4", "m3"]);
    await expect(bob.call("removeHistoryMessages", { targetId: alice.name, chatType: "singleChat" })).rejects.toThrow(
      /messageIds or beforeTimeStamp/,
    );
  });

  test("group history is for members, and searches by sender (the client sends no sender filter for one-to-one chats)", async () => {
    await store(bob, "chatgroups", groupId, "txt", { msg: "morning" });
    await store(alice, "chatgroups", groupId, "txt", { msg: "hello desk" });
    const h = await bob.call<History>("getHistoryMessages", { targetId: groupId, chatType: "groupChat", pageSize: 5 });
    expect(h.messages.map((m) => [m.msg, m.chatType])).toEqual([
      ["hello desk", "groupChat"],
      ["morning", "groupChat"],
    ]);
    const fromBob = await alice.call<History>("getHistoryMessages", {
      targetId: groupId,
      chatType: "groupChat",
      pageSize: 5,
      searchOptions: { from: bob.name },
    });
    expect(fromBob.messages.map((m) => m.msg)).toEqual(["morning"]);
    expect(
      (await carol.fail("getHistoryMessages", { targetId: groupId, chatType: "groupChat", pageSize: 5 })).type,
    ).toBe(s.code.GROUP_NOT_JOINED);
  });
});

describe("conversations", () => {
  type Conversations = {
    conversations: {
      conversationId: string;
      conversationType: string;
      isPinned: boolean;
      pinnedTime: number;
      unReadCount: number;
      lastMessage: { msg?: string };
    }[];
    cursor: string;
  };

  test("list with the last message and unread count, pin, pinned list, unpin, delete", async () => {
    const list = await bob.call<Reply<Conversations>>("getServerConversations", { pageSize: 20 });
    const ids = list.data.conversations.map((c) => c.conversationId);
    expect(ids).toEqual([groupId, alice.name]);
    const withAlice = list.data.conversations[1]!;
    expect(withAlice).toMatchObject({
      conversationType: "singleChat",
      isPinned: false,
      lastMessage: { type: "custom" },
    });
    expect(list.data.conversations[0]).toMatchObject({
      conversationType: "groupChat",
      lastMessage: { msg: "hello desk" },
    });

    // The older list by page number: the same conversations, the last message decoded by the client.
    const legacy = await bob.call<
      Reply<{ channel_infos: { channel_id: string; lastMessage: { msg?: string; type?: string } }[] }>
    >("getConversationlist", { pageNum: 1, pageSize: 20 });
    expect(legacy.data.channel_infos).toHaveLength(2);
    expect(legacy.data.channel_infos[0]?.lastMessage).toMatchObject({ msg: "hello desk" });

    const pinned = await bob.call<Reply<{ isPinned: boolean; pinnedTime: number }>>("pinConversation", {
      conversationId: alice.name,
      conversationType: "singleChat",
      isPinned: true,
    });
    expect(pinned.data.isPinned).toBe(true);
    expect(pinned.data.pinnedTime).toBeGreaterThan(0);
    const onlyPinned = await bob.call<Reply<Conversations>>("getServerPinnedConversations", { pageSize: 20 });
    expect(onlyPinned.data.conversations.map((c) => c.conversationId)).toEqual([alice.name]);
    const first = await bob.call<Reply<Conversations>>("getServerConversations", { pageSize: 1 });
    expect(first.data.conversations.map((c) => c.conversationId)).toEqual([groupId]);
    const next = await bob.call<Reply<Conversations>>("getServerConversations", {
      pageSize: 1,
      cursor: first.data.cursor,
    });
    expect(next.data.conversations).toEqual([expect.objectContaining({ conversationId: alice.name, isPinned: true })]);

    // Marks: set on both conversations, filtered, removed; a conversation bob does not have is ignored.
    await bob.call("addConversationMark", {
      conversations: [
        { conversationId: alice.name, conversationType: "singleChat" },
        { conversationId: groupId, conversationType: "groupChat" },
      ],
      mark: 3,
    });
    await bob.call("addConversationMark", {
      conversations: [{ conversationId: carol.name, conversationType: "singleChat" }],
      mark: 3,
    });
    await bob.call("removeConversationMark", {
      conversations: [{ conversationId: groupId, conversationType: "groupChat" }],
      mark: 3,
    });
    const marked = await bob.call<Reply<{ conversations: { conversationId: string; marks: number[] }[] }>>(
      "getServerConversationsByFilter",
      { pageSize: 10, filter: { mark: 3 } },
    );
    expect(marked.data.conversations.map((c) => [c.conversationId, c.marks])).toEqual([[alice.name, [3]]]);
    const none = await bob.call<Reply<{ conversations: unknown[] }>>("getServerConversationsByFilter", {
      pageSize: 10,
      filter: { mark: 4 },
    });
    expect(none.data.conversations).toEqual([]);
    await expect(
      bob.call("addConversationMark", {
        conversations: [{ conversationId: alice.name, conversationType: "singleChat" }],
        mark: 20,
      }),
    ).rejects.toBeDefined();

    const unpinned = await bob.call<Reply<{ isPinned: boolean }>>("pinConversation", {
      conversationId: alice.name,
      conversationType: "singleChat",
      isPinned: false,
    });
    expect(unpinned.data.isPinned).toBe(false);

    await bob.call("deleteConversation", { channel: alice.name, chatType: "singleChat", deleteRoam: false });
    const remaining = await bob.call<Reply<Conversations>>("getServerConversations", { pageSize: 20 });
    expect(remaining.data.conversations.map((c) => c.conversationId)).toEqual([groupId]);
    // Without deleteRoam the history stays.
    expect(
      (await bob.call<History>("getHistoryMessages", { targetId: alice.name, chatType: "singleChat", pageSize: 5 }))
        .messages.length,
    ).toBeGreaterThan(0);

    await alice.call("deleteConversation", { channel: bob.name, chatType: "singleChat", deleteRoam: true });
    expect(
      (await alice.call<History>("getHistoryMessages", { targetId: bob.name, chatType: "singleChat", pageSize: 5 }))
        .messages,
    ).toEqual([]);
    await expect(
      bob.call("deleteConversation", { channel: alice.name, chatType: "chatRoom", deleteRoam: false }),
    ).rejects.toBeDefined();
  });
});

describe("reactions, reports, read acks", () => {
  let msgId: string;

  test("add, list with isAddedBySelf, detail, delete; limits and illegal operations", async () => {
    msgId = await store(alice, "chatgroups", groupId, "txt", { msg: "ship it?" });
    await bob.call("addReaction", { messageId: msgId, reaction: "👍" });
    await alice.call("addReaction", { messageId: msgId, reaction: "👍" });
    expect((await bob.fail("addReaction", { messageId: msgId, reaction: "👍" })).type).toBe(
      s.code.REACTION_ALREADY_ADDED,
    );
    expect((await carol.fail("addReaction", { messageId: msgId, reaction: "👎" })).type).toBe(s.code.GROUP_NOT_JOINED);

    const list = await bob.call<
      Reply<
        {
          messageId: string;
          reactionList: { reaction: string; count: number; isAddedBySelf: boolean; userList: string[] }[];
        }[]
      >
    >("getReactionList", {
      chatType: "groupChat",
      messageId: msgId,
      groupId,
    });
    expect(list.data[0]?.reactionList[0]).toMatchObject({ reaction: "👍", count: 2, isAddedBySelf: true });

    const detail = await alice.call<
      Reply<{ reaction: string; count: number; isAddedBySelf: boolean; userList: string[] }>
    >("getReactionDetail", { messageId: msgId, reaction: "👍", pageSize: 1 });
    expect(detail.data).toMatchObject({ reaction: "👍", count: 2, isAddedBySelf: true });
    expect(detail.data.userList).toHaveLength(1);

    await bob.call("deleteReaction", { messageId: msgId, reaction: "👍" });
    expect((await bob.fail("deleteReaction", { messageId: msgId, reaction: "👍" })).type).toBe(
      s.code.REACTION_OPERATION_IS_ILLEGAL,
    );
    const after = await alice.call<Reply<{ reactionList: { count: number }[] }[]>>("getReactionList", {
      chatType: "groupChat",
      messageId: msgId,
      groupId,
    });
    expect(after.data[0]?.reactionList[0]?.count).toBe(1);
  });

  test("report a message; an unknown message is 'message not found'", async () => {
    // The client resolves with nothing once the server accepts the report.
    await expect(
      bob.call("reportMessage", { reportType: "spam", reportReason: "advert", messageId: msgId }),
    ).resolves.toBeUndefined();
    expect(
      (await bob.fail("reportMessage", { reportType: "spam", reportReason: "advert", messageId: "123456789" })).type,
    ).toBe(s.code.MESSAGE_NOT_FOUND);
  });

  test("group read acks list and the block-group-messages switch", async () => {
    const readers = await alice.call<Reply<unknown>>("getGroupMsgReadUser", { groupId, msgId });
    expect(readers.type).toBe(0);
    expect((await carol.fail("getGroupMsgReadUser", { groupId, msgId })).type).toBe(s.code.GROUP_NOT_JOINED);
    const blocked = await bob.call<Reply<unknown>>("blockGroupMessage", { groupId });
    expect(blocked.type).toBe(0);
    expect((await bob.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId })).data[0]?.shieldgroup).toBe(
      true,
    );
    await bob.call("unblockGroupMessage", { groupId });
    expect((await bob.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId })).data[0]?.shieldgroup).toBe(
      false,
    );
    // The legacy switch: PUT users/{me} with notification_ignore_<groupId>.
    await bob.call("blockGroup", { groupId });
    expect((await bob.call<Reply<Record<string, unknown>[]>>("getGroupInfo", { groupId })).data[0]?.shieldgroup).toBe(
      true,
    );
    expect((await carol.fail("blockGroup", { groupId })).type).toBe(s.code.GROUP_NOT_JOINED);
  });
});

describe("threads", () => {
  test("create on a group message, detail, join, members, rename, lists, last message, remove, leave, destroy", async () => {
    const parent = await store(alice, "chatgroups", groupId, "txt", { msg: "discuss pricing" });
    const created = await alice.call<Reply<{ chatThreadId: string }>>("createChatThread", {
      parentId: groupId,
      name: "pricing",
      messageId: parent,
    });
    const chatThreadId = created.data.chatThreadId;
    expect(chatThreadId).toMatch(/^\d+$/);
    expect((await bob.fail("createChatThread", { parentId: groupId, name: "again", messageId: parent })).type).toBe(
      s.code.THREAD_ALREADY_EXIST,
    );
    expect((await carol.fail("createChatThread", { parentId: groupId, name: "x", messageId: parent })).type).toBe(
      s.code.GROUP_NOT_JOINED,
    );

    const detail = await bob.call<Reply<Record<string, unknown>>>("getChatThreadDetail", { chatThreadId });
    expect(detail.data).toMatchObject({
      name: "pricing",
      owner: alice.name,
      messageId: parent,
      parentId: groupId,
      affiliationsCount: 1,
    });

    const joined = await bob.call<Reply<{ detail: Record<string, unknown> }>>("joinChatThread", { chatThreadId });
    expect(joined.data.detail).toMatchObject({ messageId: parent, parentId: groupId });
    const members = await alice.call<Reply<{ affiliations: string[] }>>("getChatThreadMembers", {
      chatThreadId,
      pageSize: 20,
    });
    expect(members.data.affiliations.sort()).toEqual([alice.name, bob.name].sort());

    expect((await bob.fail("changeChatThreadName", { chatThreadId, name: "mine" })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    await alice.call("changeChatThreadName", { chatThreadId, name: "pricing Q4" });

    const inGroup = await bob.call<{ entities: { id: string; name: string; parentId: string; messageId: string }[] }>(
      "getChatThreads",
      { parentId: groupId, pageSize: 20 },
    );
    expect(inGroup.entities).toEqual([
      expect.objectContaining({ id: chatThreadId, name: "pricing Q4", parentId: groupId, messageId: parent }),
    ]);
    const mine = await bob.call<{ entities: { id: string }[] }>("getJoinedChatThreads", { pageSize: 20 });
    expect(mine.entities.map((t) => t.id)).toEqual([chatThreadId]);
    const mineInGroup = await bob.call<{ entities: { id: string }[] }>("getJoinedChatThreads", {
      parentId: groupId,
      pageSize: 20,
    });
    expect(mineInGroup.entities.map((t) => t.id)).toEqual([chatThreadId]);

    const res = await s.im.call<{ data: Record<string, string> }>("POST", "messages/threads", {
      token: bob.conn.token,
      body: { to: [chatThreadId], type: "txt", body: { msg: "I'd say 7.8" } },
    });
    expect(res.status).toBe(200);
    const last = await alice.call<{ entities: { chatThreadId: string; lastMessage: { msg?: string } }[] }>(
      "getChatThreadLastMessage",
      { chatThreadIds: [chatThreadId] },
    );
    expect(last.entities[0]).toMatchObject({ chatThreadId, lastMessage: { msg: "I'd say 7.8" } });

    expect((await bob.fail("removeChatThreadMember", { chatThreadId, username: alice.name })).type).toBe(
      s.code.PERMISSION_DENIED,
    );
    await alice.call("removeChatThreadMember", { chatThreadId, username: bob.name });
    await bob.call("joinChatThread", { chatThreadId });
    await bob.call("leaveChatThread", { chatThreadId });
    expect((await bob.fail("destroyChatThread", { chatThreadId })).type).toBe(s.code.PERMISSION_DENIED);
    await alice.call("destroyChatThread", { chatThreadId });
    expect((await alice.fail("getChatThreadDetail", { chatThreadId })).type).toBe(s.code.THREAD_NOT_EXIST);
  });
});

describe("pinned messages", () => {
  test("members pin group messages and everyone sees them newest first; unpin; outsiders and strangers' messages are refused", async () => {
    const first = await store(bob, "chatgroups", groupId, "txt", { msg: "rule 1: be nice" });
    const second = await store(alice, "chatgroups", groupId, "txt", { msg: "rule 2: no spam" });
    await bob.call("pinMessage", { conversationId: groupId, conversationType: "groupChat", messageId: first });
    s.im.t.clock.advance(1);
    await alice.call("pinMessage", { conversationId: groupId, conversationType: "groupChat", messageId: second });
    type Pins = Reply<{
      list: { message: { id: string; msg?: string; from: string }; pinTime: number; operatorId: string }[];
      cursor: string;
    }>;
    const page1 = await bob.call<Pins>("getServerPinnedMessages", {
      conversationId: groupId,
      conversationType: "groupChat",
      pageSize: 1,
    });
    expect(page1.data.list.map((p) => [p.message.id, p.message.msg, p.operatorId])).toEqual([
      [second, "rule 2: no spam", alice.name],
    ]);
    const page2 = await bob.call<Pins>("getServerPinnedMessages", {
      conversationId: groupId,
      conversationType: "groupChat",
      pageSize: 1,
      cursor: page1.data.cursor,
    });
    expect(page2.data.list.map((p) => p.message.id)).toEqual([first]);
    expect(page2.data.cursor).toBe("");

    await alice.call("unpinMessage", { conversationId: groupId, conversationType: "groupChat", messageId: first });
    expect(
      (await alice.fail("unpinMessage", { conversationId: groupId, conversationType: "groupChat", messageId: first }))
        .type,
    ).toBe(s.code.MESSAGE_NOT_FOUND);
    expect(
      (await carol.fail("pinMessage", { conversationId: groupId, conversationType: "groupChat", messageId: second }))
        .type,
    ).toBe(s.code.GROUP_NOT_JOINED);
    expect(
      (await carol.fail("getServerPinnedMessages", { conversationId: groupId, conversationType: "groupChat" })).type,
    ).toBe(s.code.GROUP_NOT_JOINED);
    // A message of another conversation cannot be pinned here; a malformed id is a parameter error.
    const elsewhere = await store(alice, "users", bob.name, "txt", { msg: "private" });
    expect(
      (await alice.fail("pinMessage", { conversationId: groupId, conversationType: "groupChat", messageId: elsewhere }))
        .type,
    ).toBe(s.code.MESSAGE_NOT_FOUND);
    expect(
      (
        await alice.fail("pinMessage", {
          conversationId: groupId,
          conversationType: "groupChat",
          messageId: "not-an-id",
        })
      ).type,
    ).toBe(s.code.REQUEST_PARAMETER_ERROR);
    // One-to-one: either side pins, both see it.
    await bob.call("pinMessage", { conversationId: alice.name, conversationType: "singleChat", messageId: elsewhere });
    const mine = await alice.call<Pins>("getServerPinnedMessages", {
      conversationId: bob.name,
      conversationType: "singleChat",
    });
    expect(mine.data.list.map((p) => [p.message.id, p.operatorId])).toEqual([[elsewhere, bob.name]]);
  });
});

describe("delete all messages and conversations", () => {
  test("clears the caller's conversations and history; the other side keeps theirs", async () => {
    const dave = await s.client("dave");
    await store(dave, "users", carol.name, "txt", { msg: "hi carol" });
    await store(carol, "users", dave.name, "txt", { msg: "hi dave" });
    expect(
      (await dave.call<Reply<{ conversations: unknown[] }>>("getServerConversations", { pageSize: 20 })).data
        .conversations,
    ).toHaveLength(1);
    await dave.call("deleteAllMessagesAndConversations");
    expect(
      (await dave.call<Reply<{ conversations: unknown[] }>>("getServerConversations", { pageSize: 20 })).data
        .conversations,
    ).toEqual([]);
    expect(
      (await dave.call<History>("getHistoryMessages", { targetId: carol.name, chatType: "singleChat", pageSize: 5 }))
        .messages,
    ).toEqual([]);
    expect(
      (
        await carol.call<History>("getHistoryMessages", { targetId: dave.name, chatType: "singleChat", pageSize: 5 })
      ).messages.map((m) => m.msg),
    ).toEqual(["hi dave", "hi carol"]);
    // A new message brings the conversation back, with only what came after.
    s.im.t.clock.advance(1);
    await store(carol, "users", dave.name, "txt", { msg: "still there?" });
    expect(
      (
        await dave.call<History>("getHistoryMessages", { targetId: carol.name, chatType: "singleChat", pageSize: 5 })
      ).messages.map((m) => m.msg),
    ).toEqual(["still there?"]);
  });
});
