import type { UserInfo, Version } from "@tessera/contracts";

/**
 * Where the session lives in the browser (spec 01 §3 "stored data on the client"): the domestic area
 * keeps `x-auth-token` and `userInfo`, the international area `interToken` and `interInfo`. Each area's
 * brand chat keeps its chat token and order conversation beside them (`im-token` and `orderChat`, or
 * `inter-im-token` and `interOrderChat`), and ending a session drops those too, leaving the other area's
 * session and chat alone. Works on any Storage-like object, so it is testable.
 */
export const SESSION_KEYS: Record<Version, { token: string; info: string; imToken: string; orderChat: string }> = {
  domestic: { token: "x-auth-token", info: "userInfo", imToken: "im-token", orderChat: "orderChat" },
  international: { token: "interToken", info: "interInfo", imToken: "inter-im-token", orderChat: "interOrderChat" },
};

export type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export interface TokenStore {
  getToken: (version: Version) => string | null;
  getInfo: (version: Version) => UserInfo | null;
  setToken: (version: Version, token: string) => void;
  setInfo: (version: Version, info: UserInfo) => void;
  /** Clears the token and user info of one version plus that version's chat token and order chat. */
  clear: (version: Version) => void;
  subscribe: (listener: () => void) => () => void;
  /** Tells subscribers that storage changed outside this store (another tab). */
  notify: () => void;
}

export function createTokenStore(storage: StorageLike): TokenStore {
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const l of listeners) l();
  };
  return {
    getToken: (version) => storage.getItem(SESSION_KEYS[version].token) || null,
    getInfo(version) {
      const raw = storage.getItem(SESSION_KEYS[version].info);
      if (!raw) return null;
      try {
        return JSON.parse(raw) as UserInfo;
      } catch {
        return null;
      }
    },
    setToken(version, token) {
      storage.setItem(SESSION_KEYS[version].token, token);
      notify();
    },
    setInfo(version, info) {
      storage.setItem(SESSION_KEYS[version].info, JSON.stringify(info));
    },
    clear(version) {
      for (const key of Object.values(SESSION_KEYS[version])) storage.removeItem(key);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify,
  };
}
