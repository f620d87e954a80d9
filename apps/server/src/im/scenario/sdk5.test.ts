import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { TEST_IMAGES } from "../../../test/im-harness";
import { imageInfo } from "../../platform/images";
import { startScenario, until, type Scenario } from "./setup";
import { sdk5Login, type Sdk5User } from "./sdk5";

/**
 * The chat SDK 5 that the published UIKit (easemob-chat-uikit 3.0.3) bundles, run in Node against the
 * server (sdk5.ts): login with the provision's authToken, the initial sync over the second socket on a
 * fresh device (conversations, joined groups, contacts), one-to-one and group messages, read receipts
 * naming several messages (ackMessageIds), recall, reactions and history. Users, the contact and the
 * group are made over REST, as a back office does; the earlier conversation is stored through the
 * server-side send API.
 */
let s: Scenario;
let alice: Sdk5User;
let bob: Sdk5User;
let groupId: string;
const users: { name: string; token: string }[] = [];

type Message = Record<string, unknown> & { msgServerId?: string; body?: Record<string, unknown> };

beforeAll(async () => {
  // The SDK logs every step to the console, and the calling SDK in the bundle its missing devices.
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "info").mockImplementation(() => {});
  vi.spyOn(console, "debug").mockImplementation(() => {});
  s = await startScenario();
  const [a, b] = await Promise.all([s.im.user("alice"), s.im.user("bob")]);
  users.push(a, b);
  const apply = await s.im.call("POST", `users/${a.name}/contacts/apply`, {
    token: a.token,
    body: { usernames: [b.name], reason: "hi" },
  });
  expect(apply.status).toBe(200);
  expect((await s.im.call("POST", `users/${b.name}/contacts/accept/users/${a.name}`, { token: b.token })).status).toBe(
    200,
  );
  const g = await s.im.call<{ data: { groupid: string } }>("POST", "chatgroups", {
    token: a.token,
    body: { groupname: "Desk", desc: "the desk", members: [b.name], maxusers: 20 },
  });
  expect(g.status).toBe(200);
  groupId = g.body.data.groupid;
  // A conversation from before the devices log in.
  const sent = await s.im.call("POST", "messages/users", {
    token: a.token,
    body: { to: [b.name], type: "txt", body: { msg: "before you came" } },
  });
  expect(sent.status).toBe(200);
  [alice, bob] = await Promise.all([
    sdk5Login(s.baseUrl, s.appKey, a.name, a.token),
    sdk5Login(s.baseUrl, s.appKey, b.name, b.token),
  ]);
});

afterAll(async () => {
  await Promise.allSettled([alice?.logout(), bob?.logout()]);
  await s?.close();
  vi.restoreAllMocks();
});

const finished = (u: Sdk5User, dataType: string) =>
  u.events.onSyncDataFinished?.find((e) => e.dataType === dataType) as { status?: string } | undefined;

describe("SDK 5: login and the initial sync of a fresh device", () => {
  test("conversations, joined groups and contacts arrive over the sync socket", async () => {
    for (const type of ["conversation", "group", "contact"]) {
      expect((await until(() => finished(bob, type), `bob's ${type} sync`)).status).toBe("success");
    }
    const conversations = (await bob.call<Record<string, unknown>[]>("chatManager", "getConversationList")).map(
      (c) => ({ id: c.conversationId, type: c.conversationType, unread: c.unreadCount }),
    );
    expect(conversations).toContainEqual({ id: alice.name, type: "singleChat", unread: 1 });
    const last = (
      await bob.call<Record<string, { body?: { content?: string } }>[]>("chatManager", "getConversationList")
    )
      .map((c) => c.lastMessage?.body?.content)
      .filter(Boolean);
    expect(last).toContain("before you came");

    const groups = await bob.call<Record<string, unknown>[]>("groupManager", "getJoinedGroupList");
    expect(groups.map((g) => ({ id: g.groupId, name: g.name, owner: g.ownerId, role: g.role }))).toEqual([
      { id: groupId, name: "Desk", owner: alice.name, role: "member" },
    ]);
    const contacts = await bob.call<{ userId: string }[]>("contactManager", "getContacts");
    expect(contacts.map((c) => c.userId)).toEqual([alice.name]);
  });

  test("the roster version is stable until the contact list changes", async () => {
    const path = `user/${bob.name}/roster/metadata/version`;
    const token = users[1]!.token;
    const before = await s.im.call<{ data: { version: string } }>("GET", path, { token });
    expect(before.status).toBe(200);
    expect((await s.im.call<{ data: { version: string } }>("GET", path, { token })).body.data.version).toBe(
      before.body.data.version,
    );
    await s.im.call("PUT", `users/${bob.name}/contacts/users/${alice.name}`, { token, body: { remark: "A." } });
    expect((await s.im.call<{ data: { version: string } }>("GET", path, { token })).body.data.version).not.toBe(
      before.body.data.version,
    );
    // Another user's version is not for bob's token.
    expect((await s.im.call("GET", `user/${alice.name}/roster/metadata/version`, { token })).status).toBe(403);
  });
});

describe("SDK 5: messages", () => {
  const sentIds: string[] = [];

  test("one-to-one text both ways", async () => {
    for (const text of ["hello bob", "are you there"]) {
      const m = await alice.call<Message>("chatManager", "createTextMessage", {
        conversationId: bob.name,
        conversationType: "singleChat",
        content: text,
      });
      const sent = await alice.call<Message>("chatManager", "sendMessage", m);
      expect(sent.msgServerId).toMatch(/^\d+$/);
      sentIds.push(String(sent.msgServerId));
    }
    const live = () => bob.events.onMessage!.filter((m) => sentIds.includes(String((m as Message).msgServerId)));
    const got = await until(() => (live().length >= 2 ? live() : undefined), "bob's two messages");
    expect(got.map((m) => (m as Message).body?.content)).toEqual(["hello bob", "are you there"]);
    expect(got.map((m) => (m as Message).msgServerId)).toEqual(sentIds);
  });

  test("read receipts name several messages at once (ackMessageIds)", async () => {
    await bob.call("chatManager", "sendMessageReadReceipts", {
      conversationId: alice.name,
      conversationType: "singleChat",
      messageIds: sentIds,
    });
    const receipts = await until(
      () => (alice.events.onMessageReadReceipts!.length > 0 ? alice.events.onMessageReadReceipts : undefined),
      "alice's read receipt",
    );
    expect(JSON.stringify(receipts)).toContain(sentIds[1]!);
    // The server counts the conversation read up to the newest of them.
    const conv = await s.im.call<{ data: { channel_infos: { session_to: string; unread_num: number }[] } }>(
      "GET",
      `sdk/user/${bob.name}/user_channels/list`,
      { token: users[1]!.token },
    );
    expect(conv.body.data.channel_infos.find((c) => c.session_to === alice.name)?.unread_num).toBe(0);
  });

  test("a group message reaches the other member; name cards answer for the group", async () => {
    const m = await bob.call<Message>("chatManager", "createTextMessage", {
      conversationId: groupId,
      conversationType: "groupChat",
      content: "hi desk",
    });
    await bob.call("chatManager", "sendMessage", m);
    const got = await until(
      () => alice.events.onMessage!.find((e) => (e as Message).body?.content === "hi desk"),
      "alice's group message",
    );
    expect(got).toMatchObject({ conversationId: groupId, conversationType: "groupChat", from: bob.name });

    await s.im.call("PUT", `sdk/metadata/chatgroup/${groupId}/user/${bob.name}`, {
      token: users[1]!.token,
      body: { metaData: { nickName: "Bobby" } },
    });
    const cards = await s.im.call<{ data: { namecards: Record<string, string> }; timestamp: number }>(
      "POST",
      `sdk/chatgroups/${groupId}/nameCard/batch/get`,
      { token: users[0]!.token, body: { members: [bob.name, alice.name] } },
    );
    expect(cards.status).toBe(200);
    expect(cards.body.data.namecards).toEqual({ [bob.name]: "Bobby" });
    expect(cards.body.timestamp).toBeGreaterThan(0);
  });

  test("reactions and recall", async () => {
    const target = sentIds[0]!;
    await bob.call("chatManager", "addReaction", {
      conversationId: alice.name,
      conversationType: "singleChat",
      messageId: target,
      reaction: "👍",
    });
    const list = await alice.call<unknown>("chatManager", "getReactionList", {
      conversationId: bob.name,
      conversationType: "singleChat",
      messageId: target,
    });
    expect(JSON.stringify(list)).toContain("👍");

    await alice.call("chatManager", "recallMessage", {
      conversationId: bob.name,
      conversationType: "singleChat",
      messageId: sentIds[1]!,
    });
    const recalled = await until(
      () => (bob.events.onMessageRecalled!.length > 0 ? bob.events.onMessageRecalled : undefined),
      "bob's recall",
    );
    expect(JSON.stringify(recalled)).toContain(sentIds[1]!);
  });

  test("an image: uploaded restricted, its thumbnail shown from the URL the message carries", async () => {
    const file = new File([TEST_IMAGES.png], "p.png", { type: "image/png" });
    const m = await alice.call<Message>("chatManager", "createImageMessage", {
      conversationId: bob.name,
      conversationType: "singleChat",
      data: file,
      filename: "p.png",
      filetype: "image/png",
      width: 16,
      height: 16,
      fileLength: file.size,
    });
    const sent = await alice.call<Message>("chatManager", "sendMessage", m);
    const got = (await until(
      () => bob.events.onMessage!.find((e) => (e as Message).msgServerId === sent.msgServerId),
      "bob's image",
    )) as Message;
    expect(got.type).toBe("image");
    const thumbnailUrl = String(got.body?.thumbnailUrl);
    expect(thumbnailUrl).toMatch(/\/chatfiles\/[0-9a-f-]{36}\?size=small$/);
    // The UIKit puts this URL in an <img>: no secret, no token.
    const thumb = await fetch(thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(await imageInfo(Buffer.from(await thumb.arrayBuffer()))).toEqual({ width: 16, height: 16, format: "webp" });
    // The original URL (the sender's bubble, the preview) shows the large copy; the uploaded bytes
    // need the secret the message carries.
    const original = String(got.body?.originalImageUrl);
    const bare = await fetch(original);
    expect(bare.status).toBe(200);
    expect(bare.headers.get("content-type")).toBe("image/webp");
    const withSecret = await fetch(original, { headers: { "share-secret": String(got.body?.secret) } });
    expect(Buffer.from(await withSecret.arrayBuffer()).equals(TEST_IMAGES.png)).toBe(true);
  });

  test("history: the roaming page holds what was said, the recalled message gone", async () => {
    const page = await bob.call<{ items: Message[] }>("chatManager", "getHistoryMessages", {
      conversationId: alice.name,
      conversationType: "singleChat",
      pageSize: 20,
    });
    const texts = page.items.map((m) => m.body?.content);
    expect(texts).toContain("before you came");
    expect(texts).toContain("hello bob");
    expect(texts).not.toContain("are you there");
  });

  test("a second, fresh device of bob's syncs both conversations, under the group's name and alice's remark", async () => {
    const device = await sdk5Login(s.baseUrl, s.appKey, bob.name, users[1]!.token);
    try {
      await until(() => finished(device, "conversation"), "the new device's conversation sync");
      const list = await device.call<Record<string, unknown>[]>("chatManager", "getConversationList");
      const byId = new Map(list.map((c) => [c.conversationId, c]));
      expect(byId.get(groupId)).toMatchObject({ conversationType: "groupChat", conversationName: "Desk" });
      expect((byId.get(groupId)?.lastMessage as Message | undefined)?.body?.content).toBe("hi desk");
      // Under bob's remark for alice (set in the roster test), else her nickname.
      expect(byId.get(alice.name)).toMatchObject({ conversationType: "singleChat", conversationName: "A." });
    } finally {
      await device.logout();
    }
  });
});
