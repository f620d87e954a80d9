import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import path from "node:path";
import { WebSocket } from "ws";
import { FetchXhr } from "./sdk";

/**
 * Runs the chat SDK 5 that `easemob-chat-uikit` 3.0.3 bundles (ChatUI.js, its CommonJS build) in Node
 * as a test client. The bundle also holds the UIKit's React parts and a calling SDK that touch `window`,
 * `document` and a few DOM classes while the module loads; those are lent for the load only and taken
 * back (the worker's next file starts PGlite, which must not see a `window`). The chat client itself
 * gets its runtime through `platformAdapterOptions.runtimeInput` — a browser-like object with fetch,
 * the `ws` WebSocket, an XMLHttpRequest over fetch and its own localStorage — so it runs as on the web.
 *
 * Its ChatClient is a singleton per loaded module, so every client here loads its own copy of the
 * module, as each browser tab loads its own UIKit.
 */
export type Sdk5Client = Record<string, unknown>;
export interface Sdk5 {
  ChatClient: { init(config: Record<string, unknown>): Sdk5Client };
  [manager: string]: unknown;
}

const require = createRequire(import.meta.url);
const file = require.resolve("easemob-chat-uikit/ChatUI.js");
let source: string | undefined;

/**
 * Whatever is read or called on it yields another stub: the DOM the React parts touch at load. No
 * `body`: the calling SDK then waits for a page "load" event (which never comes) instead of touching
 * the document after it has been taken back.
 */
function stub(): unknown {
  const fn = function () {};
  const proxy: unknown = new Proxy(fn, {
    get: (_t, key) =>
      key === Symbol.toPrimitive
        ? () => ""
        : typeof key === "symbol" || key === "then" || key === "body"
          ? undefined
          : proxy,
    apply: () => proxy,
    construct: () => proxy as object,
  });
  return proxy;
}

function browserLike(): Record<string, unknown> {
  const events = new EventTarget();
  const location = { href: "http://localhost/", origin: "http://localhost", protocol: "http:", host: "localhost" };
  const store = new Map<string, string>();
  const localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, String(v)),
    removeItem: (k: string) => void store.delete(k),
    clear: () => store.clear(),
  };
  const window: Record<string, unknown> = {
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    dispatchEvent: events.dispatchEvent.bind(events),
    location,
    localStorage,
    navigator: { userAgent: "node", onLine: true },
  };
  // Anything else (timers, URL, Blob...) is this process's own.
  return new Proxy(window, {
    get: (target, key) =>
      key in target ? target[key as string] : (globalThis as Record<string | symbol, unknown>)[key],
  });
}

/** Loads a fresh copy of the SDK (about half a second). */
export function loadSdk5(): Sdk5 {
  source ??= readFileSync(file, "utf8");
  const g = globalThis as Record<string, unknown>;
  // `navigator` stays (Node 21 and later have one of their own): the calling SDK reads it later too.
  const lent = ["window", "document", "location", "HTMLVideoElement"] as const;
  const before = new Map(lent.map((k) => [k, Object.getOwnPropertyDescriptor(g, k)]));
  const win = browserLike();
  g.window = win;
  g.location = win.location;
  g.document = stub();
  g.HTMLVideoElement = class {};
  g.navigator ??= { userAgent: "node", onLine: true };
  const log = console.log;
  const warn = console.warn;
  const error = console.error;
  try {
    // The calling SDK logs its missing devices at load.
    console.log = console.warn = console.error = () => {};
    const mod = new Module(file) as Module & { _compile(src: string, file: string): void; paths: string[] };
    mod.filename = file;
    mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
    mod._compile(source, file);
    return (mod.exports as { useSDK(): { ChatSDK: Sdk5 } }).useSDK().ChatSDK;
  } finally {
    console.log = log;
    console.warn = warn;
    console.error = error;
    for (const [k, d] of before) {
      if (d) Object.defineProperty(g, k, d);
      else delete g[k];
    }
  }
}

/** The runtime the client is given: a browser's globals, with this process's fetch and `ws`. */
export function sdk5Runtime(): Record<string, unknown> {
  const win = browserLike();
  return {
    window: win,
    document: Object.assign(new EventTarget(), { visibilityState: "visible" }),
    navigator: win.navigator,
    localStorage: win.localStorage,
    fetch: globalThis.fetch.bind(globalThis),
    WebSocket,
    XMLHttpRequest: FetchXhr,
    FormData,
    TextEncoder,
    TextDecoder,
    crypto: globalThis.crypto,
  };
}

/** A method of the client or of one of its managers, called by name (the SDK's typings are not in our build). */
type Method = (...args: unknown[]) => unknown;

export interface Sdk5User {
  name: string;
  client: Sdk5Client;
  /** Every event the client dispatched, by handler name (onMessage, onMessageReadReceipts, ...). */
  events: Record<string, Record<string, unknown>[]>;
  /** Calls `manager.method(...args)` (manager "client" for the client itself) and awaits it. */
  call<T = unknown>(manager: string, method: string, ...args: unknown[]): Promise<T>;
  logout(): Promise<void>;
}

const EVENTS = [
  "onMessage",
  "onMessageReadReceipts",
  "onMessageDelivered",
  "onMessageRecalled",
  "onReactionChanged",
  "onConversationListUpdate",
  "onSyncDataStart",
  "onSyncDataFinished",
];

/**
 * A user logged in with SDK 5 on a fresh device (its own module, cache and device id), set up as the
 * UIKit's Provider does (initConfig → ChatClient.init with every manager, then login with the token).
 */
export async function sdk5Login(baseUrl: string, appKey: string, name: string, token: string): Promise<Sdk5User> {
  const sdk = loadSdk5();
  const client = sdk.ChatClient.init({
    appKey,
    enableDeliveryReceipt: true,
    enableSyncData: ["contact", "group", "conversation"],
    serviceConfig: { serverUrls: { restApiUrl: baseUrl, wsUrl: `${baseUrl.replace(/^http/, "ws")}/websocket` } },
    useFixedDeviceId: true,
    managers: Object.entries(sdk)
      .filter(([k]) => k !== "ChatClient")
      .map(([, v]) => v),
    platformAdapterOptions: { runtimeInput: sdk5Runtime() },
  });
  const events: Sdk5User["events"] = Object.fromEntries(EVENTS.map((e) => [e, []]));
  const handlers = Object.fromEntries(
    EVENTS.map((e) => [e, (payload: Record<string, unknown>) => void events[e]?.push(payload)]),
  );
  const call = async <T>(manager: string, method: string, ...args: unknown[]): Promise<T> => {
    const target = (manager === "client" ? client : client[manager]) as Record<string, unknown> | undefined;
    const fn = target?.[method];
    if (typeof fn !== "function") throw new Error(`SDK 5 has no ${manager}.${method}`);
    return (await (fn as Method).apply(target, args)) as T;
  };
  await call("client", "addEventHandler", "test", handlers);
  await call("client", "login", { userId: name, token });
  return { name, client, events, call, logout: () => call("client", "logout") };
}
