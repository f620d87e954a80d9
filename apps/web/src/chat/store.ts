import type { ChatMessage, Conversation } from "./sdk";

/**
 * The chat's state (spec 03 §3 "the chat message list is held in a store"): the conversation list and
 * each conversation's messages, as immutable snapshots for React. Pure: the SDK wiring (session.ts) feeds
 * it, so every rule here is unit-tested without a server.
 */

export type SendState = "sending" | "sent" | "failed";
export type ItemType = "txt" | "img" | "file" | "video" | "audio" | "other";

export interface ChatItem {
  /** The server's id once known (a local id while sending). */
  id: string;
  /** The id the message was created with (stays the same across the send). */
  localId: string;
  from: string;
  to: string;
  time: number;
  type: ItemType;
  text: string;
  url?: string;
  secret?: string;
  thumb?: string;
  filename?: string;
  fileLength?: number;
  width?: number;
  height?: number;
  /** Own messages: the send state; received messages are "sent". */
  state: SendState;
  /** 0-100 while a file uploads. */
  progress?: number;
  /** Own messages the peer has read. */
  read: boolean;
}

export interface ConversationItem {
  peer: string;
  unread: number;
  pinned: boolean;
  pinnedTime: number;
  last: ChatItem | null;
  /** Time used for ordering (the last message's, or when the conversation was opened). */
  time: number;
}

export interface Thread {
  items: ChatItem[];
  /** Cursor for the next older page; null before the first page. */
  cursor: string | null;
  isLast: boolean;
  loading: boolean;
}

export interface ChatSnapshot {
  me: string;
  status: "idle" | "connecting" | "open" | "reconnecting" | "closed" | "error";
  conversations: ConversationItem[];
  active: string | null;
  threads: Record<string, Thread>;
}

const EMPTY_THREAD: Thread = { items: [], cursor: null, isLast: false, loading: false };

const itemType = (t: string): ItemType =>
  t === "txt" || t === "img" || t === "file" || t === "video" || t === "audio" ? t : "other";

/** A message of the SDK as the chat shows it. */
export function toItem(m: ChatMessage, me: string, state: SendState = "sent"): ChatItem {
  const item: ChatItem = {
    id: m.id,
    localId: m.id,
    from: m.from || me,
    to: m.to,
    time: m.time,
    type: itemType(m.type),
    text: m.type === "txt" ? (m.msg ?? "") : "",
    state,
    read: false,
  };
  if (m.url) item.url = m.url;
  if (m.secret) item.secret = m.secret;
  if (m.thumb) item.thumb = m.thumb;
  const filename = m.filename ?? m.file?.filename;
  if (filename) item.filename = filename;
  if (m.file_length !== undefined) item.fileLength = m.file_length;
  if (m.width) item.width = m.width;
  if (m.height) item.height = m.height;
  return item;
}

/** The other side of a one-to-one message. */
export const peerOf = (item: Pick<ChatItem, "from" | "to">, me: string): string =>
  item.from === me ? item.to : item.from;

const byTime = (a: ChatItem, b: ChatItem): number => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Pinned first (most recently pinned first), then the most recent conversation first. */
export function sortConversations(list: ConversationItem[]): ConversationItem[] {
  return [...list].sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) ||
      (a.pinned && b.pinned ? b.pinnedTime - a.pinnedTime : 0) ||
      b.time - a.time,
  );
}

/** Remembers the ids of the most recent messages (100 by default) to drop repeats. */
export class RecentIds {
  private readonly ids: string[] = [];
  constructor(private readonly max = 100) {}

  /** True when the id was seen already; otherwise remembers it. */
  seen(id: string): boolean {
    if (this.ids.includes(id)) return true;
    this.ids.push(id);
    if (this.ids.length > this.max) this.ids.shift();
    return false;
  }

  get size(): number {
    return this.ids.length;
  }
}

export class ChatStore {
  private snap: ChatSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly recent: RecentIds;

  constructor(me: string, cacheLength = 100) {
    this.snap = { me, status: "idle", conversations: [], active: null, threads: {} };
    this.recent = new RecentIds(cacheLength);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): ChatSnapshot => this.snap;

  thread(peer: string): Thread {
    return this.snap.threads[peer] ?? EMPTY_THREAD;
  }

  private set(next: Partial<ChatSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    for (const l of this.listeners) l();
  }

  private setThread(peer: string, thread: Thread): void {
    this.set({ threads: { ...this.snap.threads, [peer]: thread } });
  }

  private upsertConversation(peer: string, change: (c: ConversationItem) => ConversationItem): void {
    const existing = this.snap.conversations.find((c) => c.peer === peer) ?? {
      peer,
      unread: 0,
      pinned: false,
      pinnedTime: 0,
      last: null,
      time: 0,
    };
    const next = change(existing);
    this.set({ conversations: sortConversations([...this.snap.conversations.filter((c) => c.peer !== peer), next]) });
  }

  setStatus(status: ChatSnapshot["status"]): void {
    if (this.snap.status !== status) this.set({ status });
  }

  /** The server's conversation list (unread counts, pins, last messages). */
  setConversations(list: Conversation[]): void {
    const me = this.snap.me;
    const merged = new Map(this.snap.conversations.map((c) => [c.peer, c]));
    for (const c of list) {
      if (c.conversationType !== "singleChat") continue;
      const last = "id" in c.lastMessage && c.lastMessage.id ? toItem(c.lastMessage as ChatMessage, me) : null;
      const active = this.snap.active === c.conversationId;
      merged.set(c.conversationId, {
        peer: c.conversationId,
        unread: active ? 0 : c.unReadCount,
        pinned: c.isPinned,
        pinnedTime: c.pinnedTime,
        last,
        time: last?.time ?? merged.get(c.conversationId)?.time ?? 0,
      });
    }
    this.set({ conversations: sortConversations([...merged.values()]) });
  }

  /** Opens a conversation: it becomes active and its unread count is cleared. */
  activate(peer: string, now = Date.now()): void {
    this.set({ active: peer });
    this.upsertConversation(peer, (c) => ({ ...c, unread: 0, time: c.time || now }));
  }

  beginHistory(peer: string): boolean {
    const t = this.thread(peer);
    if (t.loading || t.isLast) return false;
    this.setThread(peer, { ...t, loading: true });
    return true;
  }

  /** A page of older messages (any order), put before what is shown; repeats are dropped. */
  addHistory(peer: string, page: { messages: ChatMessage[]; cursor: string; isLast: boolean }): void {
    const t = this.thread(peer);
    const have = new Set(t.items.map((i) => i.id));
    const older = page.messages
      .filter((m) => ["txt", "img", "file", "video", "audio"].includes(m.type) && !have.has(m.id))
      .map((m) => toItem(m, this.snap.me));
    const items = [...older, ...t.items].sort(byTime);
    this.setThread(peer, {
      items,
      cursor: page.cursor,
      isLast: page.isLast || page.messages.length === 0,
      loading: false,
    });
    const last = items[items.length - 1];
    if (last) {
      this.upsertConversation(peer, (c) => ({
        ...c,
        last: c.last && c.last.time > last.time ? c.last : last,
        time: Math.max(c.time, last.time),
      }));
    }
  }

  historyFailed(peer: string): void {
    this.setThread(peer, { ...this.thread(peer), loading: false });
  }

  /** A message that arrived live (or by sync); repeats within the recent ids are dropped. */
  receive(m: ChatMessage): ChatItem | null {
    if (m.chatType !== "singleChat" || this.recent.seen(m.id)) return null;
    const item = toItem(m, this.snap.me);
    const peer = peerOf(item, this.snap.me);
    const t = this.thread(peer);
    if (t.items.some((i) => i.id === item.id)) return null;
    this.setThread(peer, { ...t, items: [...t.items, item].sort(byTime) });
    const incoming = item.from !== this.snap.me;
    // A message no newer than the conversation's last one (offline sync after the list was read) is
    // already in the server's unread count.
    const fresh = (c: ConversationItem) =>
      !c.last || item.time > c.last.time || (item.time === c.last.time && item.id !== c.last.id && item.id > c.last.id);
    this.upsertConversation(peer, (c) => ({
      ...c,
      last: fresh(c) ? item : c.last,
      time: Math.max(c.time, item.time),
      unread: incoming && this.snap.active !== peer && fresh(c) ? c.unread + 1 : c.unread,
    }));
    return item;
  }

  /** An own message being sent: shown at once with state "sending". */
  addOutgoing(m: ChatMessage): ChatItem {
    const item = { ...toItem(m, this.snap.me, "sending"), from: this.snap.me };
    if (m.file) item.progress = 0;
    const peer = item.to;
    const t = this.thread(peer);
    this.setThread(peer, { ...t, items: [...t.items.filter((i) => i.localId !== item.localId), item] });
    this.upsertConversation(peer, (c) => ({ ...c, last: item, time: Math.max(c.time, item.time) }));
    return item;
  }

  private updateOwn(peer: string, localId: string, change: (i: ChatItem) => ChatItem): void {
    const t = this.thread(peer);
    let changed: ChatItem | undefined;
    const items = t.items.map((i) => (i.localId === localId ? (changed = change(i)) : i));
    if (!changed) return;
    this.setThread(peer, { ...t, items });
    const now = changed;
    this.upsertConversation(peer, (c) => (c.last?.localId === localId ? { ...c, last: now } : c));
  }

  progress(peer: string, localId: string, percent: number): void {
    this.updateOwn(peer, localId, (i) => ({ ...i, progress: Math.max(0, Math.min(100, Math.round(percent))) }));
  }

  /** The server acknowledged the send: the item takes the server id (needed to recall it). */
  sent(peer: string, localId: string, serverId: string, m?: ChatMessage): void {
    this.recent.seen(serverId);
    this.updateOwn(peer, localId, (i) => {
      const next: ChatItem = { ...i, id: serverId, state: "sent" };
      delete next.progress;
      if (m?.url) next.url = m.url;
      if (m?.secret) next.secret = m.secret;
      if (m?.thumb) next.thumb = m.thumb;
      return next;
    });
  }

  failed(peer: string, localId: string): void {
    this.updateOwn(peer, localId, (i) => ({ ...i, state: "failed" }));
  }

  /** A retry: the failed item goes back to "sending" (at the end of the list, with the new local id). */
  retrying(peer: string, oldLocalId: string): void {
    const t = this.thread(peer);
    this.setThread(peer, { ...t, items: t.items.filter((i) => i.localId !== oldLocalId) });
  }

  /**
   * A recall (by either side): the message disappears. The unread count drops by one unless it was the
   * reader's own message or the conversation was read after it (spec 03 §4 recall).
   */
  recall(mid: string): void {
    for (const [peer, t] of Object.entries(this.snap.threads)) {
      const gone = t.items.find((i) => i.id === mid);
      if (!gone) continue;
      const items = t.items.filter((i) => i.id !== mid);
      this.setThread(peer, { ...t, items });
      this.upsertConversation(peer, (c) => {
        const last = c.last?.id === mid ? (items[items.length - 1] ?? null) : c.last;
        const unreadAfter = items.filter((i) => i.from !== this.snap.me && i.time >= gone.time).length;
        const drop = gone.from !== this.snap.me && c.unread > 0 && c.unread > unreadAfter ? 1 : 0;
        return { ...c, last, unread: c.unread - drop };
      });
      return;
    }
    // Not loaded (only a conversation's last message): refresh that conversation.
    for (const c of this.snap.conversations) {
      if (c.last?.id !== mid) continue;
      const own = c.last.from === this.snap.me;
      this.upsertConversation(c.peer, (x) => ({
        ...x,
        last: null,
        unread: own ? x.unread : Math.max(0, x.unread - 1),
      }));
    }
  }

  /** A read receipt from the peer: that message and the own messages before it are read. */
  markRead(peer: string, mid: string): void {
    const t = this.thread(peer);
    // The peer may name the message by the id it received (the sender's local id or the server's).
    const target = t.items.find((i) => i.id === mid || i.localId === mid);
    if (!target) return;
    this.setThread(peer, {
      ...t,
      items: t.items.map((i) =>
        i.from === this.snap.me && i.time <= target.time && !i.read ? { ...i, read: true } : i,
      ),
    });
  }

  /** Peers' received messages not yet acknowledged as read, for read receipts. */
  unacknowledged(peer: string, acked: ReadonlySet<string>): ChatItem[] {
    return this.thread(peer).items.filter((i) => i.from === peer && !acked.has(i.id));
  }
}
