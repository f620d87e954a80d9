import type { Version } from "@tessera/contracts";
import type { OrderChat } from "@tessera/contracts";
import { SESSION_KEYS, type StorageLike } from "../api/tokens";

/**
 * Where the brand chat keeps its state in the browser (spec 03 §3): the domestic area `im-token` and
 * `orderChat`; the international area its own keys, so the two sessions never share a chat login. They
 * are part of the area's session keys, so logging out of an area removes them.
 */
export const CHAT_KEYS: Record<Version, { imToken: string; orderChat: string }> = {
  domestic: { imToken: SESSION_KEYS.domestic.imToken, orderChat: SESSION_KEYS.domestic.orderChat },
  international: { imToken: SESSION_KEYS.international.imToken, orderChat: SESSION_KEYS.international.orderChat },
};

/** The stored chat token: for one IM user only (a token of another user is not used). */
export interface StoredImToken {
  user: string;
  token: string;
}

export function createChatStorage(storage: StorageLike, version: Version) {
  const keys = CHAT_KEYS[version];
  return {
    keys,
    imToken(user: string): string | null {
      const raw = storage.getItem(keys.imToken);
      if (!raw) return null;
      try {
        const parsed = JSON.parse(raw) as Partial<StoredImToken>;
        return parsed.user === user && typeof parsed.token === "string" && parsed.token ? parsed.token : null;
      } catch {
        return null;
      }
    },
    setImToken(user: string, token: string): void {
      storage.setItem(keys.imToken, JSON.stringify({ user, token } satisfies StoredImToken));
    },
    removeImToken(): void {
      storage.removeItem(keys.imToken);
    },
    orderChat(): OrderChat | null {
      const raw = storage.getItem(keys.orderChat);
      if (!raw) return null;
      try {
        const parsed = JSON.parse(raw) as OrderChat;
        return typeof parsed.targetId === "string" && typeof parsed.orderId === "string" ? parsed : null;
      } catch {
        return null;
      }
    },
    setOrderChat(chat: OrderChat): void {
      storage.setItem(keys.orderChat, JSON.stringify(chat));
    },
  };
}
export type ChatStorage = ReturnType<typeof createChatStorage>;
