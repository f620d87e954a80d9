import { describe, expect, it } from "vitest";
import type { ChatMessage, Conversation } from "./sdk";
import { ChatStore, RecentIds, sortConversations, type ConversationItem } from "./store";

const me = "b7";
let seq = 1000;
const msg = (from: string, to: string, text: string, time: number, id = String(++seq)): ChatMessage => ({
  id,
  type: "txt",
  chatType: "singleChat",
  from,
  to,
  msg: text,
  time,
});

describe("chat store", () => {
  it("live messages: appended once, unread counted unless the conversation is open, last message kept", () => {
    const s = new ChatStore(me);
    const a = msg("u1", me, "hello", 1);
    expect(s.receive(a)).not.toBeNull();
    expect(s.receive(a)).toBeNull();
    s.receive(msg("u1", me, "again", 2));
    let c = s.getSnapshot().conversations[0]!;
    expect(c).toMatchObject({ peer: "u1", unread: 2, last: { text: "again" } });
    s.activate("u1");
    s.receive(msg("u1", me, "while open", 3));
    c = s.getSnapshot().conversations[0]!;
    expect(c.unread).toBe(0);
    expect(s.thread("u1").items.map((i) => i.text)).toEqual(["hello", "again", "while open"]);
  });

  it("history pages go before what is shown, in time order, without repeats; the end is noted", () => {
    const s = new ChatStore(me);
    const live = msg("u1", me, "newest", 100);
    s.receive(live);
    expect(s.beginHistory("u1")).toBe(true);
    expect(s.beginHistory("u1")).toBe(false);
    const page = Array.from({ length: 50 }, (_, i) =>
      msg(i % 2 ? me : "u1", i % 2 ? "u1" : me, `m${i}`, 50 + i),
    ).reverse();
    s.addHistory("u1", { messages: [...page, live], cursor: "c1", isLast: false });
    const t = s.thread("u1");
    expect(t.items).toHaveLength(51);
    expect(t.items[0]!.text).toBe("m0");
    expect(t.items[50]!.text).toBe("newest");
    expect(t).toMatchObject({ cursor: "c1", isLast: false, loading: false });
    s.beginHistory("u1");
    s.addHistory("u1", { messages: [msg("u1", me, "oldest", 1)], cursor: "", isLast: true });
    expect(s.thread("u1").items[0]!.text).toBe("oldest");
    expect(s.beginHistory("u1")).toBe(false);
  });

  it("send states: sending, then sent with the server id, or failed and retried", () => {
    const s = new ChatStore(me);
    const out: ChatMessage = {
      id: "local-1",
      type: "img",
      chatType: "singleChat",
      from: "",
      to: "u1",
      time: 5,
      file: { data: new Blob(["x"]), filename: "a.png" },
    };
    s.addOutgoing(out);
    expect(s.thread("u1").items[0]).toMatchObject({ state: "sending", progress: 0, from: me, filename: "a.png" });
    s.progress("u1", "local-1", 42.4);
    expect(s.thread("u1").items[0]!.progress).toBe(42);
    s.failed("u1", "local-1");
    expect(s.thread("u1").items[0]!.state).toBe("failed");
    s.retrying("u1", "local-1");
    s.addOutgoing(out);
    s.sent("u1", "local-1", "9001", { ...out, url: "http://x/chatfiles/1", secret: "s" });
    expect(s.thread("u1").items).toEqual([
      expect.objectContaining({ id: "9001", localId: "local-1", state: "sent", url: "http://x/chatfiles/1" }),
    ]);
    // The server's copy of an own message (another device) is not shown twice.
    expect(s.receive({ ...msg(me, "u1", "", 5, "9001"), type: "img" })).toBeNull();
  });

  it("recall: the message disappears; unread drops by one for an unread incoming message only", () => {
    const s = new ChatStore(me);
    const a = msg("u1", me, "first", 1);
    const b = msg("u1", me, "second", 2);
    s.receive(a);
    s.receive(b);
    expect(s.getSnapshot().conversations[0]!.unread).toBe(2);
    s.recall(b.id);
    expect(s.thread("u1").items.map((i) => i.text)).toEqual(["first"]);
    expect(s.getSnapshot().conversations[0]).toMatchObject({ unread: 1, last: { text: "first" } });
    // Read, then recalled: the count stays.
    s.activate("u1");
    s.recall(a.id);
    expect(s.getSnapshot().conversations[0]).toMatchObject({ unread: 0, last: null });
    // An own message recalled never changes the unread count.
    s.addOutgoing({ ...msg("", "u1", "mine", 3), id: "l2" });
    s.sent("u1", "l2", "777");
    s.recall("777");
    expect(s.thread("u1").items).toHaveLength(0);
  });

  it("read receipts mark the own messages up to the acknowledged one", () => {
    const s = new ChatStore(me);
    for (const [i, id] of ["l1", "l2", "l3"].entries()) {
      s.addOutgoing({ ...msg("", "u1", `m${i}`, i + 1), id });
      s.sent("u1", id, `s${i}`);
    }
    s.markRead("u1", "s1");
    expect(s.thread("u1").items.map((i) => i.read)).toEqual([true, true, false]);
  });

  it("conversation list: pinned first, then the most recent; server unread counts and last messages", () => {
    const s = new ChatStore(me);
    const conv = (id: string, unread: number, pinned: boolean, time: number): Conversation => ({
      conversationId: id,
      conversationType: "singleChat",
      isPinned: pinned,
      pinnedTime: pinned ? time : 0,
      unReadCount: unread,
      lastMessage: msg(id, me, `last of ${id}`, time),
    });
    s.setConversations([conv("u1", 3, false, 30), conv("u2", 0, true, 10), conv("u3", 1, false, 50)]);
    expect(s.getSnapshot().conversations.map((c) => [c.peer, c.unread])).toEqual([
      ["u2", 0],
      ["u3", 1],
      ["u1", 3],
    ]);
    const list: ConversationItem[] = [
      { peer: "a", unread: 0, pinned: true, pinnedTime: 1, last: null, time: 99 },
      { peer: "b", unread: 0, pinned: true, pinnedTime: 2, last: null, time: 1 },
    ];
    expect(sortConversations(list).map((c) => c.peer)).toEqual(["b", "a"]);
  });

  it("messages synced after the conversation list was read are not counted twice", () => {
    const s = new ChatStore(me);
    const old = [msg("u1", me, "a", 1), msg("u1", me, "b", 2)];
    s.setConversations([
      {
        conversationId: "u1",
        conversationType: "singleChat",
        isPinned: false,
        pinnedTime: 0,
        unReadCount: 2,
        lastMessage: old[1]!,
      },
    ]);
    for (const m of old) s.receive(m);
    expect(s.getSnapshot().conversations[0]!.unread).toBe(2);
    s.receive(msg("u1", me, "new", 3));
    expect(s.getSnapshot().conversations[0]).toMatchObject({ unread: 3, last: { text: "new" } });
  });

  it("keeps the ids of the last 100 messages to drop repeats", () => {
    const r = new RecentIds(100);
    for (let i = 0; i < 150; i++) r.seen(String(i));
    expect(r.size).toBe(100);
    expect(r.seen("149")).toBe(true);
    expect(r.seen("10")).toBe(false);
  });
});
