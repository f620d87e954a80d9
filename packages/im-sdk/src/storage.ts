/** A synchronous key/value store: `localStorage` in browsers, a Map elsewhere (or one the app passes). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

export function defaultStorage(): KeyValueStorage {
  try {
    const ls = (globalThis as { localStorage?: KeyValueStorage }).localStorage;
    if (ls && typeof ls.getItem === "function") return ls;
  } catch {
    // Access to localStorage can throw (privacy settings): fall back to memory.
  }
  return memoryStorage();
}
