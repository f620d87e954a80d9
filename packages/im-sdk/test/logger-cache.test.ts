import { afterEach, describe, expect, test, vi } from "vitest";
import { indexedDbBackend, type IdbFactory } from "../src/cache";
import {
  CACHE_SCHEMA_VERSION,
  connection,
  LocalCache,
  LOG_LEVELS,
  Logger,
  memoryBackend,
  message,
  type ChatMessage,
} from "../src/index";
import { LOG_LEVEL_KEY } from "../src/logger";
import { memoryStorage } from "../src/storage";

describe("logger", () => {
  test("levels trace…silent, default warn; lines below the level are dropped", () => {
    const sink = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const log = new Logger(memoryStorage(), sink);
    expect(log.getLevel()).toBe(LOG_LEVELS.WARN);
    log.info("quiet");
    log.warn("loud", { n: 1 });
    expect(sink.info).not.toHaveBeenCalled();
    expect(sink.warn).toHaveBeenCalledWith('[im-sdk] loud {"n":1}');
    log.setLevel("silent");
    log.error("nothing");
    expect(sink.error).not.toHaveBeenCalled();
    expect(() => log.setLevel(9 as never)).toThrow(/unknown log level/);
  });

  test("the chosen level is persisted and read back by the next logger", () => {
    const storage = memoryStorage();
    new Logger(storage, null).setLevel(LOG_LEVELS.DEBUG);
    expect(storage.getItem(LOG_LEVEL_KEY)).toBe("1");
    expect(new Logger(storage, null).getLevel()).toBe(LOG_LEVELS.DEBUG);
  });

  test("the cache of lines is capped (oldest dropped)", () => {
    const log = new Logger(memoryStorage(), null, 500);
    log.setLevel("trace");
    for (let i = 0; i < 50; i++) log.debug(`line ${i} ${"x".repeat(20)}`);
    const lines = log.getLogs();
    expect(lines.join("").length).toBeLessThanOrEqual(500);
    expect(lines.at(-1)).toContain("line 49");
    expect(lines[0]).not.toContain("line 0 ");
  });
});

/** An in-memory IndexedDB with just what the cache backend uses, recording the schema version. */
function fakeIndexedDb(): { factory: IdbFactory; versions: number[] } {
  const dbs = new Map<string, Map<string, Map<string, unknown>>>();
  const versions: number[] = [];
  const req = <T>(result: T) => {
    const r = { result, error: null, onsuccess: null as (() => void) | null, onerror: null as (() => void) | null };
    queueMicrotask(() => r.onsuccess?.());
    return r;
  };
  const factory: IdbFactory = {
    open(name, version) {
      versions.push(version);
      const fresh = !dbs.has(name);
      const stores = dbs.get(name) ?? new Map<string, Map<string, unknown>>();
      dbs.set(name, stores);
      const db = {
        objectStoreNames: { contains: (n: string) => stores.has(n) },
        createObjectStore: (n: string) => stores.set(n, new Map()),
        transaction: (store: string) => ({
          objectStore: () => ({
            get: (key: string) => req(structuredClone(stores.get(store)!.get(key))),
            put: (value: unknown, key: string) => req(stores.get(store)!.set(key, structuredClone(value))),
          }),
        }),
        close: () => undefined,
      };
      const r = {
        result: db,
        error: null,
        onsuccess: null as (() => void) | null,
        onerror: null as (() => void) | null,
        onupgradeneeded: null as (() => void) | null,
      };
      queueMicrotask(() => {
        if (fresh) r.onupgradeneeded?.();
        r.onsuccess?.();
      });
      return r;
    },
  };
  return { factory, versions };
}

const msg = (id: string, from: string, to: string, time: number): ChatMessage => ({
  ...message.create({ type: "txt", to, msg: id }),
  id,
  from,
  time,
});

describe("local cache", () => {
  test("keeps at most max_cache_length messages per conversation; unread counts incoming only", () => {
    const cache = new LocalCache(memoryBackend(), 3);
    void cache.start("alice");
    for (let i = 1; i <= 5; i++) cache.put(msg(String(i), "bob", "alice", i));
    cache.put(msg("6", "alice", "bob", 6));
    expect(cache.getMessages("bob", "singleChat").map((m) => m.id)).toEqual(["4", "5", "6"]);
    expect(cache.getConversation("bob", "singleChat")).toMatchObject({ unReadCount: 5, lastMessage: { id: "6" } });
    cache.recall("6");
    // The user's own message: the unread count stays.
    expect(cache.getConversation("bob", "singleChat")).toMatchObject({ unReadCount: 5, lastMessage: { id: "5" } });
  });

  test("IndexedDB in browsers: schema version 1, data survives a new cache for the same user", async () => {
    const { factory, versions } = fakeIndexedDb();
    const first = new LocalCache(indexedDbBackend(factory, "org#app"));
    await first.start("alice");
    first.put(msg("1", "bob", "alice", 1));
    await first.flush();
    const second = new LocalCache(indexedDbBackend(factory, "org#app"));
    await second.start("alice");
    expect(second.getConversation("bob", "singleChat")).toMatchObject({
      unReadCount: 1,
      lastMessage: { id: "1", msg: "1" },
    });
    expect(new Set(versions)).toEqual(new Set([CACHE_SCHEMA_VERSION]));
    expect(CACHE_SCHEMA_VERSION).toBe(1);
  });

  test("the connection uses IndexedDB when the platform has it, memory otherwise", async () => {
    const { factory, versions } = fakeIndexedDb();
    vi.stubGlobal("indexedDB", factory);
    const conn = new connection({ appKey: "org#app", max_cache_length: 7 });
    expect(conn.cache?.maxCacheLength).toBe(7);
    await conn.cache!.start("alice");
    expect(versions).toEqual([1]);
    vi.unstubAllGlobals();
    const plain = new connection({ appKey: "org#app" });
    await plain.cache!.start("alice");
    expect(versions).toEqual([1]);
  });
});

describe("online and offline", () => {
  afterEach(() => vi.unstubAllGlobals());

  test("the browser's online/offline events are forwarded", () => {
    const target = new EventTarget();
    vi.stubGlobal("document", {});
    vi.stubGlobal("addEventListener", target.addEventListener.bind(target));
    vi.stubGlobal("removeEventListener", target.removeEventListener.bind(target));
    const conn = new connection({ appKey: "org#app" });
    const seen: string[] = [];
    conn.addEventHandler("t", { onOnline: () => seen.push("online"), onOffline: () => seen.push("offline") });
    target.dispatchEvent(new Event("offline"));
    target.dispatchEvent(new Event("online"));
    expect(seen).toEqual(["offline", "online"]);
  });
});
