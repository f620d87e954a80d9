import { ChatSdkError, err } from "../errors.js";
import { request } from "../http.js";
import { logger } from "../logger.js";
import { defaultStorage } from "../storage.js";
import { COMMAND, encode, Logout, Provision, asText, type Decoded } from "../proto.js";
import { statusCode as C } from "../status.js";

import {
  type Pending,
  USER_DOMAIN,
  SDK_VERSION,
  toBytes,
  STATUS,
  type WebSocketLike,
  type WebSocketClass,
} from "./base.js";
import { ConnectionInbound } from "./inbound.js";

/**
 * The session: login (token and provision), the heartbeat, token expiry, reconnecting, closing, and
 * server discovery.
 */
export abstract class ConnectionSession extends ConnectionInbound {
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
  protected async logIn(
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

  protected makeResource(): string {
    if (this.options.deviceId) return `webim_${this.options.deviceId}`;
    const store = defaultStorage();
    const saved = store.getItem("tessera-im-sdk:device");
    if (saved) return saved;
    const made = `webim_web_${Date.now()}${Math.floor(Math.random() * 1000)}`;
    store.setItem("tessera-im-sdk:device", made);
    return made;
  }

  /** Opens the socket and resolves on a successful provision reply (rejects on a fatal failure). */
  protected loginSocket(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.loginWaiters.push({ resolve, reject });
      this.connectSocket();
    });
  }

  protected connectSocket(): void {
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

  protected armLoginTimer(sock: WebSocketLike, reason: string): void {
    clearTimeout(this.loginTimer);
    this.loginTimer = setTimeout(() => {
      if (this.sock !== sock || this.status === STATUS.OPENED) return;
      logger.warn(reason);
      sock.close();
    }, 10_000);
  }

  protected sendProvision(): void {
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

  protected failLogin(e: ChatSdkError, fatal: boolean): void {
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

  protected loggedIn(reply: Decoded): void {
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

  protected scheduleTokenTimers(authToken: string | undefined): void {
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

  protected tokenExpired(): void {
    this.events.dispatch("onTokenExpired");
    this.close("inner:token expired");
  }

  protected startHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    const every = this.options.heartBeatWait;
    this.heartbeatTimer = setInterval(() => {
      if (Date.now() - this.lastReceived >= every) this.write({ command: COMMAND.UNREAD });
    }, every);
  }

  protected handleClose(): void {
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

  protected scheduleReconnect(): void {
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

  protected handleOnline(): void {
    this.events.dispatch("onOnline");
    if (!this.logOut && !this.sock && this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
      this.connectSocket();
    }
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
  protected async discover(): Promise<void> {
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
}
