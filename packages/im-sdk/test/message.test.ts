import { afterEach, describe, expect, test, vi } from "vitest";
import { connection, message, statusCode as C } from "../src/index";
import { bodyOf, messageFromBody, messageFromJson, type MessageFields } from "../src/message";
import { decode, MessageBody } from "../src/proto";

/** Every message type and its fields survive the body encoding (spec 03 §3), and the REST JSON form. */
const roundTrip = (fields: MessageFields) =>
  messageFromBody(decode(MessageBody, bodyOf(fields, "alice")), "9", 1, "http://api");

describe("message bodies", () => {
  test.each<[string, MessageFields, Record<string, unknown>]>([
    [
      "txt",
      { type: "txt", to: "bob", msg: "hi", ext: { n: 1, o: { a: true } } },
      { type: "txt", msg: "hi", ext: { n: 1, o: { a: true } }, from: "alice", to: "bob", chatType: "singleChat" },
    ],
    [
      "img",
      { type: "img", to: "bob", url: "http://x/o/a/chatfiles/u1", secret: "s", width: 40, height: 30, file_length: 99 },
      {
        type: "img",
        width: 40,
        height: 30,
        file_length: 99,
        secret: "s",
        url: "http://api/o/a/chatfiles/u1?em-redirect=true&share-secret=s",
      },
    ],
    [
      "video",
      { type: "video", to: "bob", url: "http://x/f/v", secret: "s", filename: "v.mp4", length: 12, file_length: 1000 },
      { type: "video", filename: "v.mp4", length: 12, file_length: 1000 },
    ],
    [
      "audio",
      {
        type: "audio",
        to: "bob",
        body: { url: "http://x/f/a", secret: "s", filename: "a.amr", length: 3, file_length: 10 },
      },
      { type: "audio", filename: "a.amr", length: 3, file_length: 10 },
    ],
    [
      "file",
      { type: "file", to: "bob", url: "http://x/f/d", filename: "d.pdf", file_length: 7 },
      { type: "file", filename: "d.pdf", file_length: 7 },
    ],
    [
      "loc",
      { type: "loc", to: "bob", addr: "Pier 7", buildingName: "Hall B", lat: 22.5, lng: 114.1 },
      { type: "loc", addr: "Pier 7", buildingName: "Hall B", lat: 22.5, lng: 114.1 },
    ],
    ["cmd", { type: "cmd", to: "bob", action: "refresh" }, { type: "cmd", action: "refresh" }],
    [
      "custom",
      { type: "custom", to: "bob", customEvent: "order", customExts: { sku: "A1", qty: 2 }, params: { p: "x" } },
      { type: "custom", customEvent: "order", customExts: { sku: "A1", qty: 2 }, params: { p: "x" } },
    ],
    [
      "combine",
      {
        type: "combine",
        to: "bob",
        title: "T",
        summary: "S",
        compatibleText: "C",
        url: "http://x/f/c",
        combineLevel: 2,
      },
      { type: "combine", title: "T", summary: "S", compatibleText: "C", combineLevel: 2 },
    ],
    [
      "group chat",
      { type: "txt", chatType: "groupChat", to: "42", msg: "all", msgConfig: { allowGroupAck: true } },
      { chatType: "groupChat", msgConfig: { allowGroupAck: true } },
    ],
  ])("%s", (_name, fields, expected) => {
    expect(roundTrip(fields)).toMatchObject(expected);
  });

  test("acknowledgements: read, delivery and channel bodies carry the acked id and an empty content", () => {
    const read = decode(MessageBody, bodyOf(message.create({ type: "read", to: "bob", id: "123" }), "alice"));
    expect(read).toMatchObject({ type: 4, ackMessageId: "123", contents: [{}] });
    const groupRead = decode(
      MessageBody,
      bodyOf(message.create({ type: "read", chatType: "groupChat", to: "42", id: "7", ackContent: "seen" }), "alice"),
    );
    expect(groupRead).toMatchObject({ type: 4, msgConfig: { allowGroupAck: true }, ackContent: "seen" });
    expect(
      decode(MessageBody, bodyOf(message.create({ type: "delivery", to: "bob", ackId: "5" }), "alice")),
    ).toMatchObject({ type: 5, ackMessageId: "5" });
    expect(decode(MessageBody, bodyOf(message.create({ type: "channel", to: "bob" }), "alice"))).toMatchObject({
      type: 7,
    });
  });

  test("thread messages, edit info and reactions from the body's meta JSON", () => {
    const body = decode(
      MessageBody,
      bodyOf({ type: "txt", to: "42", chatType: "groupChat", msg: "x" }, "alice", {
        meta: JSON.stringify({
          edit_msg: { count: 2, operator: "alice", edit_time: 5 },
          reaction: [{ reaction: "👍", count: 1, state: true }],
          thread: { msg_parent_id: "1", muc_parent_id: "42", thread_name: "t" },
        }),
      }),
    );
    expect(messageFromBody(body, "3", 1, "")).toMatchObject({
      modifiedInfo: { operationCount: 2, operatorId: "alice", operationTime: 5 },
      reactions: [{ reaction: "👍", isAddedBySelf: true }],
      chatThread: { messageId: "1", parentId: "42", chatThreadName: "t" },
    });
    expect(
      decode(
        MessageBody,
        bodyOf({ type: "txt", to: "1", chatType: "groupChat", msg: "x", isChatThread: true }, "alice"),
      ).meta,
    ).toBe('{"thread":{}}');
  });

  test("REST JSON messages: custom exts as one-key objects merged, group by type", () => {
    const m = messageFromJson({
      id: "8",
      timestamp: 3,
      to: "42",
      payload: JSON.stringify({
        type: "groupchat",
        from: "bob",
        to: "42",
        ext: {},
        bodies: [{ type: "custom", customEvent: "e", customExts: [{ a: "1" }, { b: "2" }] }],
      }),
    });
    expect(m).toMatchObject({
      id: "8",
      chatType: "groupChat",
      from: "bob",
      type: "custom",
      customEvent: "e",
      customExts: { a: "1", b: "2" },
    });
  });
});

describe("password login", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("a refused password: open rejects with the server's description (open error), onError too", async () => {
    vi.stubGlobal("fetch", () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: "invalid_grant", error_description: "invalid password" }), {
          status: 400,
        }),
      ),
    );
    const conn = new connection({ appKey: "org#app", apiUrl: "http://h", useLocalCache: false });
    const errors: number[] = [];
    conn.addEventHandler("t", { onError: (e) => errors.push(e.type) });
    await expect(conn.open({ user: "alice", pwd: "wrong" })).rejects.toMatchObject({
      type: C.WEBIM_CONNCTION_OPEN_ERROR,
      message: "invalid password",
    });
    expect(errors).toEqual([C.WEBIM_CONNCTION_OPEN_ERROR]);
  });
});
