import { connection, message, type ChatMessage, type Conversation, type EventHandlers } from "@tessera/im-sdk";
import type { ChatStorage } from "./storage";

/**
 * The brand chat's use of @tessera/im-sdk (spec 03 §4 brand chat, §9 brand chat constants), behind a small
 * interface so the chat state can be tested without a server. Only the SDK's public API is used.
 */
export const BRAND_CHAT = {
  heartBeatWait: 30_000,
  autoReconnectNumMax: 15,
  reconnectDelay: (attempt: number) => 500 * attempt,
  maxCacheLength: 100,
  historyPageSize: 50,
  /** SDK error types that mean the stored chat token is no good: 28 (invalid token) and 56 (expired). */
  badTokenTypes: [28, 56] as readonly number[],
} as const;

export type { ChatMessage, Conversation, EventHandlers };

/** What the chat needs from a connection (the SDK's connection has all of it). */
export interface ChatConnection {
  open(opts: { user: string; accessToken: string }): Promise<unknown>;
  close(): void;
  isOpened(): boolean;
  addEventHandler(id: string, handlers: EventHandlers): void;
  removeEventHandler(id: string): void;
  send(m: ChatMessage): Promise<{ localMsgId: string; serverMsgId: string }>;
  recallMessage(opts: { mid: string; to: string; chatType?: "singleChat" }): Promise<unknown>;
  getHistoryMessages(opts: {
    targetId: string;
    chatType: "singleChat";
    pageSize: number;
    cursor?: string | null;
    searchDirection: "up";
  }): Promise<{ cursor: string; isLast: boolean; messages: ChatMessage[] }>;
  getServerConversations(opts: {
    pageSize?: number;
    cursor?: string;
  }): Promise<{ data?: { conversations: Conversation[]; cursor: string } }>;
  fetchUserInfoById(users: string[], properties: string): Promise<{ data?: Record<string, Record<string, string>> }>;
}

/** The server this page came from: IM REST at `/{org}/{app}`, the websocket at `/websocket`. */
export function createBrandConnection(appKey: string, origin: string = window.location.origin): ChatConnection {
  const url = new URL(origin);
  const ws = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}/websocket`;
  return new connection({
    appKey,
    apiUrl: url.origin,
    url: ws,
    heartBeatWait: BRAND_CHAT.heartBeatWait,
    autoReconnectNumMax: BRAND_CHAT.autoReconnectNumMax,
    reconnectDelay: BRAND_CHAT.reconnectDelay,
    max_cache_length: BRAND_CHAT.maxCacheLength,
    delivery: true,
  });
}

export const createMessage = message.create;

/** Errors as the SDK reports them: a `type` number and a message. */
export function errorType(e: unknown): number | undefined {
  return typeof e === "object" && e !== null && typeof (e as { type?: unknown }).type === "number"
    ? (e as { type: number }).type
    : undefined;
}

/**
 * Logs in with the stored chat token (`im-token`), or the one in the user info when none is stored. When
 * the SDK says the token is no good (type 28), the stored one is removed and the login runs again with
 * the user info's token (fetched afresh).
 */
export async function loginBrandChat(
  conn: ChatConnection,
  storage: ChatStorage,
  user: string,
  freshToken: () => Promise<string>,
): Promise<void> {
  const stored = storage.imToken(user);
  const token = stored ?? (await freshToken());
  storage.setImToken(user, token);
  try {
    await conn.open({ user, accessToken: token });
  } catch (e) {
    const type = errorType(e);
    if (type === undefined || !BRAND_CHAT.badTokenTypes.includes(type)) throw e;
    storage.removeImToken();
    const again = await freshToken();
    storage.setImToken(user, again);
    await conn.open({ user, accessToken: again });
  }
}
