import { defaultBackend, LocalCache, DEFAULT_MAX_CACHE_LENGTH, type CacheBackend } from "./cache.js";
import {
  ChatSdkError,
  CONVENTIONAL_STATUSES,
  err,
  FATAL_LOGIN_TYPES,
  invalid,
  provisionError,
  sendError,
} from "./errors.js";
import {
  EventRegistry,
  type AckEvent,
  type ContactEvent,
  type EventHandlers,
  type EventName,
  type ConnectionEvents,
  type MucEvent,
} from "./events.js";
import { request, type HttpRequest, type Progress } from "./http.js";
import { uniqueId } from "./ids.js";
import { logger } from "./logger.js";
import { defaultStorage } from "./storage.js";
import {
  applyRoomExt,
  bodyOf,
  contentOf,
  messageFromBody,
  messageFromJson,
  type ChatMessage,
  type ChatType,
  type MessageFields,
} from "./message.js";
import {
  BODY_TYPE,
  COMMAND,
  CommNotice,
  CommSyncDL,
  CommSyncUL,
  CommUnreadDL,
  decode,
  decodeExt,
  encode,
  encodeExt,
  Logout,
  MessageBody,
  MSync,
  MUCBody,
  NS,
  Provision,
  RosterBody,
  StatisticsBody,
  asText,
  type Decoded,
} from "./proto.js";
import { REPORT_EVENT, Reporter } from "./reporter.js";
import { statusCode as C } from "./status.js";

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

interface Pending {
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

interface Jid {
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

const USER_DOMAIN = "easemob.com";
const MUC_DOMAIN = "conference.easemob.com";
const SDK_VERSION = "1.0.0";
/** Operation names in data reports, per kind of acknowledged request. */
const REPORT_OPS: Record<Pending["kind"], [string, string]> = {
  message: ["SEND_MSG", "SENDMESSAGE"],
  recall: ["SEND_RECALL_MSG", "MESSAGE"],
  edit: ["MODIFY_MESSAGE", "MESSAGE"],
  room: ["CHATROOM_OPERATE", "CHATROOM"],
};
/** A pull without an answer is sent again after this long (spec 03 §9, notice timer). */
export const NOTICE_TIMER_MS = 10_000;

const MUC_OPERATIONS: Record<number, string> = {
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
const THREAD_OPERATIONS: Record<number, string> = {
  33: "chatThreadCreate",
  34: "chatThreadDestroy",
  35: "chatThreadJoin",
  36: "chatThreadLeave",
  38: "chatThreadNameUpdate",
};
const ROSTER_EVENTS: Record<number, [EventName, ContactEvent["type"]]> = {
  2: ["onContactInvited", "subscribe"],
  3: ["onContactDeleted", "unsubscribed"],
  4: ["onContactAdded", "subscribed"],
  5: ["onContactRefuse", "unsubscribed"],
  8: ["onContactAgreed", "subscribed"],
  9: ["onContactRefuse", "unsubscribed"],
};
const KICKS: Record<number, [number, string]> = {
  1: [C.WEBIM_CONNCTION_USER_REMOVED, "user has been removed"],
  2: [C.WEBIM_CONNCTION_USER_LOGIN_ANOTHER_DEVICE, "the user is already logged on another device"],
  3: [C.WEBIM_CONNCTION_USER_KICKED_BY_CHANGE_PASSWORD, "the user was kicked by changing password"],
  4: [C.WEBIM_CONNCTION_USER_KICKED_BY_OTHER_DEVICE, "the user was kicked by other device"],
};
const MESSAGE_EVENTS: Record<string, EventName> = {
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

const jidKey = (q: Jid): string => `${q.name ?? ""}@${q.domain ?? ""}/${q.clientResource ?? ""}`;
const utf8 = new TextDecoder();

function toBytes(data: unknown): Uint8Array | undefined {
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
 * One IM connection: socket login, sending and receiving, and (through the API modules mixed into this
 * class) every REST capability of the service. Method and event names follow the published
 * `easemob-websdk` connection.
 */
export class Connection {
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
  private sock: WebSocketLike | undefined;
  private sessionId = "";
  private reconnectAttempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private tokenTimers: ReturnType<typeof setTimeout>[] = [];
  private loginTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReceived = 0;
  private inFlight = new Map<string, Pending>();
  private queue: Pending[] = [];
  private pulls: Jid[] = [];
  private pulling: string | undefined;
  private pullAgain = new Set<string>();
  private lastKeys = new Map<string, string>();
  private pullTimer: ReturnType<typeof setTimeout> | undefined;
  private recentIds: string[] = [];
  private loginWaiters: { resolve: () => void; reject: (e: ChatSdkError) => void }[] = [];
  private kickError: ChatSdkError | undefined;
  private restFailures = 0;
  private offlineSyncDone = false;
  private tokenExpiresAt = 0;
  private reconnectStartedAt = 0;
  private readonly onlineListener = (): void => this.handleOnline();
  private readonly offlineListener = (): void => this.events.dispatch("onOffline");

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

  private makeReporter(options: ConnectionOptions): Reporter {
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
  private report(
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

  addEventHandler(id: string, handlers: EventHandlers): void {
    this.events.add(id, handlers);
  }

  removeEventHandler(id: string): void {
    this.events.remove(id);
  }

  /** For the API modules: dispatches an event to every handler set. */
  emit<K extends EventName>(name: K, ...payload: ConnectionEvents[K] extends void ? [] : [ConnectionEvents[K]]): void {
    this.events.dispatch(name, ...payload);
  }

  private setStatus(s: number): void {
    if (this.status === s) return;
    this.status = s;
    this.events.dispatch("onConnectionStatusChange", s);
  }

  isOpened(): boolean {
    return this.status === STATUS.OPENED;
  }

  // ---------------------------------------------------------------- login

  /**
   * Logs in: with `pwd` the token comes from `POST /{org}/{app}/token` first; with `accessToken` the
   * socket login uses it directly. Resolves once the socket login succeeded.
   */
  async open(opts: {
    user: string;
    pwd?: string;
    accessToken?: string;
  }): Promise<{ accessToken: string; duration?: number }> {
    if (!this.orgName || !this.appName) throw err(C.WEBIM_CONNCTION_APPKEY_NOT_ASSIGN_ERROR, "the appKey is illegal");
    if (!opts || typeof opts.user !== "string" || opts.user === "") {
      throw err(C.WEBIM_CONNCTION_USER_NOT_ASSIGN_ERROR, "the user cannot be empty");
    }
    const hasPwd = typeof opts.pwd === "string" && opts.pwd !== "";
    const hasToken = typeof opts.accessToken === "string" && opts.accessToken !== "";
    if (!hasPwd && !hasToken) throw err(C.WEBIM_CONNCTION_OPEN_ERROR, "the accessToken or pwd is illegal");
    if (this.status === STATUS.OPENED) throw err(C.WEBIM_USER_ALREADY_LOGIN, "The user has logged in.");
    if (this.status === STATUS.DOLOGIN_IM || this.status === STATUS.DOLOGIN_USERGRID) {
      throw err(C.WEBIM_USER_ALREADY_LOGIN, "Currently logging in, please wait.");
    }
    const startedAt = Date.now();
    try {
      const result = await this.logIn(opts, hasPwd);
      this.report("USER_LOGIN", "MANUALLOGIN", startedAt, undefined, { loginType: hasPwd ? "password" : "token" });
      return result;
    } catch (e) {
      this.report("USER_LOGIN", "MANUALLOGIN", startedAt, e, { loginType: hasPwd ? "password" : "token" });
      throw e;
    }
  }

  /** open() after its parameter checks: the token (password grant) if needed, then the socket login. */
  private async logIn(
    opts: { user: string; pwd?: string; accessToken?: string },
    hasPwd: boolean,
  ): Promise<{ accessToken: string; duration?: number }> {
    if (this.options.isHttpDNS) await this.discover();
    const user = opts.user.toLowerCase();
    let duration: number | undefined;
    let token = opts.accessToken ?? "";
    if (hasPwd) {
      this.setStatus(STATUS.DOLOGIN_USERGRID);
      try {
        const reply = await request<{ access_token: string; expires_in: number }>({
          method: "POST",
          url: `${this.apiUrl}/${this.orgName}/${this.appName}/token`,
          body: { grant_type: "password", username: user, password: opts.pwd, timestamp: Date.now() },
        });
        token = reply.access_token;
        duration = reply.expires_in;
      } catch (e) {
        const inner = e instanceof ChatSdkError ? e : err(C.REQUEST_UNKNOWN, String(e));
        const failure = err(C.WEBIM_CONNCTION_OPEN_ERROR, inner.message, inner);
        this.setStatus(STATUS.ERROR);
        this.events.dispatch("onError", failure);
        throw failure;
      }
    }
    this.user = user;
    this.token = token;
    this.context = {
      ...this.context,
      userId: user,
      accessToken: token,
      jid: { appKey: this.appKey, name: user, domain: USER_DOMAIN },
    };
    this.clientResource ||= this.makeResource();
    this.logOut = false;
    this.kickError = undefined;
    this.reconnectAttempts = 0;
    await this.loginSocket();
    return duration === undefined ? { accessToken: token } : { accessToken: token, duration };
  }

  private makeResource(): string {
    if (this.options.deviceId) return `webim_${this.options.deviceId}`;
    const store = defaultStorage();
    const saved = store.getItem("tessera-im-sdk:device");
    if (saved) return saved;
    const made = `webim_web_${Date.now()}${Math.floor(Math.random() * 1000)}`;
    store.setItem("tessera-im-sdk:device", made);
    return made;
  }

  /** Opens the socket and resolves on a successful provision reply (rejects on a fatal failure). */
  private loginSocket(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.loginWaiters.push({ resolve, reject });
      this.connectSocket();
    });
  }

  private connectSocket(): void {
    const WS = this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
    if (!WS) {
      this.failLogin(err(C.WEBIM_CONNECTION_ERROR, "no WebSocket available: pass the WebSocket option"), true);
      return;
    }
    this.setStatus(STATUS.DOLOGIN_IM);
    let sock: WebSocketLike;
    try {
      sock = new WS(this.url);
    } catch (e) {
      this.failLogin(err(C.WEBIM_CONNECTION_ERROR, `on socket error: ${String(e)}`), false);
      return;
    }
    this.sock = sock;
    sock.binaryType = "arraybuffer";
    this.armLoginTimer(sock, "connection timeout");
    sock.onopen = () => {
      if (this.sock !== sock) return;
      this.sendProvision();
      this.armLoginTimer(sock, "provision timeout");
    };
    sock.onmessage = (ev) => {
      if (this.sock !== sock) return;
      const bytes = toBytes(ev.data);
      if (!bytes) return;
      this.lastReceived = Date.now();
      try {
        this.handleFrame(bytes);
      } catch (e) {
        logger.error("decode message error", e);
        this.events.dispatch("onError", err(C.WEBIM_CONNCTION_CALLBACK_INNER_ERROR, "decode message fail."));
      }
    };
    sock.onerror = () => {
      logger.debug("socket error");
    };
    sock.onclose = () => {
      if (this.sock !== sock) return;
      this.handleClose();
    };
  }

  private armLoginTimer(sock: WebSocketLike, reason: string): void {
    clearTimeout(this.loginTimer);
    this.loginTimer = setTimeout(() => {
      if (this.sock !== sock || this.status === STATUS.OPENED) return;
      logger.warn(reason);
      sock.close();
    }, 10_000);
  }

  private write(frame: Decoded): boolean {
    const sock = this.sock;
    if (!sock || sock.readyState !== 1) return false;
    try {
      sock.send(encode(MSync, { version: 0, encryptType: [0], ...frame }));
      return true;
    } catch {
      return false;
    }
  }

  private guid(): Decoded {
    return { appKey: this.appKey, name: this.user, domain: USER_DOMAIN, clientResource: this.clientResource };
  }

  private sendProvision(): void {
    this.sessionId = `${Date.now()}:`;
    const provision = encode(Provision, {
      osType: 16,
      version: SDK_VERSION,
      compressType: [0],
      encryptType: [0],
      deviceUuid: this.clientResource,
      deviceName: "webim",
      resource: this.clientResource,
      actionVersion: "v5.2",
      authToken: JSON.stringify({ token: `$t$${this.token}` }),
      sessionId: this.sessionId,
    });
    this.write({
      guid: this.guid(),
      auth: `$t$${this.token}`,
      command: COMMAND.PROVISION,
      deviceId: 0,
      payload: provision,
    });
  }

  private failLogin(e: ChatSdkError, fatal: boolean): void {
    this.events.dispatch("onError", e);
    if (fatal) {
      this.logOut = true;
      this.setStatus(STATUS.ERROR);
      const waiters = this.loginWaiters.splice(0);
      for (const w of waiters) w.reject(e);
      this.rejectAll(err(C.MESSAGE_WEBSOCKET_DISCONNECTED, "websocket disconnected"));
      const sock = this.sock;
      this.sock = undefined;
      sock?.close();
      return;
    }
    this.sock?.close();
  }

  private loggedIn(reply: Decoded): void {
    clearTimeout(this.loginTimer);
    if (this.reconnectStartedAt) {
      this.report("RECONNECT", "OPERATION", this.reconnectStartedAt, undefined, { attempts: this.reconnectAttempts });
      this.reconnectStartedAt = 0;
    }
    this.clientResource = asText(reply.resource, this.clientResource);
    this.context.jid = {
      appKey: this.appKey,
      name: this.user,
      domain: USER_DOMAIN,
      clientResource: this.clientResource,
    };
    this.reconnectAttempts = 0;
    this.logOut = false;
    this.offlineSyncDone = false;
    this.setStatus(STATUS.OPENED);
    if (this.cache) void this.cache.start(this.user);
    this.scheduleTokenTimers(reply.authToken as string | undefined);
    this.events.dispatch("onConnected");
    for (const w of this.loginWaiters.splice(0)) w.resolve();
    this.flushQueue();
    this.startHeartbeat();
    this.write({ command: COMMAND.UNREAD });
  }

  private scheduleTokenTimers(authToken: string | undefined): void {
    if (authToken) {
      try {
        const at = Number((JSON.parse(authToken) as { expires_in?: number }).expires_in);
        if (Number.isFinite(at) && at > 0) this.tokenExpiresAt = at;
      } catch {
        // No expiry in the reply: keep what the token call said.
      }
    }
    this.setTokenExpiry(this.tokenExpiresAt);
  }

  /**
   * Token expiry: `onTokenWillExpire` at half the remaining lifetime, `onTokenExpired` and a close at the
   * full lifetime (spec 03 §4).
   */
  setTokenExpiry(expiresAt: number): void {
    for (const t of this.tokenTimers) clearTimeout(t);
    this.tokenTimers = [];
    this.tokenExpiresAt = expiresAt;
    if (!expiresAt) return;
    const left = expiresAt - Date.now();
    const cap = 2 ** 31 - 1;
    if (left <= 0) {
      this.tokenExpired();
      return;
    }
    if (left / 2 <= cap) this.tokenTimers.push(setTimeout(() => this.events.dispatch("onTokenWillExpire"), left / 2));
    if (left <= cap) this.tokenTimers.push(setTimeout(() => this.tokenExpired(), left));
  }

  private tokenExpired(): void {
    this.events.dispatch("onTokenExpired");
    this.close("inner:token expired");
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    const every = this.options.heartBeatWait;
    this.heartbeatTimer = setInterval(() => {
      if (Date.now() - this.lastReceived >= every) this.write({ command: COMMAND.UNREAD });
    }, every);
  }

  private handleClose(): void {
    this.sock = undefined;
    clearTimeout(this.loginTimer);
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.pullTimer);
    this.pulls = [];
    this.pulling = undefined;
    this.pullAgain.clear();
    // Unacknowledged sends go out again after the next login, in their order, with the same ids (the
    // server drops a repeat of an id it already stored).
    const again: Pending[] = [];
    for (const p of this.inFlight.values()) {
      clearTimeout(p.timer);
      if (p.kind === "room") p.reject(err(C.MESSAGE_WEBSOCKET_DISCONNECTED, "websocket disconnected"));
      else again.push(p);
    }
    this.inFlight.clear();
    this.queue.unshift(...again);
    if (this.logOut) {
      this.setStatus(STATUS.CLOSED);
      this.rejectAll(this.kickError ?? err(C.WEBIM_CONNCTION_DISCONNECTED, "websocket has been disconnected"));
      for (const w of this.loginWaiters.splice(0)) {
        w.reject(this.kickError ?? err(C.WEBIM_CONNCTION_DISCONNECTED, "websocket has been disconnected"));
      }
      this.events.dispatch("onDisconnected", this.kickError);
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    if (this.reconnectAttempts >= this.options.autoReconnectNumMax) {
      const e = err(C.WEBIM_CONNCTION_DISCONNECTED, "reconnection failed");
      if (this.reconnectStartedAt) {
        this.report("RECONNECT", "OPERATION", this.reconnectStartedAt, e, { attempts: this.reconnectAttempts });
      }
      this.reconnectStartedAt = 0;
      this.logOut = true;
      this.setStatus(STATUS.CLOSED);
      this.rejectAll(err(C.MESSAGE_WEBSOCKET_DISCONNECTED, "websocket disconnected"));
      for (const w of this.loginWaiters.splice(0)) w.reject(e);
      this.events.dispatch("onDisconnected", e);
      return;
    }
    this.reconnectAttempts += 1;
    this.reconnectStartedAt ||= Date.now();
    const attempt = this.reconnectAttempts;
    this.setStatus(STATUS.CLOSED);
    this.events.dispatch("onReconnecting");
    const delay = this.options.reconnectDelay ? this.options.reconnectDelay(attempt) : 500 * attempt;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.logOut) return;
      const refresh = this.options.isHttpDNS && attempt % 5 === 0 ? this.discover() : Promise.resolve();
      void refresh.catch(() => undefined).then(() => this.connectSocket());
    }, delay);
  }

  private handleOnline(): void {
    this.events.dispatch("onOnline");
    if (!this.logOut && !this.sock && this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.connectSocket();
    }
  }

  private rejectAll(e: ChatSdkError): void {
    for (const p of this.queue.splice(0)) {
      if (p.message) p.message.status = "FAIL";
      p.reject(e);
    }
    for (const p of this.inFlight.values()) {
      clearTimeout(p.timer);
      if (p.message) p.message.status = "FAIL";
      p.reject(e);
    }
    this.inFlight.clear();
  }

  /** Closes the connection (logs out of the socket); no reconnect follows. */
  close(reason = "inner:logout"): void {
    this.logOut = true;
    this.reconnectStartedAt = 0;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    for (const t of this.tokenTimers) clearTimeout(t);
    this.tokenTimers = [];
    const sock = this.sock;
    if (!sock) {
      const wasOpen = this.status !== STATUS.CLOSED && this.status !== STATUS.INIT;
      this.setStatus(STATUS.CLOSED);
      this.rejectAll(err(C.WEBIM_CONNECTION_CLOSED, "not login"));
      if (wasOpen) this.events.dispatch("onDisconnected", undefined);
      return;
    }
    this.setStatus(STATUS.CLOSING);
    this.write({
      guid: this.guid(),
      auth: `$t$${this.token}`,
      command: COMMAND.LOGOUT,
      payload: encode(Logout, { sessionId: this.sessionId, reason }),
    });
    sock.close();
    const g = globalThis as { removeEventListener?: (t: string, f: () => void) => void };
    g.removeEventListener?.("online", this.onlineListener);
    g.removeEventListener?.("offline", this.offlineListener);
  }

  /** Server discovery: `GET {dnsUrl}/easemob/server.json?app_key=…` names the REST and websocket hosts. */
  private async discover(): Promise<void> {
    const dns = this.options.dnsUrl;
    if (!dns) throw err(C.SERVER_GET_DNSLIST_FAILED, "get DNS failed");
    type Host = { protocol?: string; domain?: string; ip?: string; port?: number };
    let reply: { rest?: { hosts?: Host[] }; "msync-wx"?: { hosts?: Host[] } };
    try {
      reply = await request({ method: "GET", url: `${dns}/easemob/server.json`, query: { app_key: this.appKey } });
    } catch {
      throw err(C.SERVER_GET_DNSLIST_FAILED, "get DNS failed");
    }
    const rest = reply.rest?.hosts?.[0];
    const ws = reply["msync-wx"]?.hosts?.[0];
    if (!rest?.domain) throw err(C.SERVER_GET_DNSLIST_FAILED, "DNS hosts resolution failed");
    if (!ws?.domain) throw err(C.SERVER_GET_DNSLIST_FAILED, "DNS msync-wx resolution failed");
    const port = (h: Host): string => (h.port && h.port !== 80 && h.port !== 443 ? `:${h.port}` : "");
    this.apiUrl = `${rest.protocol ?? "https"}://${rest.domain}${port(rest)}`;
    this.url = `${ws.protocol === "http" ? "ws" : ws.protocol === "https" ? "wss" : (ws.protocol ?? "wss")}://${ws.domain}${port(ws)}/websocket`;
  }

  // ---------------------------------------------------------------- frames

  private handleFrame(bytes: Uint8Array): void {
    const frame = decode(MSync, bytes);
    const payload = frame.payload instanceof Uint8Array ? frame.payload : new Uint8Array();
    switch (Number(frame.command ?? 0)) {
      case COMMAND.PROVISION: {
        const reply = decode(Provision, payload);
        const status = (reply.status as Decoded | undefined) ?? {};
        const code = Number(status.errorCode ?? 0);
        if (code === 0) this.loggedIn(reply);
        else {
          const e = provisionError(code, asText(status.reason));
          this.failLogin(e, FATAL_LOGIN_TYPES.includes(e.type));
        }
        return;
      }
      case COMMAND.UNREAD: {
        const unread = decode(CommUnreadDL, payload);
        const queues = (unread.unread as Decoded[]).map((u) => u.queue as Jid).filter(Boolean);
        if (queues.length > 0 && !this.offlineSyncDone) this.events.dispatch("onOfflineMessageSyncStart");
        for (const q of queues) this.enqueuePull(q);
        return;
      }
      case COMMAND.NOTICE: {
        const q = decode(CommNotice, payload).queue as Jid | undefined;
        if (!q) return;
        if (q.name === this.user && q.clientResource === this.clientResource) return;
        this.enqueuePull(q);
        return;
      }
      case COMMAND.SYNC: {
        const dl = decode(CommSyncDL, payload);
        const metaId = asText(dl.metaId, "0");
        if (metaId !== "0") this.handleAck(metaId, dl);
        else this.handlePull(dl);
        return;
      }
      default:
        return;
    }
  }

  private enqueuePull(q: Jid): void {
    const key = jidKey(q);
    if (this.pulling === key) {
      this.pullAgain.add(key);
      return;
    }
    if (this.pulls.some((p) => jidKey(p) === key)) return;
    this.pulls.push(q);
    if (!this.pulling) this.nextPull();
  }

  private nextPull(): void {
    const q = this.pulls.shift();
    if (!q) {
      this.pulling = undefined;
      clearTimeout(this.pullTimer);
      if (!this.offlineSyncDone) {
        this.offlineSyncDone = true;
        this.events.dispatch("onOfflineMessageSyncFinish");
      }
      return;
    }
    this.pulling = jidKey(q);
    this.pull(q);
  }

  /** Sends a pull; without an answer within NOTICE_TIMER_MS the same pull goes out again. */
  private pull(q: Jid): void {
    const key = jidKey(q);
    const last = this.lastKeys.get(key);
    clearTimeout(this.pullTimer);
    this.pullTimer = setTimeout(() => {
      if (this.pulling === key && this.status === STATUS.OPENED) this.pull(q);
    }, NOTICE_TIMER_MS);
    this.write({ command: COMMAND.SYNC, payload: encode(CommSyncUL, { queue: q, ...(last && { key: last }) }) });
  }

  private handlePull(dl: Decoded): void {
    const q = (dl.queue as Jid | undefined) ?? {};
    const key = jidKey(q);
    const metas = (dl.metas as Decoded[]) ?? [];
    const received: ChatMessage[] = [];
    for (const m of metas) {
      try {
        this.handleMeta(m, received);
      } catch (e) {
        logger.error("on message error", e);
      }
    }
    if (received.length > 0) {
      this.events.dispatch(
        "onMessage",
        received.filter((m) => m.type !== "cmd"),
      );
    }
    const nextKey = dl.nextKey as string | undefined;
    const previous = this.lastKeys.get(key);
    if (nextKey && nextKey !== "0") this.lastKeys.set(key, nextKey);
    if (this.pulling !== key) {
      // An unsolicited batch (the server pushed a clean queue's new entries): pull once more with its
      // key, as a pull reply would be followed, which acknowledges them. Unacknowledged, they would all
      // come again after the next reconnect.
      if (metas.length > 0 && !dl.isLast) this.enqueuePull(q);
      return;
    }
    clearTimeout(this.pullTimer);
    const done = Boolean(dl.isLast) && metas.length === 0;
    const stuck = metas.length === 0 && nextKey === previous;
    if (!done && !stuck) {
      this.pull(q);
      return;
    }
    if (this.pullAgain.delete(key)) this.pulls.push(q);
    this.nextPull();
  }

  private seen(id: string): boolean {
    if (this.recentIds.includes(id)) return true;
    this.recentIds.push(id);
    const cap = Math.max(this.options.max_cache_length ?? DEFAULT_MAX_CACHE_LENGTH, 100);
    if (this.recentIds.length > cap) this.recentIds.shift();
    return false;
  }

  private handleMeta(meta: Decoded, received: ChatMessage[]): void {
    const payload = meta.payload instanceof Uint8Array ? meta.payload : new Uint8Array();
    switch (Number(meta.ns ?? 0)) {
      case NS.CHAT:
        this.handleChat(meta, decode(MessageBody, payload), received);
        return;
      case NS.MUC:
        this.handleMuc(decode(MUCBody, payload));
        return;
      case NS.ROSTER: {
        const r = decode(RosterBody, payload);
        const ev = ROSTER_EVENTS[Number(r.operation)];
        if (!ev) return;
        const to = (r.to as Jid[])[0]?.name ?? "";
        this.events.dispatch(ev[0] as "onContactInvited", {
          type: ev[1],
          from: asText((r.from as Jid | undefined)?.name),
          to,
          status: asText(r.reason),
        });
        return;
      }
      case NS.NOTIFY:
        this.handleNotify(utf8.decode(payload));
        return;
      case NS.STATISTIC: {
        const s = decode(StatisticsBody, payload);
        const kick = KICKS[Number(s.operation ?? 0)];
        if (!kick) {
          this.events.dispatch("onStatisticMessage", s);
          return;
        }
        this.logOut = true;
        this.kickError = err(kick[0], kick[1], s.reason ? { loginInfoCustomExt: s.reason } : undefined);
        this.events.dispatch("onError", this.kickError);
        return;
      }
      default:
        return;
    }
  }

  private handleChat(meta: Decoded, body: Decoded, received: ChatMessage[]): void {
    const id = String(meta.id);
    const time = Number(meta.timestamp ?? 0);
    const from = asText((body.from as Jid | undefined)?.name);
    const to = asText((body.to as Jid | undefined)?.name);
    const type = Number(body.type ?? 0);
    let onlineState = 3;
    if (meta.meta instanceof Uint8Array && meta.meta.length > 0) {
      try {
        const j = JSON.parse(utf8.decode(meta.meta)) as { is_online?: number };
        onlineState = j.is_online === 0 ? 0 : j.is_online === 1 ? 1 : 2;
      } catch {
        // Not JSON: no online state.
      }
    }
    const ack: AckEvent = { id, from, to, onlineState };
    switch (type) {
      case BODY_TYPE.READ_ACK: {
        const ev: AckEvent = { ...ack, type: "read", mid: asText(body.ackMessageId) };
        const first = (body.ext as Decoded[])[0];
        if (first?.stringValue) {
          try {
            ev.groupReadCount = JSON.parse(asText(first.stringValue));
            ev.ackContent = asText(body.ackContent);
          } catch {
            // Not a group read ack.
          }
        }
        this.events.dispatch("onReadMessage", ev);
        return;
      }
      case BODY_TYPE.DELIVER_ACK:
        this.events.dispatch("onDeliveredMessage", { ...ack, type: "delivery", mid: asText(body.ackMessageId) });
        return;
      case BODY_TYPE.RECALL: {
        const mid = asText(body.ackMessageId);
        const ext = (meta.ext as Decoded[]).find((kv) => kv.key === "recallMessageExtensionInfo");
        this.cache?.recall(mid);
        this.events.dispatch("onRecallMessage", {
          ...ack,
          from: from || "admin",
          mid,
          ...(ext && { ext: ext.stringValue }),
        });
        return;
      }
      case BODY_TYPE.CHANNEL_ACK:
        this.events.dispatch("onChannelMessage", { ...ack, type: "channel", chatType: "singleChat", time });
        return;
      case BODY_TYPE.EDIT: {
        const edited = this.editedMessage(body, asText(body.editMessageId));
        this.cache?.update(edited);
        this.events.dispatch("onModifiedMessage", edited);
        return;
      }
      default:
        break;
    }
    if (this.seen(id)) return;
    const msg = messageFromBody(body, id, time, this.apiUrl);
    msg.onlineState = onlineState;
    if (msg.chatType === "chatRoom") {
      const mf = meta.from as Jid | undefined;
      if (mf?.name === this.user && mf.clientResource === this.clientResource) return;
      msg.onlineState = 1;
      applyRoomExt(msg, meta.ext);
      msg.priority ??= "normal";
    }
    const mt = meta.to as Jid | undefined;
    if (mt?.clientResource && msg.chatType === "singleChat") msg.to = `${msg.to}/${mt.clientResource}`;
    if (msg.from === this.user && msg.to === this.user) {
      const mf = meta.from as Jid | undefined;
      if (mf?.clientResource && mf.clientResource !== this.clientResource) {
        msg.from = `${msg.from}/${mf.clientResource}`;
      }
    }
    this.cache?.put(msg);
    const event = MESSAGE_EVENTS[msg.type];
    if (event) this.events.dispatch(event as "onTextMessage", msg);
    received.push(msg);
    if (this.options.delivery && msg.chatType === "singleChat" && msg.from !== this.user) {
      const receipt: ChatMessage = {
        type: "delivery",
        to: msg.from,
        ackId: id,
        chatType: "singleChat",
        id: uniqueId(),
        from: this.user,
        time: Date.now(),
      };
      void this.send(receipt).catch(() => undefined);
    }
  }

  private editedMessage(body: Decoded, id: string): ChatMessage {
    const m = messageFromBody(body, id, 0, this.apiUrl);
    try {
      const j = JSON.parse(asText(body.meta, "{}")) as {
        edit_msg?: { sender?: string; send_time?: number; chat_type?: string };
      };
      const e = j.edit_msg;
      if (e) {
        m.from = e.sender ?? m.from;
        m.time = Number(e.send_time ?? 0);
        const ct = e.chat_type ?? "";
        m.chatType = ct.endsWith("group") ? "groupChat" : ct.endsWith("room") ? "chatRoom" : "singleChat";
      }
    } catch {
      // Keep what the body says.
    }
    return m;
  }

  private handleMuc(b: Decoded): void {
    const op = Number(b.operation ?? 0);
    const from = asText((b.from as Jid | undefined)?.name);
    const id = asText((b.mucId as Jid | undefined)?.name);
    const to = ((b.to as Jid[]) ?? []).map((j) => asText(j.name));
    const parentId = asText((b.mucParentId as Jid | undefined)?.name);
    if (b.isThread || THREAD_OPERATIONS[op] || op === 37) {
      if (op === 37) {
        this.events.dispatch("onChatThreadChange", {
          id,
          name: b.mucName,
          operation: "userRemove",
          parentId,
          operator: from,
          userName: to[0] ?? "",
        });
      } else if (THREAD_OPERATIONS[op]) {
        this.events.dispatch("onMultiDeviceEvent", {
          operation: THREAD_OPERATIONS[op],
          chatThreadId: id,
          chatThreadName: b.mucName,
          parentId,
        });
      }
      return;
    }
    const operation = MUC_OPERATIONS[op];
    if (!operation) return;
    const ev: MucEvent = { operation, id, from };
    const ext = asText(b.ext);
    const info = (b.eventInfo as Decoded | undefined)?.ext as string | undefined;
    const parse = (t: string | undefined): Record<string, unknown> => {
      try {
        return t ? (JSON.parse(t) as Record<string, unknown>) : {};
      } catch {
        return {};
      }
    };
    if (b.reason) ev.reason = asText(b.reason);
    if (
      to[0] &&
      [
        "joinPublicGroupDeclined",
        "setAdmin",
        "removeAdmin",
        "muteMember",
        "unmuteMember",
        "addUserToAllowlist",
        "removeAllowlistMember",
      ].includes(operation)
    ) {
      ev.userId = to[0];
    }
    if (operation === "muteMember") ev.muteTimestamp = Number(parse(ext).user_mute_time ?? 0);
    if (operation === "inviteToJoin" || operation === "directJoined") ev.name = asText(b.mucName);
    if (operation === "updateAnnouncement") ev.announcement = asText(b.reason);
    if (operation === "memberPresence" || operation === "memberAbsence") {
      ev.memberCount = Number(b.mucMemberCount ?? 0);
      if (ext) ev.ext = ext;
    }
    if (operation === "updateInfo" && !b.isChatroom) {
      const d = parse(info);
      const bool = (v: unknown): boolean | undefined => (v === undefined ? undefined : v === true || v === "true");
      ev.detail = {
        name: d.name ?? d.title,
        description: d.description,
        public: bool(d.public),
        approval: bool(d.members_only),
        allowInvites: bool(d.allow_user_invites),
        maxUsers: d.max_users === undefined ? undefined : Number(d.max_users),
        inviteNeedConfirm: bool(d.invite_need_confirm),
        ext: d.custom,
        lastModified: d.last_modified === undefined ? undefined : Number(d.last_modified),
      };
    }
    if (operation === "updateChatRoomAttributes" || operation === "removeChatRoomAttributes") {
      const d = parse(info) as { result?: { successKeys?: string[] }; properties?: Record<string, string> };
      const keys = d.result?.successKeys ?? [];
      if (keys.length === 0) return;
      ev.attributes =
        operation === "updateChatRoomAttributes" ? Object.fromEntries(keys.map((k) => [k, d.properties?.[k]])) : keys;
    }
    if (operation === "memberAttributesUpdate") {
      const d = parse(info) as { properties?: unknown; username?: string };
      ev.attributes = d.properties ?? {};
      ev.userId = d.username ?? "";
      // The user's own change made on another device is a multi-device event, as in the published client.
      const fromJid = b.from as Jid | undefined;
      if (from === this.user && fromJid?.clientResource !== this.clientResource) {
        this.events.dispatch("onMultiDeviceEvent", ev);
        return;
      }
    }
    const members = (b.members as string[]) ?? [];
    const event = b.isChatroom ? "onChatroomEvent" : "onGroupEvent";
    if (members.length > 0 && (operation === "memberPresence" || operation === "memberAbsence")) {
      if (b.isChatroom) for (const m of members) this.events.dispatch(event, { ...ev, from: m });
      else {
        this.events.dispatch(event, {
          ...ev,
          operation: operation === "memberPresence" ? "membersPresence" : "membersAbsence",
          members,
        });
      }
      return;
    }
    this.events.dispatch(event, ev);
  }

  private handleNotify(text: string): void {
    let n: { type?: string; data?: unknown; values?: unknown[] };
    try {
      n = JSON.parse(text) as typeof n;
    } catch {
      return;
    }
    switch (n.type) {
      case "presence": {
        const values = ((n.data as { values?: Record<string, unknown>[] } | undefined)?.values ?? []).map((v) => ({
          userId: asText(v.uid),
          lastTime: Number(v.last_time ?? 0),
          expire: Number(v.expiry ?? 0),
          ext: asText(v.ext),
          statusDetails: Object.entries((v.status as Record<string, string> | undefined) ?? {}).map(
            ([device, status]) => ({ device, status: Number(status) }),
          ),
        }));
        this.events.dispatch("onPresenceStatusChange", values);
        return;
      }
      case "reaction":
        for (const r of (n.data as Record<string, unknown>[] | undefined) ?? []) {
          this.events.dispatch("onReactionChange", {
            from: r.from,
            to: r.to,
            chatType: r.channel_type === "chat" ? "singleChat" : "groupChat",
            messageId: r.messageId,
            reactions: r.reactions,
            ts: r.ts,
          });
        }
        return;
      case "thread": {
        const d = (n.data as Record<string, unknown> | undefined) ?? {};
        const ops: Record<string, string> = {
          create: "create",
          update_msg: "update",
          update: "update",
          delete: "destroy",
        };
        this.events.dispatch("onChatThreadChange", {
          id: d.id,
          name: d.name,
          parentId: d.muc_parent_id,
          messageId: d.msg_parent_id,
          timestamp: d.timestamp,
          operator: d.from,
          operation: ops[String(d.operation)] ?? String(d.operation),
          messageCount: d.message_count,
          ...(d.last_message ? { lastMessage: messageFromJson(d.last_message as Record<string, unknown>) } : {}),
        });
        return;
      }
      case "roaming_delete": {
        const d = (n.data as { resource?: string; to?: string; chatType?: string } | undefined) ?? {};
        if (d.resource === this.clientResource) return;
        this.events.dispatch("onMultiDeviceEvent", {
          operation: "deleteRoaming",
          conversationId: d.to,
          chatType: d.chatType === "chat" ? "singleChat" : "groupChat",
          resource: d.resource,
        });
        return;
      }
      case "conv": {
        const d =
          (n.data as
            | { op?: string; id?: string; type?: string; ts?: number; ext?: string; from?: string; res?: string }
            | undefined) ?? {};
        if (d.res === this.clientResource && d.from === this.user) return;
        const conversationType: ChatType = d.type === "chat" ? "singleChat" : "groupChat";
        if (d.op === "pin" || d.op === "pin_delete") {
          this.events.dispatch("onMessagePinEvent", {
            messageId: d.ext,
            conversationId: d.type === "chat" ? d.from : d.id,
            conversationType,
            operation: d.op === "pin" ? "pin" : "unpin",
            operatorId: d.from,
            time: d.ts,
          });
          return;
        }
        const ops: Record<string, string> = {
          del: "deleteConversation",
          top: "pinnedConversation",
          not_top: "unpinnedConversation",
          mark: "markConversation",
          mark_delete: "unMarkConversation",
        };
        const operation = ops[d.op ?? ""];
        if (!operation) return;
        const mark = d.op?.startsWith("mark") ? { conversationMark: Number(asText(d.ext).replace("mark_", "")) } : {};
        this.events.dispatch("onMultiDeviceEvent", {
          operation,
          conversationId: d.id,
          conversationType,
          timestamp: d.ts,
          ...mark,
        });
        return;
      }
      case "user_notification_mute":
        this.handleSilentModeNotify(n.values);
        return;
      case undefined:
      default:
        return;
    }
  }

  /**
   * Silent mode changed on another device of this user: each entry names the operating device, the
   * setting and the conversation (`user` or `group`) it concerns. An entry with an `ignoreInterval` is the
   * all-conversations setting; an empty setting means the conversation's setting was removed. Entries
   * from this device are its own changes.
   */
  private handleSilentModeNotify(values: unknown[] | undefined): void {
    for (const raw of values ?? []) {
      if (!raw || typeof raw !== "object") continue;
      const v = raw as { operator_resource?: string; data?: Record<string, unknown>; user?: string; group?: string };
      if (v.operator_resource === this.clientResource) continue;
      const data = v.data && typeof v.data === "object" ? v.data : {};
      const resource = v.operator_resource;
      if ("ignoreInterval" in data) {
        this.events.dispatch("onMultiDeviceEvent", { operation: "setSilentModeForUser", resource, data });
        continue;
      }
      const operation =
        Object.keys(data).length === 0 ? "removeSilentModeForConversation" : "setSilentModeForConversation";
      const conversation =
        "group" in v ? { conversationId: v.group, type: "groupChat" } : { conversationId: v.user, type: "singleChat" };
      this.events.dispatch("onMultiDeviceEvent", { operation, resource, ...conversation, data });
    }
  }

  // ---------------------------------------------------------------- sending

  private handleAck(metaId: string, dl: Decoded): void {
    const p = this.inFlight.get(metaId);
    if (!p) return;
    this.inFlight.delete(metaId);
    clearTimeout(p.timer);
    const status = (dl.status as Decoded | undefined) ?? {};
    const code = Number(status.errorCode ?? 0);
    const serverId = asText(dl.serverId, "0");
    if (code !== 0) {
      if (p.message) p.message.status = "FAIL";
      p.reject(sendError(code, asText(status.reason), p.kind === "room" ? "" : { id: p.id, mid: serverId }));
      return;
    }
    const time = Number(dl.timestamp ?? 0);
    const metas = (dl.metas as Decoded[]) ?? [];
    switch (p.kind) {
      case "room": {
        if (!p.join) {
          p.resolve({ type: 0, data: { result: true } });
          return;
        }
        let info: Record<
          string,
          {
            is_all_mute?: boolean;
            create_timestamp?: number;
            is_in_white_list?: boolean;
            member_count?: number;
            mute_duration?: number;
          }
        > = {};
        try {
          const body = decode(MUCBody, metas[0]?.payload instanceof Uint8Array ? metas[0].payload : new Uint8Array());
          info = JSON.parse(asText((body.status as Decoded | undefined)?.chatroomInfo, "{}")) as typeof info;
        } catch {
          // No room info in the ack.
        }
        const mine = info[this.user] ?? Object.values(info)[0] ?? {};
        p.resolve({
          type: 0,
          data: {
            action: "apply",
            id: p.roomId,
            result: true,
            user: this.user,
            info: {
              isAllMembersMuted: Boolean(mine.is_all_mute),
              createTimestamp: Number(mine.create_timestamp ?? 0),
              isInAllowlist: Boolean(mine.is_in_white_list),
              memberCount: Number(mine.member_count ?? 0),
              muteExpireTimestamp: mine.mute_duration ?? -1,
            },
          },
        });
        return;
      }
      case "recall":
        p.resolve({ localMsgId: p.id, serverMsgId: serverId });
        return;
      case "edit": {
        const body = decode(MessageBody, p.meta.payload as Uint8Array);
        const message = messageFromBody(body, asText(body.editMessageId), 0, this.apiUrl);
        const notify = metas.find((m) => Number(m.ns) === NS.NOTIFY);
        if (notify?.payload instanceof Uint8Array) {
          try {
            const e = (
              JSON.parse(utf8.decode(notify.payload)) as {
                edit_msg?: {
                  count?: number;
                  operator?: string;
                  edit_time?: number;
                  sender?: string;
                  send_time?: number;
                  chat_type?: string;
                };
              }
            ).edit_msg;
            if (e) {
              message.modifiedInfo = {
                operationCount: Number(e.count ?? 0),
                operatorId: asText(e.operator),
                operationTime: Number(e.edit_time ?? 0),
              };
              message.from = e.sender ?? "";
              message.time = Number(e.send_time ?? 0);
              const ct = e.chat_type ?? "";
              message.chatType = ct.endsWith("group") ? "groupChat" : ct.endsWith("room") ? "chatRoom" : "singleChat";
            }
          } catch {
            // Resolve with what we have.
          }
        }
        this.cache?.update(message);
        p.resolve({ localMsgId: p.id, serverMsgId: serverId, message, modifiedInfo: message.modifiedInfo });
        return;
      }
      case "message": {
        const m = p.message!;
        m.status = "SUCCESS";
        m.mid = serverId;
        m.time = time || m.time;
        this.seen(serverId);
        const delivered: ChatMessage = { ...m, id: serverId, from: this.user };
        if (["read", "delivery", "channel"].includes(m.type)) {
          if (m.type === "channel") this.cache?.clearUnread(m.to, m.chatType, time || Date.now());
          p.resolve({ localMsgId: p.id, serverMsgId: serverId });
        } else {
          this.cache?.put(delivered);
          p.resolve({ localMsgId: p.id, serverMsgId: serverId, message: delivered });
        }
        this.events.dispatch("onReceivedMessage", { id: p.id, mid: serverId, to: m.to });
        return;
      }
    }
  }

  /** Puts a request on the socket, or in the queue while disconnected (reconnecting if it may). */
  private dispatchPending(p: Pending): void {
    if (this.reporter) this.timeForReport(this.reporter, p);
    if (this.status === STATUS.OPENED && this.sock && this.transmit(p)) return;
    this.queue.push(p);
    if (
      !this.sock &&
      !this.reconnectTimer &&
      !this.logOut &&
      this.reconnectAttempts < this.options.autoReconnectNumMax
    ) {
      this.scheduleReconnect();
    }
  }

  /** Times a request from dispatch to its acknowledgement (or failure) for the data report. */
  private timeForReport(reporter: Reporter, p: Pending): void {
    const [name, type] = REPORT_OPS[p.kind];
    reporter.begin(p.id, p.kind === "room" ? (p.join ? "CHATROOM_JOIN_ROOM" : "CHATROOM_LEAVE_ROOM") : name, type);
    const { resolve, reject } = p;
    p.resolve = (v) => {
      reporter.end(p.id, { ok: true, code: 0 });
      resolve(v);
    };
    p.reject = (e) => {
      reporter.end(p.id, { ok: false, code: e.type, codeDesc: e.message });
      reject(e);
    };
  }

  private transmit(p: Pending): boolean {
    this.inFlight.set(p.id, p);
    if (!this.write({ command: COMMAND.SYNC, payload: encode(CommSyncUL, { meta: p.meta }) })) {
      this.inFlight.delete(p.id);
      return false;
    }
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.inFlight.get(p.id) !== p) return;
      this.inFlight.delete(p.id);
      if (p.message) p.message.status = "FAIL";
      p.reject(
        p.kind === "room"
          ? err(C.REQUEST_TIMEOUT, "request timeout")
          : err(C.MESSAGE_SEND_TIMEOUT, "send message timeout", { id: p.id }),
      );
      // No ack in time: the socket is presumed dead.
      this.sock?.close();
    }, this.options.ackTimeoutMs);
    return true;
  }

  private flushQueue(): void {
    const waiting = this.queue.splice(0);
    for (const p of waiting) if (!this.transmit(p)) this.queue.push(p);
  }

  private target(to: string, chatType: ChatType): Decoded {
    const [name, resource] = to.split("/");
    return {
      appKey: this.appKey,
      name,
      domain: chatType === "singleChat" ? USER_DOMAIN : MUC_DOMAIN,
      ...(resource && chatType === "singleChat" && { clientResource: resource }),
    };
  }

  /** Uploads the file of a file message first (images over 200 KB with a thumbnail). */
  protected uploadMessageFile?(m: ChatMessage): Promise<void>;
  /** Uploads the combined-message file of a combine message first. */
  protected uploadCombineFile?(m: ChatMessage): Promise<void>;

  /**
   * Sends a message made by `message.create`: resolves with the local and server ids and the message
   * once the server acknowledged it. Status CREATE → INPROGRESS → SUCCESS | FAIL.
   */
  async send(message: ChatMessage): Promise<{ localMsgId: string; serverMsgId: string; message?: ChatMessage }> {
    if (!message || typeof message.id !== "string" || message.id === "") throw invalid('Invalid parameter: "id"');
    if (typeof message.to !== "string" || message.to === "") throw invalid('Invalid parameter: "to"');
    if (this.logOut || !this.user) {
      message.status = "FAIL";
      throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    }
    message.status = "INPROGRESS";
    try {
      if (message.type === "combine") await this.uploadCombineFile?.(message);
      else if (message.file && ["img", "audio", "video", "file"].includes(message.type) && !message.url) {
        await this.uploadMessageFile?.(message);
      }
    } catch (e) {
      message.status = "FAIL";
      throw e;
    }
    const chatType = message.chatType ?? "singleChat";
    message.from = this.user;
    const extra: Decoded = {};
    const languages = message.msgConfig?.languages;
    if (message.type === "txt" && Array.isArray(languages) && languages.length > 0) {
      // Translated before sending: the translations travel in the body's meta JSON.
      message.translations = await this.translateBeforeSend(message.msg ?? "", languages);
      extra.meta = JSON.stringify({ translations: message.translations, ...(message.isChatThread && { thread: {} }) });
    }
    const meta: Decoded = {
      id: message.id,
      to: this.target(message.to, chatType),
      ns: NS.CHAT,
      payload: bodyOf(message, this.user, extra),
    };
    if (chatType !== "singleChat" && message.receiverList?.length) {
      meta.routetype = 2;
      meta.directedUsers = message.receiverList;
    } else if (message.deliverOnlineOnly) meta.routetype = 1;
    if (chatType === "chatRoom") {
      meta.ext = [
        { key: "chatroom_msg_tag", type: 2, varintValue: { high: 0, normal: 1, low: 2 }[message.priority ?? "normal"] },
      ];
    }
    return new Promise((resolve, reject) => {
      this.dispatchPending({
        id: message.id,
        meta,
        kind: "message",
        message,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
    });
  }

  private async translateBeforeSend(text: string, languages: string[]): Promise<{ code: string; text: string }[]> {
    const translate = (
      this as unknown as {
        translateMessage?: (o: { text: string; languages: string[] }) => Promise<{ data?: unknown }>;
      }
    ).translateMessage;
    if (!translate) throw err(C.SERVICE_NOT_ENABLED, "there is no method to translate message");
    const reply = await translate.call(this, { text, languages });
    const list =
      (reply.data as { translations?: { to: string; text: string }[] }[] | undefined)?.[0]?.translations ?? [];
    return list.map((t) => ({ code: t.to, text: t.text }));
  }

  /** Recalls a sent message (the server enforces the recall window). */
  async recallMessage(opts: {
    mid: string;
    to: string;
    chatType?: ChatType;
    ext?: string;
    isChatThread?: boolean;
  }): Promise<{ localMsgId: string; serverMsgId: string }> {
    if (!opts || typeof opts.mid !== "string" || opts.mid === "") throw invalid('Invalid parameter: "mid"');
    if (typeof opts.to !== "string" || opts.to === "") throw invalid('Invalid parameter: "to"');
    if (this.logOut) throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    const chatType = opts.chatType ?? "singleChat";
    const id = uniqueId();
    const payload = encode(MessageBody, {
      type: BODY_TYPE.RECALL,
      from: { name: this.user },
      to: { name: opts.to },
      contents: [{}],
      ackMessageId: opts.mid,
      ...(opts.isChatThread && { meta: JSON.stringify({ thread: {} }) }),
    });
    const meta: Decoded = {
      id,
      to: this.target(opts.to, chatType),
      ns: NS.CHAT,
      payload,
      ...(opts.ext !== undefined && { ext: [{ key: "recallMessageExtensionInfo", type: 7, stringValue: opts.ext }] }),
    };
    const result = await new Promise<{ localMsgId: string; serverMsgId: string }>((resolve, reject) =>
      this.dispatchPending({ id, meta, kind: "recall", resolve: resolve as (v: unknown) => void, reject }),
    );
    // The recall succeeded for the caller even if the local cache cannot follow.
    try {
      this.cache?.recall(opts.mid);
    } catch (e) {
      logger.warn("local cache recall failed", e);
    }
    return result;
  }

  /** Edits a sent text message (or its ext): resolves with the edited message and its edit info. */
  async modifyMessage(opts: { messageId: string; modifiedMessage: ChatMessage }): Promise<{
    localMsgId: string;
    serverMsgId: string;
    message: ChatMessage;
    modifiedInfo?: ChatMessage["modifiedInfo"];
  }> {
    if (!opts || typeof opts.messageId !== "string" || opts.messageId === "") {
      throw invalid("Invalid parameter messageId");
    }
    const m = opts.modifiedMessage;
    if (!m || m.type !== "txt") throw invalid('Invalid parameter: "modifiedMessage" type must be txt');
    if (this.logOut) throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    const chatType = m.chatType ?? "singleChat";
    const id = uniqueId();
    const hasExt = m.ext !== undefined && Object.keys(m.ext).length > 0;
    const payload = encode(MessageBody, {
      type: BODY_TYPE.EDIT,
      from: { name: this.user },
      to: { name: m.to },
      contents: [contentOf(m)],
      ext: encodeExt(m.ext),
      editMessageId: opts.messageId,
      editScope: hasExt ? 2 : 1,
    });
    const meta: Decoded = { id, to: this.target(m.to, chatType), ns: NS.CHAT, payload };
    return new Promise((resolve, reject) =>
      this.dispatchPending({ id, meta, kind: "edit", resolve: resolve as (v: unknown) => void, reject }),
    );
  }

  private roomOp(roomId: unknown, join: boolean, extra: Decoded): Promise<unknown> {
    if (typeof roomId !== "string" || roomId === "") throw invalid("Invalid parameter roomId");
    if (this.logOut || this.status !== STATUS.OPENED) throw err(C.WEBIM_CONNECTION_CLOSED, "not login");
    const id = uniqueId();
    const payload = encode(MUCBody, {
      mucId: { appKey: this.appKey, name: roomId, domain: MUC_DOMAIN },
      operation: join ? 2 : 3,
      from: { name: this.user },
      isChatroom: true,
      ...extra,
    });
    const meta: Decoded = {
      id,
      from: { appKey: this.appKey, name: this.user, domain: USER_DOMAIN },
      to: { domain: USER_DOMAIN },
      ns: NS.MUC,
      payload,
    };
    return new Promise((resolve, reject) =>
      this.dispatchPending({ id, meta, kind: "room", roomId, join, resolve, reject }),
    );
  }

  /** Joins a chat room over the socket; resolves with the room's info once the server acknowledged. */
  async joinChatRoom(opts: {
    roomId: string;
    message?: string;
    ext?: string;
    leaveOtherRooms?: boolean;
  }): Promise<unknown> {
    if (opts?.leaveOtherRooms !== undefined && typeof opts.leaveOtherRooms !== "boolean") {
      throw invalid("Invalid parameter leaveOtherRooms");
    }
    if (opts?.ext !== undefined && typeof opts.ext !== "string") throw invalid("Invalid parameter ext");
    return this.roomOp(opts?.roomId, true, { ext: opts.ext ?? "", leaveOtherRooms: opts.leaveOtherRooms ?? false });
  }

  async leaveChatRoom(opts: { roomId: string }): Promise<unknown> {
    return this.roomOp(opts?.roomId, false, {});
  }

  // ---------------------------------------------------------------- REST

  /**
   * The credentials check every REST call makes first (spec 03 §5): missing org/app reports 'appName or
   * orgName is illegal', a missing token 'token not assign error', and the call rejects with 'appkey or
   * token error'.
   */
  protected checkRest(): void {
    let ok = true;
    if (!this.context.appName || !this.context.orgName) {
      this.events.dispatch("onError", err(C.WEBIM_CONNCTION_AUTH_ERROR, "appName or orgName is illegal"));
      ok = false;
    } else if (!this.context.accessToken || !this.token) {
      this.events.dispatch("onError", err(C.WEBIM_CONNCTION_TOKEN_NOT_ASSIGN_ERROR, "token not assign error"));
      ok = false;
    }
    if (!ok) throw err(C.REST_PARAMS_STATUS, "appkey or token error");
  }

  /** A REST call under `{apiUrl}/{org}/{app}/`; `resource` adds `?resource=` (multi-device echo). */
  async rest<T = Record<string, unknown>>(
    method: HttpRequest["method"],
    path: string,
    opts: {
      query?: HttpRequest["query"];
      body?: unknown;
      form?: Record<string, string>;
      multipart?: FormData;
      resource?: boolean;
      onUploadProgress?: (p: Progress) => void;
      headers?: Record<string, string>;
    } = {},
  ): Promise<T & { type: number }> {
    this.checkRest();
    const query = { ...opts.query, ...(opts.resource && { resource: this.clientResource }) };
    const startedAt = Date.now();
    const requested = { requestMethod: method, requestUrl: path };
    try {
      const reply = await request<T>({
        method,
        url: `${this.apiUrl}/${this.orgName}/${this.appName}/${path}`,
        query,
        body: opts.body,
        ...(opts.form && { form: opts.form }),
        ...(opts.multipart && { multipart: opts.multipart }),
        ...(opts.headers && { headers: opts.headers }),
        ...(opts.onUploadProgress && { onUploadProgress: opts.onUploadProgress }),
        token: this.token,
      });
      this.report("REST", "REST", startedAt, undefined, requested);
      return { ...reply, type: 0 };
    } catch (e) {
      this.report("REST", "REST", startedAt, e, {
        ...requested,
        ...(e instanceof ChatSdkError && e.httpStatus !== undefined && { httpStatus: e.httpStatus }),
      });
      // Statuses outside the ordinary REST failures count towards a server discovery refresh.
      if (e instanceof ChatSdkError && e.httpStatus !== undefined && !CONVENTIONAL_STATUSES.includes(e.httpStatus)) {
        this.restFailures += 1;
        if (this.restFailures % 5 === 0 && this.options.isHttpDNS) void this.discover().catch(() => undefined);
      }
      throw e;
    }
  }

  /** The message JSON converter for API modules. */
  jsonMessage(raw: unknown): ChatMessage | Record<string, never> {
    return messageFromJson(raw as Parameters<typeof messageFromJson>[0]);
  }

  /** Decodes KeyValue lists for API modules. */
  static decodeExt = decodeExt;
}

export type { MessageFields };
