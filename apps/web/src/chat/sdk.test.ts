import { describe, expect, it } from "vitest";
import { ChatSdkError } from "@tessera/im-sdk";
import { BRAND_CHAT, loginBrandChat, type ChatConnection } from "./sdk";
import { CHAT_KEYS, createChatStorage } from "./storage";

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    map: m,
  };
}

/** A connection that accepts only one token. */
function fakeConnection(valid: string) {
  const opened: string[] = [];
  const conn = {
    open: ({ accessToken }: { user: string; accessToken: string }) => {
      opened.push(accessToken);
      return accessToken === valid
        ? Promise.resolve({ accessToken })
        : Promise.reject(new ChatSdkError(28, "INVALID_TOKEN"));
    },
  } as unknown as ChatConnection;
  return { conn, opened };
}

describe("brand chat login", () => {
  it("uses the stored im-token; on error type 28 removes it and logs in again with the user info's token", async () => {
    const s = memoryStorage();
    const storage = createChatStorage(s, "domestic");
    storage.setImToken("b7", "stale");
    const { conn, opened } = fakeConnection("fresh");
    let fetched = 0;
    await loginBrandChat(conn, storage, "b7", () => Promise.resolve((fetched++, "fresh")));
    expect(opened).toEqual(["stale", "fresh"]);
    expect(fetched).toBe(1);
    expect(storage.imToken("b7")).toBe("fresh");
    // Next time the stored token is used directly.
    const again = fakeConnection("fresh");
    await loginBrandChat(again.conn, storage, "b7", () => Promise.reject(new Error("not needed")));
    expect(again.opened).toEqual(["fresh"]);
  });

  it("other errors are not retried; a token of another user is not used", async () => {
    const s = memoryStorage();
    const storage = createChatStorage(s, "domestic");
    storage.setImToken("u1", "someone-else");
    const opened: string[] = [];
    const conn = {
      open: ({ accessToken }: { accessToken: string }) => (
        opened.push(accessToken),
        Promise.reject(new ChatSdkError(16, "down"))
      ),
    } as unknown as ChatConnection;
    await expect(loginBrandChat(conn, storage, "b7", () => Promise.resolve("mine"))).rejects.toMatchObject({
      type: 16,
    });
    expect(opened).toEqual(["mine"]);
  });

  it("the international area keeps its own keys", () => {
    const s = memoryStorage();
    createChatStorage(s, "international").setImToken("b7", "intl");
    createChatStorage(s, "domestic").setImToken("b7", "dom");
    expect(CHAT_KEYS.international.imToken).not.toBe(CHAT_KEYS.domestic.imToken);
    expect(CHAT_KEYS.international.orderChat).not.toBe(CHAT_KEYS.domestic.orderChat);
    expect(createChatStorage(s, "international").imToken("b7")).toBe("intl");
    expect(createChatStorage(s, "domestic").imToken("b7")).toBe("dom");
  });

  it("brand chat constants: 15 reconnects, 500 ms × attempt, 30 s heartbeat, 100 cached ids, 50 a page", () => {
    expect(BRAND_CHAT).toMatchObject({
      autoReconnectNumMax: 15,
      heartBeatWait: 30_000,
      maxCacheLength: 100,
      historyPageSize: 50,
    });
    expect([1, 2, 15].map(BRAND_CHAT.reconnectDelay)).toEqual([500, 1000, 7500]);
  });
});
