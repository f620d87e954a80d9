import { BRAND_CHAT, createMessage, errorType, loginBrandChat, type ChatConnection, type ChatMessage } from "./sdk";
import type { ChatStorage } from "./storage";
import { ChatStore, type ChatItem } from "./store";

/**
 * One chat login (the brand `b<merchantId>` or the purchaser's staff member `u<userId>`) wired to the
 * chat state: live arrivals, recalls, read receipts, history pages, sends with their states, and the
 * spec's re-login when the SDK reports error type 28.
 */
export class ChatSession {
  readonly store: ChatStore;
  private readonly outgoing = new Map<string, ChatMessage>();
  private readonly acked = new Set<string>();
  private relogging = false;
  private closed = false;
  /**
   * Settles when the first login has finished (REST calls need its token). One object, made in one
   * initializer: a separate `markReady` field initialized after the promise would replace the resolver
   * the promise's executor had just stored, and the promise would never settle.
   */
  private readonly login = settleLater();
  /** History pages being loaded, per peer (a second request for the same page joins the first). */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    private readonly conn: ChatConnection,
    private readonly storage: ChatStorage,
    readonly user: string,
    private readonly freshToken: () => Promise<string>,
  ) {
    this.store = new ChatStore(user, BRAND_CHAT.maxCacheLength);
  }

  async start(): Promise<void> {
    const receive = (m: ChatMessage): void => this.onMessage(m);
    this.conn.addEventHandler("brandChat", {
      onConnected: () => {
        this.store.setStatus("open");
        void this.refreshConversations();
      },
      onReconnecting: () => this.store.setStatus("reconnecting"),
      onDisconnected: () => this.store.setStatus(this.closed ? "closed" : "error"),
      onError: (e) => {
        if (BRAND_CHAT.badTokenTypes.includes(e.type)) void this.relogin();
      },
      onTextMessage: receive,
      onImageMessage: receive,
      onFileMessage: receive,
      onVideoMessage: receive,
      onAudioMessage: receive,
      onRecallMessage: (ack) => {
        if (ack.mid) this.store.recall(ack.mid);
      },
      onReadMessage: (ack) => {
        if (ack.mid) this.store.markRead(ack.from, ack.mid);
      },
    });
    this.store.setStatus("connecting");
    try {
      await loginBrandChat(this.conn, this.storage, this.user, this.freshToken);
    } catch (e) {
      this.store.setStatus("error");
      throw e;
    } finally {
      this.login.settle();
    }
  }

  close(): void {
    this.closed = true;
    this.conn.removeEventHandler("brandChat");
    this.conn.close();
  }

  /** Error type 28 after the login: the stored im-token is removed and the chat logs in again. */
  private async relogin(): Promise<void> {
    if (this.relogging || this.closed) return;
    this.relogging = true;
    this.storage.removeImToken();
    try {
      if (this.conn.isOpened()) this.conn.close();
      await loginBrandChat(this.conn, this.storage, this.user, this.freshToken);
    } catch {
      this.store.setStatus("error");
    } finally {
      this.relogging = false;
    }
  }

  /** The nicknames of these chat users (their companies' names), for those that have one. */
  async nicknames(users: string[]): Promise<Record<string, string>> {
    if (users.length === 0) return {};
    await this.login.promise;
    const r = await this.conn.fetchUserInfoById(users, "nickname");
    const out: Record<string, string> = {};
    for (const [user, info] of Object.entries(r.data ?? {})) if (info.nickname) out[user] = info.nickname;
    return out;
  }

  async refreshConversations(): Promise<void> {
    const r = await this.conn.getServerConversations({ pageSize: 50 });
    this.store.setConversations(r.data?.conversations ?? []);
  }

  private onMessage(m: ChatMessage): void {
    const item = this.store.receive(m);
    if (item && item.from !== this.user && this.store.getSnapshot().active === item.from) this.acknowledge(item.from);
  }

  /** Opens a conversation: first history page (if none yet), unread cleared, read receipts sent. */
  async open(peer: string): Promise<void> {
    this.store.activate(peer);
    await this.login.promise;
    if (this.store.thread(peer).cursor === null) await this.loadOlder(peer);
    // The reader may have moved on while the page loaded.
    if (this.store.getSnapshot().active === peer) this.acknowledge(peer);
  }

  /**
   * The next 50 older messages, upward from the latest (after the login: the REST call needs its
   * token). While a page is loading, asking again waits for that page.
   */
  loadOlder(peer: string): Promise<void> {
    const running = this.loading.get(peer);
    if (running) return running;
    const load = (async () => {
      await this.login.promise;
      if (this.closed || !this.store.beginHistory(peer)) return;
      const cursor = this.store.thread(peer).cursor;
      try {
        const page = await this.conn.getHistoryMessages({
          targetId: peer,
          chatType: "singleChat",
          pageSize: BRAND_CHAT.historyPageSize,
          cursor,
          searchDirection: "up",
        });
        this.store.addHistory(peer, page);
      } catch {
        this.store.historyFailed(peer);
      }
    })().finally(() => this.loading.delete(peer));
    this.loading.set(peer, load);
    return load;
  }

  /** Read receipts for the peer's messages shown, and the conversation marked read on the server. */
  private acknowledge(peer: string): void {
    const pending = this.store.unacknowledged(peer, this.acked);
    for (const item of pending) this.acked.add(item.id);
    const last = pending[pending.length - 1];
    if (!last) return;
    void this.conn
      .send(createMessage({ type: "read", chatType: "singleChat", to: peer, id: last.id }))
      .catch(() => this.acked.delete(last.id));
    void this.conn.send(createMessage({ type: "channel", chatType: "singleChat", to: peer })).catch(() => undefined);
  }

  sendText(peer: string, text: string): Promise<void> {
    return this.dispatch(createMessage({ type: "txt", chatType: "singleChat", to: peer, msg: text }));
  }

  /** An image or a file, with upload progress. */
  sendFile(peer: string, file: File, kind: "img" | "file"): Promise<void> {
    const m = createMessage({
      type: kind,
      chatType: "singleChat",
      to: peer,
      file: { data: file, filename: file.name, filetype: file.type },
      filename: file.name,
      file_length: file.size,
    });
    return this.dispatch(m);
  }

  /** Sends a failed message again (same id, so the server keeps it once). */
  retry(item: ChatItem): Promise<void> {
    const m = this.outgoing.get(item.localId);
    if (!m) return Promise.resolve();
    this.store.retrying(m.to, item.localId);
    return this.dispatch(m);
  }

  async recall(item: ChatItem): Promise<void> {
    await this.conn.recallMessage({ mid: item.id, to: peerOf(item, this.user), chatType: "singleChat" });
    this.store.recall(item.id);
  }

  private async dispatch(m: ChatMessage): Promise<void> {
    const localId = m.id;
    this.outgoing.set(localId, m);
    if (m.file) {
      m.onFileUploadProgress = (p) => this.store.progress(m.to, localId, p.total > 0 ? (p.loaded / p.total) * 100 : 0);
    }
    this.store.addOutgoing(m);
    try {
      const r = await this.conn.send(m);
      this.store.sent(m.to, localId, r.serverMsgId, m);
      this.outgoing.delete(localId);
    } catch (e) {
      this.store.failed(m.to, localId);
      if (errorType(e) !== undefined && BRAND_CHAT.badTokenTypes.includes(errorType(e)!)) void this.relogin();
    }
  }
}

/** A promise and the function that settles it. */
function settleLater(): { promise: Promise<void>; settle: () => void } {
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (settle = resolve));
  return { promise, settle };
}

const peerOf = (item: Pick<ChatItem, "from" | "to">, me: string): string => (item.from === me ? item.to : item.from);
