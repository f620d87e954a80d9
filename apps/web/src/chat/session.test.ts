import { describe, expect, it } from "vitest";
import type { ChatConnection, ChatMessage, EventHandlers } from "./sdk";
import { ChatSession } from "./session";
import { createChatStorage } from "./storage";

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

const text = (id: string, from: string, to: string, time: number): ChatMessage => ({
  id,
  type: "txt",
  chatType: "singleChat",
  from,
  to,
  msg: `m${id}`,
  time,
});

/**
 * A connection whose login finishes when the test says so; it records what is sent and the history
 * pages asked for, and answers each page at once.
 */
function scriptedConnection(history: ChatMessage[]) {
  let finishLogin: () => void = () => undefined;
  const handlers = new Map<string, EventHandlers>();
  const sent: ChatMessage[] = [];
  const pages: (string | null | undefined)[] = [];
  let opened = false;
  const conn: ChatConnection = {
    open: () =>
      new Promise((resolve) => {
        finishLogin = () => {
          opened = true;
          resolve({});
          for (const h of handlers.values()) h.onConnected?.();
        };
      }),
    close: () => undefined,
    isOpened: () => opened,
    addEventHandler: (id, h) => void handlers.set(id, h),
    removeEventHandler: (id) => void handlers.delete(id),
    send: (m) => {
      sent.push(m);
      return Promise.resolve({ localMsgId: m.id, serverMsgId: String(900 + sent.length) });
    },
    recallMessage: () => Promise.resolve({}),
    getHistoryMessages: (opts) => {
      if (!opened) return Promise.reject(new Error("not logged in"));
      pages.push(opts.cursor);
      return Promise.resolve({ cursor: "", isLast: true, messages: history });
    },
    getServerConversations: () => Promise.resolve({ data: { conversations: [], cursor: "" } }),
    fetchUserInfoById: (users) => {
      if (!opened) return Promise.reject(new Error("not logged in"));
      const known: Record<string, Record<string, string>> = { u3: { nickname: "Blue Buyer Ltd" }, u4: {} };
      return Promise.resolve({
        data: Object.fromEntries(users.filter((u) => u in known).map((u) => [u, known[u] ?? {}])),
      });
    },
  };
  return { conn, sent, pages, handlers, login: () => finishLogin() };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("chat session", () => {
  it("a conversation opened before the login finishes loads its history after the login and sends the read receipt for the peer's latest message", async () => {
    const io = scriptedConnection([text("11", "u3", "b7", 1), text("12", "b7", "u3", 2), text("13", "u3", "b7", 3)]);
    const session = new ChatSession(io.conn, createChatStorage(memoryStorage(), "domestic"), "b7", () =>
      Promise.resolve("tok"),
    );
    const started = session.start();
    const opening = session.open("u3");
    // A scroll while the login runs asks for the same first page: it waits for the login too.
    const scrolled = session.loadOlder("u3");
    await settle();
    expect(io.pages).toEqual([]);
    io.login();
    await Promise.all([started, opening, scrolled]);
    expect(io.pages).toEqual([null]);
    expect(session.store.thread("u3").items.map((i) => i.id)).toEqual(["11", "12", "13"]);
    const acks = io.sent.filter((m) => m.type === "read" || m.type === "channel");
    expect(acks.map((m) => [m.type, m.to, m.ackId])).toEqual([
      ["read", "u3", "13"],
      ["channel", "u3", undefined],
    ]);
    session.close();
  });

  it("a message arriving in the open conversation is acknowledged at once; one in another conversation is not", async () => {
    const io = scriptedConnection([]);
    const session = new ChatSession(io.conn, createChatStorage(memoryStorage(), "domestic"), "b7", () =>
      Promise.resolve("tok"),
    );
    const started = session.start();
    await settle();
    io.login();
    await started;
    await session.open("u3");
    const h = io.handlers.get("brandChat")!;
    h.onTextMessage?.(text("21", "u3", "b7", 10));
    h.onTextMessage?.(text("22", "u4", "b7", 11));
    await settle();
    expect(io.sent.filter((m) => m.type === "read").map((m) => [m.to, m.ackId])).toEqual([["u3", "21"]]);
    expect(session.store.getSnapshot().conversations.find((c) => c.peer === "u4")?.unread).toBe(1);
    session.close();
  });

  it("looks counterparts' nicknames up after the login; users without one are left out", async () => {
    const io = scriptedConnection([]);
    const session = new ChatSession(io.conn, createChatStorage(memoryStorage(), "domestic"), "b7", () =>
      Promise.resolve("tok"),
    );
    const started = session.start();
    const names = session.nicknames(["u3", "u4", "u9"]);
    await settle();
    io.login();
    await started;
    expect(await names).toEqual({ u3: "Blue Buyer Ltd" });
    expect(await session.nicknames([])).toEqual({});
  });
});
