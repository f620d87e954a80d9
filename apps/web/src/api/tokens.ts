import type { UserInfo, Version } from "@tessera/contracts";

/**
 * Where the session lives in the browser (spec 01 §3 "stored data on the client"): the domestic area
 * keeps `x-auth-token` and `userInfo`, the international area `interToken` and `interInfo`. Ending a
 * session also drops `im-token` and `orderChat`. Works on any Storage-like object, so it is testable.
 */
export const SESSION_KEYS: Record<Version, { token: string; info: string }> = {
  domestic: { token: "x-auth-token", info: "userInfo" },
  international: { token: "interToken", info: "interInfo" },
};
export const SHARED_SESSION_KEYS = ["im-token", "orderChat"] as const;

export type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export interface TokenStore {
  getToken: (version: Version) => string | null;
  getInfo: (version: Version) => UserInfo | null;
  setToken: (version: Version, token: string) => void;
  setInfo: (version: Version, info: UserInfo) => void;
  /** Clears the token and user info of one version plus the IM token and order chat. */
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
      storage.removeItem(SESSION_KEYS[version].token);
      storage.removeItem(SESSION_KEYS[version].info);
      for (const key of SHARED_SESSION_KEYS) storage.removeItem(key);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify,
  };
}
