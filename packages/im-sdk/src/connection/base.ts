import { defaultBackend, LocalCache, DEFAULT_MAX_CACHE_LENGTH, type CacheBackend } from "../cache.js";
import { ChatSdkError } from "../errors.js";
import { EventRegistry, type ContactEvent, type EventName, type ConnectionEvents } from "../events.js";
import { uniqueId } from "../ids.js";
import { logger } from "../logger.js";
import { type ChatMessage } from "../message.js";
import { encode, MSync, type Decoded } from "../proto.js";
import { REPORT_EVENT, Reporter } from "../reporter.js";
import { statusCode as C } from "../status.js";

/** The WebSocket a connection uses: the browser's, or one the app passes (e.g. the `ws` package in Node). */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketClass = new (url: string) => WebSocketLike;

export interface ConnectionOptions {
  /** `org#app`. */
  appKey: string;
  /** REST base, e.g. `https://im.example.com` (no trailing slash). */
  apiUrl?: string;
  /** Websocket address, e.g. `wss://im.example.com/websocket`. */
  url?: string;
  /** Look the REST and websocket hosts up at `{dnsUrl}/easemob/server.json` (refreshed every 5 failures). */
  isHttpDNS?: boolean;
  dnsUrl?: string;
  /** Heartbeat check interval in ms (default 30000). */
  heartBeatWait?: number;
  /** Reconnect attempts after an unexpected close (default 5). */
  autoReconnectNumMax?: number;
  /** Delay before reconnect attempt n (default 500 ms × n). */
  reconnectDelay?: (attempt: number) => number;
  /** Send delivery acks for received one-to-one messages. */
  delivery?: boolean;
  /** A WebSocket class (required in Node 20, which has no global one). */
  WebSocket?: WebSocketClass;
  /** Device id part of the resource (default: generated and kept in localStorage). */
  deviceId?: string;
  /** Keep a local cache of recent messages (default true). */
  useLocalCache?: boolean;
  cacheBackend?: CacheBackend;
  /** Messages kept per conversation in the local cache (default 100). */
  max_cache_length?: number;
  /** Milliseconds to wait for a send/room acknowledgement (default 15000). */
  ackTimeoutMs?: number;
  /**
   * Report what the SDK does (initialisation, logins, sends, reconnects, REST calls, with durations and
   * results) to `dataReportUrl`, in batches (default false; the published client's server flag name).
   */
  enableDataReport?: boolean;
  /** Where data reports go (default: the IM server's own `{apiUrl}/{org}/{app}/sdk/reports`). */
  dataReportUrl?: string;
  /** The `debug` header of data reports (default false). */
  dataReportDebug?: boolean;
}

export interface Pending {
  id: string;
  meta: Decoded;
  kind: "message" | "room" | "recall" | "edit";
  message?: ChatMessage;
  resolve: (v: unknown) => void;
  reject: (e: ChatSdkError) => void;
  timer?: ReturnType<typeof setTimeout>;
  roomId?: string;
  join?: boolean;
}

export interface Jid {
  appKey?: string;
  name?: string;
  domain?: string;
  clientResource?: string;
}

/** Connection status codes (spec 03 §4). */
export const STATUS = {
  INIT: 400,
  DOLOGIN_USERGRID: 401,
  DOLOGIN_IM: 402,
  OPENED: 403,
  CLOSING: 404,
  CLOSED: 405,
  ERROR: 406,
} as const;

export const USER_DOMAIN = "easemob.com";
export const MUC_DOMAIN = "conference.easemob.com";
export const SDK_VERSION = "1.0.0";
/** Operation names in data reports, per kind of acknowledged request. */
export const REPORT_OPS: Record<Pending["kind"], [string, string]> = {
  message: ["SEND_MSG", "SENDMESSAGE"],
  recall: ["SEND_RECALL_MSG", "MESSAGE"],
  edit: ["MODIFY_MESSAGE", "MESSAGE"],
  room: ["CHATROOM_OPERATE", "CHATROOM"],
};
/** A pull without an answer is sent again after this long (spec 03 §9, notice timer). */
export const NOTICE_TIMER_MS = 10_000;

export const MUC_OPERATIONS: Record<number, string> = {
  0: "create",
  1: "destroy",
  4: "requestToJoin",
  5: "acceptRequest",
  6: "joinPublicGroupDeclined",
  7: "inviteToJoin",
  8: "acceptInvite",
  9: "rejectInvite",
  10: "removeMember",
  13: "unblockMember",
  14: "updateInfo",
  17: "memberPresence",
  18: "memberAbsence",
  19: "directJoined",
  20: "changeOwner",
  21: "setAdmin",
  22: "removeAdmin",
  23: "muteMember",
  24: "unmuteMember",
  25: "updateAnnouncement",
  26: "deleteAnnouncement",
  27: "uploadFile",
  28: "deleteFile",
  29: "addUserToAllowlist",
  30: "removeAllowlistMember",
  31: "muteAllMembers",
  32: "unmuteAllMembers",
  43: "updateChatRoomAttributes",
  44: "removeChatRoomAttributes",
  45: "memberAttributesUpdate",
};
export const THREAD_OPERATIONS: Record<number, string> = {
  33: "chatThreadCreate",
  34: "chatThreadDestroy",
  35: "chatThreadJoin",
  36: "chatThreadLeave",
  38: "chatThreadNameUpdate",
};
export const ROSTER_EVENTS: Record<number, [EventName, ContactEvent["type"]]> = {
  2: ["onContactInvited", "subscribe"],
  3: ["onContactDeleted", "unsubscribed"],
  4: ["onContactAdded", "subscribed"],
  5: ["onContactRefuse", "unsubscribed"],
  8: ["onContactAgreed", "subscribed"],
  9: ["onContactRefuse", "unsubscribed"],
};
export const KICKS: Record<number, [number, string]> = {
  1: [C.WEBIM_CONNCTION_USER_REMOVED, "user has been removed"],
  2: [C.WEBIM_CONNCTION_USER_LOGIN_ANOTHER_DEVICE, "the user is already logged on another device"],
  3: [C.WEBIM_CONNCTION_USER_KICKED_BY_CHANGE_PASSWORD, "the user was kicked by changing password"],
  4: [C.WEBIM_CONNCTION_USER_KICKED_BY_OTHER_DEVICE, "the user was kicked by other device"],
};
export const MESSAGE_EVENTS: Record<string, EventName> = {
  txt: "onTextMessage",
  img: "onImageMessage",
  audio: "onAudioMessage",
  video: "onVideoMessage",
  file: "onFileMessage",
  loc: "onLocationMessage",
  cmd: "onCmdMessage",
  custom: "onCustomMessage",
  combine: "onCombineMessage",
};

export const jidKey = (q: Jid): string => `${q.name ?? ""}@${q.domain ?? ""}/${q.clientResource ?? ""}`;
export const utf8 = new TextDecoder();

export function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) {
    // `ws` may hand over fragments as a list of Buffers.
    const parts = data as Uint8Array[];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
  return undefined;
}

/**
 * What every part of the connection stands on: its options and state, the event handlers, the status,
 * data reports, and writing a frame to the socket. The Connection class (connection.ts) is one class cut
 * into files along this chain: ConnectionBase, ConnectionSync (pulling the sync queues), ConnectionOutbound
 * (sends and their acknowledgements), ConnectionInbound (decoding frames, dispatching events),
 * ConnectionSession (login, provision, reconnect, token) and Connection (REST).
 */
export abstract class ConnectionBase {
  readonly appKey: string;
  orgName = "";
  appName = "";
  apiUrl: string;
  url: string;
  user = "";
  token = "";
  clientResource = "";
  /** Identity for REST calls; clearing accessToken makes calls fail with 'appkey or token error'. */
  context: { jid?: Jid; userId: string; appKey: string; appName: string; orgName: string; accessToken: string } = {
    userId: "",
    appKey: "",
    appName: "",
    orgName: "",
    accessToken: "",
  };
  status: number = STATUS.INIT;
  /** True when the user closed the connection or was logged out: no reconnect. */
  logOut = true;
  readonly options: Required<Pick<ConnectionOptions, "heartBeatWait" | "autoReconnectNumMax" | "ackTimeoutMs">> &
    ConnectionOptions;
  readonly cache: LocalCache | undefined;
  /** The data reporter, with `enableDataReport` (its counters show what was sent, dropped and failed). */
  readonly reporter: Reporter | undefined;
  protected readonly events = new EventRegistry();
  protected sock: WebSocketLike | undefined;
  protected sessionId = "";
  protected reconnectAttempts = 0;
  protected reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  protected heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  protected tokenTimers: ReturnType<typeof setTimeout>[] = [];
  protected loginTimer: ReturnType<typeof setTimeout> | undefined;
  protected lastReceived = 0;
  protected inFlight = new Map<string, Pending>();
  protected queue: Pending[] = [];
  protected pulls: Jid[] = [];
  protected pulling: string | undefined;
  protected pullAgain = new Set<string>();
  protected lastKeys = new Map<string, string>();
  protected pullTimer: ReturnType<typeof setTimeout> | undefined;
  protected recentIds: string[] = [];
  protected loginWaiters: { resolve: () => void; reject: (e: ChatSdkError) => void }[] = [];
  protected kickError: ChatSdkError | undefined;
  protected restFailures = 0;
  protected offlineSyncDone = false;
  protected tokenExpiresAt = 0;
  protected reconnectStartedAt = 0;
  protected readonly onlineListener = (): void => this.handleOnline();
  protected readonly offlineListener = (): void => this.events.dispatch("onOffline");

  constructor(options: ConnectionOptions) {
    this.options = { heartBeatWait: 30_000, autoReconnectNumMax: 5, ackTimeoutMs: 15_000, ...options };
    this.appKey = options.appKey;
    const parts = typeof options.appKey === "string" ? options.appKey.split("#") : [];
    if (parts.length === 2 && parts[0] && parts[1]) [this.orgName, this.appName] = parts as [string, string];
    else logger.error("AppKey illegal");
    this.apiUrl = (options.apiUrl ?? "").replace(/\/+$/, "");
    this.url = options.url ?? "";
    Object.assign(this.context, { appKey: this.appKey, orgName: this.orgName, appName: this.appName });
    this.cache =
      options.useLocalCache === false
        ? undefined
        : new LocalCache(
            options.cacheBackend ?? defaultBackend(this.appKey),
            options.max_cache_length ?? DEFAULT_MAX_CACHE_LENGTH,
          );
    this.reporter = options.enableDataReport ? this.makeReporter(options) : undefined;
    const g = globalThis as { addEventListener?: (t: string, f: () => void) => void };
    if (
      typeof g.addEventListener === "function" &&
      typeof (globalThis as { document?: unknown }).document !== "undefined"
    ) {
      g.addEventListener("online", this.onlineListener);
      g.addEventListener("offline", this.offlineListener);
    }
  }

  protected makeReporter(options: ConnectionOptions): Reporter {
    // One id per connection object, so that a session's events can be told apart from another's.
    const sdkServiceId = `sid_${uniqueId()}_${Math.floor(Math.random() * 99_999) + 1}`;
    const reporter = new Reporter({
      url: () => options.dataReportUrl ?? `${this.apiUrl}/${this.orgName}/${this.appName}/sdk/reports`,
      token: () => this.token,
      appId: this.appKey,
      debug: options.dataReportDebug ?? false,
      common: () => ({
        appkey: this.appKey,
        sdkServiceId,
        sdkVersion: SDK_VERSION,
        sdkProduct: 0,
        uid: this.user,
        deviceId: this.clientResource,
      }),
    });
    const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator;
    reporter.add(REPORT_EVENT.INIT, { did: nav?.userAgent ?? "", os: 7 });
    return reporter;
  }

  /** Reports a finished operation when data reports are on. */
  protected report(
    name: string,
    type: string,
    startedAt: number,
    error: unknown,
    extra: Record<string, unknown> = {},
  ): void {
    if (!this.reporter) return;
    const outcome =
      error === undefined
        ? { ok: true, code: 0 }
        : error instanceof ChatSdkError
          ? { ok: false, code: error.type, codeDesc: error.message }
          : { ok: false, code: C.REQUEST_UNKNOWN, codeDesc: error instanceof Error ? error.message : "unknown error" };
    this.reporter.operation(name, type, Date.now() - startedAt, outcome, extra);
  }

  // ---------------------------------------------------------------- events

  /** For the API modules: dispatches an event to every handler set. */
  emit<K extends EventName>(name: K, ...payload: ConnectionEvents[K] extends void ? [] : [ConnectionEvents[K]]): void {
    this.events.dispatch(name, ...payload);
  }

  protected setStatus(s: number): void {
    if (this.status === s) return;
    this.status = s;
    this.events.dispatch("onConnectionStatusChange", s);
  }

  protected write(frame: Decoded): boolean {
    const sock = this.sock;
    if (!sock || sock.readyState !== 1) return false;
    try {
      sock.send(encode(MSync, { version: 0, encryptType: [0], ...frame }));
      return true;
    } catch {
      return false;
    }
  }

  protected guid(): Decoded {
    return { appKey: this.appKey, name: this.user, domain: USER_DOMAIN, clientResource: this.clientResource };
  }

  // ---------------------------------------------------------------- implemented further down the chain

  protected abstract handleOnline(): void;
  protected abstract handleMeta(meta: Decoded, received: ChatMessage[]): void;
  protected abstract loggedIn(reply: Decoded): void;
  protected abstract failLogin(e: ChatSdkError, fatal: boolean): void;
  protected abstract scheduleReconnect(): void;
  protected abstract seen(id: string): boolean;
}
