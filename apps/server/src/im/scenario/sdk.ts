import { createRequire } from "node:module";
import { WebSocket } from "ws";

/**
 * Runs the published `easemob-websdk` in Node as a test client (easemob-wire.md §5). The SDK expects a
 * browser: `self`, `window` with `WebSocket` (its platform check), `XMLHttpRequest`, `FileReader`,
 * `localStorage`. Node 20 has fetch, FormData and Blob, so XMLHttpRequest is provided here on top of
 * fetch. The socket is the `ws` client, talking to the realtime gateway on /websocket.
 */

type Listener = (ev: { type: string; target: unknown; loaded?: number; total?: number }) => void;

class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  addEventListener(type: string, fn: Listener): void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(fn);
  }
  removeEventListener(type: string, fn: Listener): void {
    this.listeners.get(type)?.delete(fn);
  }
  protected emit(type: string, extra: Record<string, unknown> = {}): void {
    const ev = { type, target: this, ...extra };
    const own = (this as unknown as Record<string, unknown>)[`on${type}`];
    if (typeof own === "function") (own as Listener).call(this, ev);
    for (const fn of this.listeners.get(type) ?? []) fn.call(this, ev);
  }
}

/** XMLHttpRequest over fetch: what the SDK's REST helper, upload and download use. */
export class FetchXhr extends Emitter {
  readyState = 0;
  status = 0;
  statusText = "";
  responseText = "";
  response: unknown = "";
  responseType = "";
  responseURL = "";
  timeout = 0;
  withCredentials = false;
  readonly upload = new (class extends Emitter {})();
  private method = "GET";
  private url = "";
  private headers: Record<string, string> = {};
  private responseHeaders = new Headers();
  private controller = new AbortController();
  private done = false;

  open(method: string, url: string): void {
    this.method = method.toUpperCase();
    this.url = url;
    this.readyState = 1;
  }
  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
  overrideMimeType(): void {}
  getResponseHeader(name: string): string | null {
    return this.responseHeaders.get(name);
  }
  getAllResponseHeaders(): string {
    return [...this.responseHeaders.entries()].map(([k, v]) => `${k}: ${v}`).join("\r\n");
  }
  abort(): void {
    if (this.done) return;
    this.done = true;
    this.controller.abort();
    this.readyState = 4;
    this.emit("abort");
  }

  send(body?: unknown): void {
    const timer = this.timeout > 0 ? setTimeout(() => this.fail("timeout"), this.timeout) : undefined;
    const init: RequestInit = { method: this.method, headers: this.headers, signal: this.controller.signal };
    if (body !== null && body !== undefined && this.method !== "GET" && this.method !== "HEAD") {
      init.body = body as RequestInit["body"];
      // fetch sets multipart/form-data with its boundary itself.
      if (body instanceof FormData) delete (init.headers as Record<string, string>)["Content-Type"];
    }
    fetch(this.url, init)
      .then(async (res) => {
        this.status = res.status;
        this.statusText = res.statusText;
        this.responseURL = res.url || this.url;
        this.responseHeaders = res.headers;
        this.readyState = 2;
        const bytes = Buffer.from(await res.arrayBuffer());
        clearTimeout(timer);
        if (this.done) return;
        this.done = true;
        this.responseText =
          this.responseType === "blob" || this.responseType === "arraybuffer" ? "" : bytes.toString("utf8");
        this.response =
          this.responseType === "blob"
            ? new Blob([bytes], { type: res.headers.get("content-type") ?? "" })
            : this.responseType === "arraybuffer"
              ? bytes.buffer
              : this.responseText;
        this.readyState = 4;
        this.upload["emit"]("progress", { loaded: 1, total: 1 });
        this.emit("readystatechange");
        this.emit("load");
        this.emit("loadend");
      })
      .catch(() => {
        clearTimeout(timer);
        this.fail("error");
      });
  }

  private fail(kind: "timeout" | "error"): void {
    if (this.done) return;
    this.done = true;
    this.controller.abort();
    this.readyState = 4;
    this.status = 0;
    this.emit("readystatechange");
    this.emit(kind);
    this.emit("loadend");
  }
}

/** FileReader for Blobs: the SDK reads download error bodies with it. */
class BlobReader extends Emitter {
  result: string | ArrayBuffer | null = null;
  readAsText(blob: Blob): void {
    void blob.text().then((t) => this.finish(t));
  }
  readAsArrayBuffer(blob: Blob): void {
    void blob.arrayBuffer().then((b) => this.finish(b));
  }
  private finish(result: string | ArrayBuffer): void {
    this.result = result;
    this.emit("load");
    this.emit("loadend");
  }
}

export interface Websdk {
  connection: new (options: Record<string, unknown>) => Connection;
  utils: { ajax(options: Record<string, unknown>, kind?: string): Promise<Record<string, unknown>> };
  logger: { setLevel(level: number): void };
  statusCode: Record<string, number>;
  message: { create(options: Record<string, unknown>): Record<string, unknown> };
}

/** A connection: the SDK's methods are called by name (its typings are not part of our build). */
export type Connection = Record<string, unknown> & {
  user: string;
  token: string;
  apiUrl: string;
  appKey: string;
  orgName: string;
  appName: string;
  context: Record<string, unknown>;
  clientResource: string;
};

let loaded: Websdk | undefined;

export function loadWebsdk(): Websdk {
  // The globals go in on every call, not only the first: a worker's next test file starts without
  // `window` (test/no-browser-globals.ts) while the SDK it loaded stays cached.
  const g = globalThis as Record<string, unknown>;
  g.self ??= globalThis;
  g.window ??= globalThis;
  g.navigator ??= { userAgent: "node" };
  // The `ws` client, whatever the Node version offers: the gateway is tested against this one.
  g.WebSocket = WebSocket;
  g.XMLHttpRequest = FetchXhr;
  g.FileReader ??= BlobReader;
  if (!g.localStorage) {
    const store = new Map<string, string>();
    g.localStorage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, String(v)),
      removeItem: (k: string) => store.delete(k),
      clear: () => store.clear(),
    };
  }
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  loaded = require("easemob-websdk") as Websdk;
  loaded.logger.setLevel(5);
  return loaded;
}

/**
 * A connection to a local server, with HTTP DNS off (easemob-wire §5). With a `deviceId` the device is
 * not the one the SDK keeps in localStorage (shared by every connection of the process) but its own.
 */
export function connect(baseUrl: string, appKey: string, deviceId?: string): Connection {
  const sdk = loadWebsdk();
  const device = deviceId ? { deviceId, isFixedDeviceId: false } : {};
  return new sdk.connection({
    appKey,
    isHttpDNS: false,
    https: false,
    apiUrl: baseUrl,
    url: `${baseUrl.replace(/^http/, "ws")}/websocket`,
    delivery: false,
    ...device,
  });
}

/**
 * Logs in over REST the way `open({user, pwd})` does before it opens the socket: the SDK's own ajax
 * helper posts the password grant to /{org}/{app}/token, and the session gets the identity open() sets
 * (user, jid, token). Returns the token reply.
 */
export async function restLogin(
  conn: Connection,
  user: string,
  pwd: string,
): Promise<{ access_token: string; expires_in: number }> {
  const sdk = loadWebsdk();
  const reply = await sdk.utils.ajax(
    {
      url: `${conn.apiUrl}/${conn.orgName}/${conn.appName}/token`,
      dataType: "json",
      type: "POST",
      headers: { "Content-Type": "application/json" },
      data: JSON.stringify({ grant_type: "password", username: user, password: pwd, timestamp: Date.now() }),
    },
    "SDK_INTERNAL",
  );
  const token = String(reply.access_token);
  conn.user = user;
  conn.token = token;
  Object.assign(conn.context, {
    jid: { appKey: conn.appKey, name: user, domain: "easemob.com", clientResource: conn.clientResource },
    userId: user,
    appKey: conn.appKey,
    appName: conn.appName,
    orgName: conn.orgName,
    accessToken: token,
    restTokenData: token,
    // open() hands the connection's protobuf root to the context; history decoding looks types up in it.
    root: conn.root,
  });
  return { access_token: token, expires_in: Number(reply.expires_in) };
}

/** Calls an SDK method by name. */
export function sdkCall<T = Record<string, unknown>>(conn: Connection, method: string, ...args: unknown[]): Promise<T> {
  const fn = conn[method];
  if (typeof fn !== "function") throw new Error(`the SDK has no method ${method}`);
  return (fn as (...a: unknown[]) => Promise<T>).apply(conn, args);
}
