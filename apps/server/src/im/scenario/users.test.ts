import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startScenario, type Client, type Scenario } from "./setup";

/**
 * Contacts, the block list, user attributes (userinfo), push token and nickname, presence, silent mode
 * and the push translation language, driven by a client SDK over REST (the published one, then ours: see clients.ts). Contact requests are
 * delivered to the other side over the socket (next issue); here the server's state shows their effect.
 */
let s: Scenario;
let alice: Client;
let bob: Client;
let carol: Client;

beforeAll(async () => {
  s = await startScenario();
  [alice, bob, carol] = await Promise.all([s.client("alice"), s.client("bob"), s.client("carol")]);
});
afterAll(async () => {
  await s?.close();
});

type Reply<T = unknown> = { type: number; data: T; [k: string]: unknown };

describe("contacts", () => {
  test("request, accept, remark, list three ways, delete", async () => {
    await alice.call("addContact", bob.name, "hi, it's Alice");
    await bob.call("acceptContactInvite", alice.name);
    expect((await alice.call<Reply<string[]>>("getContacts")).data).toEqual([bob.name]);
    expect((await bob.call<Reply<string[]>>("getContacts")).data).toEqual([alice.name]);

    await alice.call("setContactRemark", { userId: bob.name, remark: "Bob from FX" });
    const all = await alice.call<Reply<{ userId: string; remark: string }[]>>("getAllContacts");
    expect(all.data).toEqual([{ userId: bob.name, remark: "Bob from FX" }]);
    const paged = await alice.call<Reply<{ contacts: { userId: string; remark: string }[]; cursor: string | null }>>(
      "getContactsWithCursor",
      { pageSize: 10 },
    );
    expect(paged.data.contacts).toEqual([{ userId: bob.name, remark: "Bob from FX" }]);

    expect((await alice.fail("setContactRemark", { userId: carol.name, remark: "x" })).type).toBe(
      s.code.USER_NOT_FRIEND,
    );
    expect((await alice.fail("setContactRemark", { userId: bob.name, remark: "x".repeat(200) })).type).toBe(
      s.code.MAX_LIMIT,
    );

    await alice.call("deleteContact", bob.name);
    expect((await bob.call<Reply<string[]>>("getContacts")).data).toEqual([]);
  });

  test("decline, and answers to requests that were never made", async () => {
    await carol.call("addContact", alice.name, "hello");
    await alice.call("declineContactInvite", carol.name);
    expect((await alice.call<Reply<string[]>>("getContacts")).data).toEqual([]);
    const never = await bob.fail("acceptContactInvite", carol.name);
    expect(never.type).toBe(s.code.PERMISSION_DENIED);
    const nobody = await alice.fail("addContact", "no-such-user-xyz", "hi");
    expect(nobody.type).toBe(s.code.USER_NOT_FOUND);
  });

  test("block list: add (one or many), list, remove", async () => {
    const added = await alice.call<Reply<{ userIds: string[] }>>("addUsersToBlocklist", {
      name: [bob.name, carol.name],
    });
    expect(added.type).toBe(0);
    expect((await alice.call<Reply<string[]>>("getBlocklist")).data.sort()).toEqual([bob.name, carol.name].sort());
    await alice.call("removeUserFromBlocklist", { name: bob.name });
    expect((await alice.call<Reply<string[]>>("getBlocklist")).data).toEqual([carol.name]);
    await alice.call("removeUserFromBlocklist", { name: [carol.name] });
    expect((await alice.call<Reply<string[]>>("getBlocklist")).data).toEqual([]);
  });
});

describe("users", () => {
  test("user attributes: set own (all keys or one), read one or many users, unknown keys refused by the client", async () => {
    const set = await alice.call<Reply<Record<string, string>>>("updateOwnUserInfo", {
      nickname: "Alice",
      avatarurl: "https://example.com/a.png",
      gender: "2",
      ext: '{"desk":"FX"}',
    });
    expect(set.data).toMatchObject({ nickname: "Alice", avatarurl: "https://example.com/a.png", gender: "2" });
    await alice.call("updateOwnUserInfo", "sign", "buy low");
    const one = await bob.call<Reply<Record<string, Record<string, string>>>>("fetchUserInfoById", alice.name);
    expect(one.data[alice.name]).toMatchObject({ nickname: "Alice", sign: "buy low", ext: '{"desk":"FX"}' });
    const some = await bob.call<Reply<Record<string, Record<string, string>>>>(
      "fetchUserInfoById",
      [alice.name, carol.name],
      ["nickname"],
    );
    expect(some.data[alice.name]).toEqual({ nickname: "Alice" });
    await expect(alice.call("updateOwnUserInfo", "salary", "1")).rejects.toThrow(/illegal key/);
  });

  test("nickname and push token", async () => {
    const nick = await bob.call<Reply>("updateCurrentUserNick", "Bobby");
    expect(nick.type).toBe(0);
    const bound = await bob.call<Reply<Record<string, unknown>>>("uploadPushToken", {
      deviceId: "dev-1",
      deviceToken: "tok-1",
      notifierName: "fcm",
    });
    expect(bound.type).toBe(0);
    await expect(
      bob.call("uploadPushToken", { deviceId: "", deviceToken: "tok", notifierName: "fcm" }),
    ).rejects.toBeDefined();
  });

  test("token expiry, as renewToken reads it (renewToken itself needs an open socket)", async () => {
    const token = await s.im.login(carol.name);
    const expiry = await carol.call<{ expire_timestamp: number }>("getTokenExpireTimestamp", token);
    expect(expiry.expire_timestamp).toBeGreaterThan(s.im.t.clock.now().getTime());
    expect((await carol.fail("getTokenExpireTimestamp", "not-a-token")).type).toBe(s.code.NO_PERMISSION);
  });
});

describe("presence", () => {
  test("publish, subscribe with expiry, status, sublist, unsubscribe", async () => {
    await alice.call("publishPresence", { description: "at my desk" });
    const sub = await bob.call<Reply<{ result: { uid: string; ext: string }[] }>>("subscribePresence", {
      usernames: [alice.name],
      expiry: 3600,
    });
    expect(sub.data.result).toEqual([expect.objectContaining({ uid: alice.name, ext: "at my desk" })]);
    const status = await carol.call<Reply<{ result: { uid: string; ext: string }[] }>>("getPresenceStatus", {
      usernames: [alice.name],
    });
    expect(status.data.result).toEqual([expect.objectContaining({ uid: alice.name, ext: "at my desk" })]);
    const list = await bob.call<Reply<{ result: { sublist: { uid: string; expiry: number }[]; totalnum: number } }>>(
      "getSubscribedPresenceList",
      { pageNum: 1, pageSize: 20 },
    );
    expect(list.data.result.sublist.map((r) => r.uid)).toEqual([alice.name]);
    expect(list.data.result.totalnum).toBe(1);
    await bob.call("unsubscribePresence", { usernames: [alice.name] });
    expect(
      (
        await bob.call<Reply<{ result: { totalnum: number } }>>("getSubscribedPresenceList", {
          pageNum: 1,
          pageSize: 20,
        })
      ).data.result.totalnum,
    ).toBe(0);

    const tooBig = await alice.fail("publishPresence", { description: "x".repeat(2000) });
    expect(tooBig.type).toBe(s.code.PRESENCE_PARAM_EXCEED);
  });
});

describe("silent mode and push language", () => {
  test("all conversations: remind type, duration, interval", async () => {
    await alice.call("setSilentModeForAll", { options: { paramType: 0, remindType: "AT" } });
    expect((await alice.call<Reply<Record<string, unknown>>>("getSilentModeForAll")).data).toMatchObject({
      type: "AT",
    });
    await alice.call("setSilentModeForAll", { options: { paramType: 1, duration: 3_600_000 } });
    const dnd = await alice.call<Reply<{ ignoreDuration: number }>>("getSilentModeForAll");
    expect(dnd.data.ignoreDuration).toBeGreaterThan(0);
    await alice.call("setSilentModeForAll", {
      options: { paramType: 2, startTime: { hours: 22, minutes: 30 }, endTime: { hours: 7, minutes: 15 } },
    });
    expect((await alice.call<Reply<{ ignoreInterval: string }>>("getSilentModeForAll")).data.ignoreInterval).toBe(
      "22:30-7:15",
    );
    await expect(
      alice.call("setSilentModeForAll", {
        options: { paramType: 2, startTime: { hours: 0, minutes: 0 }, endTime: { hours: 7, minutes: 0 } },
      }),
    ).rejects.toBeDefined();
  });

  test("per conversation, batch read, DEFAULT to clear; the push language", async () => {
    await alice.call("setSilentModeForConversation", {
      conversationId: bob.name,
      type: "singleChat",
      options: { paramType: 0, remindType: "NONE" },
    });
    const one = await alice.call<Reply<Record<string, unknown>>>("getSilentModeForConversation", {
      conversationId: bob.name,
      type: "singleChat",
    });
    expect(one.data).toMatchObject({ type: "NONE" });
    const batch = await alice.call<
      Reply<{ user: Record<string, Record<string, unknown>>; group: Record<string, unknown> }>
    >("getSilentModeForConversations", {
      conversationList: [
        { id: bob.name, type: "singleChat" },
        { id: carol.name, type: "singleChat" },
      ],
    });
    expect(batch.data.user[bob.name]).toMatchObject({ type: "NONE" });
    const typed = await alice.call<
      Reply<{ conversations: { conversationId: string; type: string; remindType: string }[] }>
    >("getSilentModeRemindTypeConversations", { pageSize: 10 });
    expect(typed.data.conversations).toContainEqual({
      conversationId: bob.name,
      type: "singleChat",
      remindType: "NONE",
    });
    await alice.call("clearRemindTypeForConversation", { conversationId: bob.name, type: "singleChat" });
    const cleared = await alice.call<Reply<Record<string, unknown>>>("getSilentModeForConversation", {
      conversationId: bob.name,
      type: "singleChat",
    });
    expect(cleared.data.type).toBeUndefined();

    await alice.call("setPushPerformLanguage", { language: "en" });
    expect((await alice.call<Reply<{ language: string }>>("getPushPerformLanguage")).data).toMatchObject({
      language: "en",
    });
    await expect(alice.call("setPushPerformLanguage", { language: "" })).rejects.toBeDefined();
  });
});

describe("translation", () => {
  test("without a configured translator the client reports 'service not enabled'", async () => {
    expect((await alice.fail("getSupportedLanguages")).type).toBe(s.code.SERVICE_NOT_ENABLED);
    expect((await alice.fail("translateMessage", { text: "hello", languages: ["zh-Hans"] })).type).toBe(
      s.code.SERVICE_NOT_ENABLED,
    );
  });
});
