import type { ChatMessage, ChatType } from "./message.js";

/** Schema version of the local cache (spec 03 §9). */
export const CACHE_SCHEMA_VERSION = 1;
/** Messages kept per conversation by default (`max_cache_length`). */
export const DEFAULT_MAX_CACHE_LENGTH = 100;

export interface CachedConversation {
  conversationId: string;
  conversationType: ChatType;
  unReadCount: number;
  lastMessage?: ChatMessage;
  /** When the unread count was last cleared (a channel ack); recalls of older messages leave it alone. */
  clearedAt: number;
}

interface Stored {
  conversations: Map<string, CachedConversation>;
  /** Message ids per conversation, oldest first, at most max_cache_length. */
  messages: Map<string, ChatMessage[]>;
}

/** Where the cache keeps its data between sessions. */
export interface CacheBackend {
  load(user: string): Promise<{ conversations: CachedConversation[]; messages: [string, ChatMessage[]][] } | undefined>;
  save(user: string, data: { conversations: CachedConversation[]; messages: [string, ChatMessage[]][] }): Promise<void>;
}

/** Memory only (Node, tests). */
export function memoryBackend(): CacheBackend {
  const store = new Map<string, string>();
  return {
    load: (user) =>
      Promise.resolve(
        store.has(user)
          ? (JSON.parse(store.get(user)!) as {
              conversations: CachedConversation[];
              messages: [string, ChatMessage[]][];
            })
          : undefined,
      ),
    save: (user, data) => Promise.resolve(void store.set(user, JSON.stringify(data))),
  };
}

/** The parts of IndexedDB the cache uses (declared here so the package needs no DOM typings). */
interface IdbRequest<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: (() => void) | null;
}
interface IdbStore {
  get(key: string): IdbRequest<unknown>;
  put(value: unknown, key: string): IdbRequest<unknown>;
}
interface IdbDatabase {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(store: string, mode: "readonly" | "readwrite"): { objectStore(name: string): IdbStore };
  close(): void;
}
export interface IdbFactory {
  open(name: string, version: number): IdbOpenRequest;
}

/** IndexedDB (browsers): database `tessera-im-<appKey>`, version 1, one object store keyed by user. */
export function indexedDbBackend(idb: IdbFactory, appKey: string): CacheBackend {
  const open = (): Promise<IdbDatabase> =>
    new Promise((resolve, reject) => {
      const req = idb.open(`tessera-im-${appKey}`, CACHE_SCHEMA_VERSION);
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains("users")) req.result.createObjectStore("users");
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(new Error(`indexedDB open failed: ${String(req.error)}`));
    });
  const run = async (mode: "readonly" | "readwrite", fn: (s: IdbStore) => IdbRequest<unknown>): Promise<unknown> => {
    const db = await open();
    try {
      return await new Promise<unknown>((resolve, reject) => {
        const req = fn(db.transaction("users", mode).objectStore("users"));
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(new Error(`indexedDB request failed: ${String(req.error)}`));
      });
    } finally {
      db.close();
    }
  };
  return {
    load: async (user) =>
      (await run("readonly", (s) => s.get(user))) as
        { conversations: CachedConversation[]; messages: [string, ChatMessage[]][] } | undefined,
    save: async (user, data) => {
      await run("readwrite", (s) => s.put(data, user));
    },
  };
}

export function defaultBackend(appKey: string): CacheBackend {
  const idb = (globalThis as { indexedDB?: IdbFactory }).indexedDB;
  return idb ? indexedDbBackend(idb, appKey) : memoryBackend();
}

const keyOf = (id: string, type: ChatType): string => `${type}:${id}`;

/**
 * The local cache of recent messages and conversations. Received and sent messages are kept (at most
 * max_cache_length per conversation); a channel ack clears the unread count; a recall removes the message,
 * refreshes the conversation's last message and lowers the unread count by one, unless the message was
 * the user's own or the count was cleared after it (spec 03 §4).
 */
export class LocalCache {
  private data: Stored = { conversations: new Map(), messages: new Map() };
  private user = "";
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly backend: CacheBackend,
    readonly maxCacheLength: number = DEFAULT_MAX_CACHE_LENGTH,
  ) {}

  async start(user: string): Promise<void> {
    if (this.user === user) return;
    this.user = user;
    const saved = await this.backend.load(user).catch(() => undefined);
    this.data = {
      conversations: new Map((saved?.conversations ?? []).map((c) => [keyOf(c.conversationId, c.conversationType), c])),
      messages: new Map(saved?.messages ?? []),
    };
  }

  /** The conversation id of a message from this user's point of view. */
  private conversationOf(m: ChatMessage): string {
    return m.chatType === "singleChat" && m.from !== this.user ? m.from : m.to;
  }

  put(message: ChatMessage): void {
    // Plain data only: callbacks and file handles stay out of the store.
    const m = JSON.parse(JSON.stringify(message)) as ChatMessage;
    const id = this.conversationOf(m);
    const key = keyOf(id, m.chatType);
    const list = this.data.messages.get(key) ?? [];
    if (list.some((x) => x.id === m.id)) return;
    list.push(m);
    list.sort((a, b) => a.time - b.time);
    while (list.length > this.maxCacheLength) list.shift();
    this.data.messages.set(key, list);
    const conv = this.data.conversations.get(key) ?? {
      conversationId: id,
      conversationType: m.chatType,
      unReadCount: 0,
      clearedAt: 0,
    };
    if (!conv.lastMessage || conv.lastMessage.time <= m.time) conv.lastMessage = m;
    if (m.from !== this.user) conv.unReadCount += 1;
    this.data.conversations.set(key, conv);
    this.persist();
  }

  /** A channel ack for the conversation: everything up to now is read. */
  clearUnread(conversationId: string, type: ChatType, at: number = Date.now()): void {
    const conv = this.data.conversations.get(keyOf(conversationId, type));
    if (!conv) return;
    conv.unReadCount = 0;
    conv.clearedAt = at;
    this.persist();
  }

  /** A recall: removes the message, refreshes the last message and the unread count. */
  recall(messageId: string): boolean {
    for (const [key, list] of this.data.messages) {
      const i = list.findIndex((m) => m.id === messageId);
      if (i < 0) continue;
      const [gone] = list.splice(i, 1);
      const conv = this.data.conversations.get(key);
      if (conv && gone) {
        conv.lastMessage = list[list.length - 1];
        if (gone.from !== this.user && gone.time > conv.clearedAt && conv.unReadCount > 0) conv.unReadCount -= 1;
      }
      this.persist();
      return true;
    }
    return false;
  }

  /** Replaces a message's content after an edit. */
  update(m: ChatMessage): void {
    for (const list of this.data.messages.values()) {
      const i = list.findIndex((x) => x.id === m.id);
      if (i >= 0) list[i] = { ...list[i]!, ...m };
    }
    this.persist();
  }

  getConversation(conversationId: string, type: ChatType): CachedConversation | undefined {
    return this.data.conversations.get(keyOf(conversationId, type));
  }

  getConversations(): CachedConversation[] {
    return [...this.data.conversations.values()].sort(
      (a, b) => (b.lastMessage?.time ?? 0) - (a.lastMessage?.time ?? 0),
    );
  }

  getMessages(conversationId: string, type: ChatType): ChatMessage[] {
    return [...(this.data.messages.get(keyOf(conversationId, type)) ?? [])];
  }

  /** Resolves once pending writes reached the backend. */
  flush(): Promise<void> {
    return this.saving;
  }

  private persist(): void {
    const user = this.user;
    const snapshot = {
      conversations: [...this.data.conversations.values()],
      messages: [...this.data.messages.entries()],
    };
    this.saving = this.saving.then(() => this.backend.save(user, snapshot)).catch(() => undefined);
  }
}
