import type { WebSocket } from "ws";
import { Reader, Writer } from "../proto/wire";
import type { ImServices } from "../service";

/**
 * The initial-sync socket of the chat SDK 5 (bundled by easemob-chat-uikit 3.x): `/ws?token=…` on the
 * REST host. One socket carries three protobuf protocols, told apart by field 1 (`type`) of each frame,
 * each request answered with batches that repeat its request id (field 2, the GatewayHeader):
 * - easemob.imfusion.gateway.v1 roster: GetRosterRequest (3) → GetRosterResponse (4), cursor 0 ends;
 * - easemob.sessionlist: GetSessionListRequest (10) → GetSessionListResponse (11), is_last_batch ends;
 * - easemob.joinedgroups: GetJoinedGroupsRequest (12) → GetJoinedGroupsResponse (13), is_last_batch
 *   with last_sync_finished_ts ends.
 * Errors are type 5 (the roster's ErrorDetail carries its header in field 4 and a string code, the
 * others in field 2 and a numeric code). The token's user is the one synced; a request naming another
 * user is refused (1002, as an unauthorized token).
 */
export const SYNC_SOCKET_PATH = "/ws";

const TYPE = {
  ping: 1,
  pong: 2,
  rosterRequest: 3,
  rosterResponse: 4,
  error: 5,
  sessionRequest: 10,
  sessionResponse: 11,
  groupsRequest: 12,
  groupsResponse: 13,
} as const;
/** How long the socket may stay silent. */
const IDLE_MS = 60_000;
/** Items per frame. */
const BATCH = 100;
/** The most conversations and groups a first sync carries (the client pages older ones over REST). */
const MAX_ITEMS = 2000;
/** The session list's types (the client's session_type). */
const SESSION_TYPE = { chat: 0, groupchat: 1 } as const;
const ROLE = { owner: 0, admin: 1, member: 2 } as const;

interface SyncRequest {
  type: number;
  requestId: string;
  resource: string;
  username: string;
}

function decodeRequest(buf: Uint8Array): SyncRequest {
  const q: SyncRequest = { type: 0, requestId: "", resource: "", username: "" };
  const r = new Reader(buf);
  while (r.next()) {
    if (r.field === 1 && r.wireType === 0) q.type = r.int();
    else if (r.field === 2 && r.wireType === 2) {
      const h = r.message();
      while (h.next()) {
        if (h.field === 1 && h.wireType === 2) q.resource = h.string();
        else if (h.field === 3 && h.wireType === 2) q.requestId = h.string();
      }
    } else if (r.field === 5 && r.wireType === 2) q.username = r.string();
  }
  return q;
}

function header(w: Writer, field: number, q: SyncRequest, nowMs: number): void {
  w.message(field, (h) => {
    h.string(1, q.resource);
    h.varint(2, nowMs);
    h.string(3, q.requestId);
    h.varint(4, 1);
  });
}

export class SyncSocket {
  constructor(
    private readonly svc: ImServices,
    private readonly ws: WebSocket,
    private readonly username: string,
  ) {
    this.idle = setTimeout(() => ws.close(1000, "idle"), IDLE_MS);
    this.idle.unref();
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      this.idle.refresh();
      if (!isBinary) return;
      this.handle(new Uint8Array(data)).catch(() => ws.close(1011, "sync failed"));
    });
  }

  /** The socket closed: nothing more is sent. */
  close(): void {
    this.closed = true;
    clearTimeout(this.idle);
  }

  private closed = false;
  /** A socket that asks nothing for IDLE_MS is closed (the client closes it itself once its syncs are done). */
  private readonly idle: NodeJS.Timeout;

  private get now(): number {
    return this.svc.deps.clock.now().getTime();
  }

  private send(build: (w: Writer) => void): void {
    if (this.closed) return;
    const w = new Writer();
    build(w);
    this.ws.send(w.finish());
  }

  private async handle(buf: Uint8Array): Promise<void> {
    let q: SyncRequest;
    try {
      q = decodeRequest(buf);
    } catch {
      this.ws.close(1002, "unreadable frame");
      return;
    }
    if (q.type === TYPE.ping) {
      this.send((w) => w.varint(1, TYPE.pong).varint(2, 0));
      return;
    }
    const known = q.type === TYPE.rosterRequest || q.type === TYPE.sessionRequest || q.type === TYPE.groupsRequest;
    if (!known) return;
    if (q.username.toLowerCase() !== this.username) return this.refuse(q, 1002, "the token is not this user's");
    if (q.type === TYPE.rosterRequest) return this.roster(q);
    if (q.type === TYPE.sessionRequest) return this.sessions(q);
    return this.groups(q);
  }

  private refuse(q: SyncRequest, code: number, message: string): void {
    if (q.type === TYPE.rosterRequest) {
      this.send((w) => {
        w.varint(1, TYPE.error).string(2, String(code)).string(3, message);
        header(w, 4, q, this.now);
      });
      return;
    }
    this.send((w) => {
      w.varint(1, TYPE.error);
      header(w, 2, q, this.now);
      w.varint(3, code).string(4, message);
    });
  }

  /** The whole contact list each time (FULL), with each contact's profile as the metadata JSON. */
  private async roster(q: SyncRequest): Promise<void> {
    const contacts = await this.svc.contacts.list(this.username, null, 5000);
    const profiles = await this.svc.accounts.getUserInfo(
      contacts.map((c) => c.contact),
      [],
    );
    const version = await this.svc.contacts.rosterVersion(this.username);
    const pages = Math.max(1, Math.ceil(contacts.length / BATCH));
    for (let p = 0; p < pages; p++) {
      const page = contacts.slice(p * BATCH, (p + 1) * BATCH);
      this.send((w) => {
        w.varint(1, TYPE.rosterResponse);
        header(w, 2, q, this.now);
        for (const c of page) {
          w.message(3, (i) => {
            i.string(1, c.contact);
            if (c.remark) i.string(2, c.remark);
            const profile = profiles[c.contact];
            if (profile && Object.keys(profile).length > 0) i.string(3, JSON.stringify(profile));
          });
        }
        // The cursor names the next page; 0 ends the sync.
        w.varint(4, p + 1 < pages ? p + 1 : 0);
        w.string(5, version);
        w.varint(6, 2);
      });
    }
  }

  private async sessions(q: SyncRequest): Promise<void> {
    const entries = await this.svc.history.sessionList(this.username, MAX_ITEMS);
    const groups = await this.svc.groups.joined(this.username, 0, MAX_ITEMS);
    const names = new Map(groups.map((g) => [String(g.id), g]));
    // A one-to-one conversation is shown under the peer's remark, else nickname (the metadata JSON).
    const peers = entries.filter((e) => e.chatType === "chat").map((e) => e.peer);
    const profiles = await this.svc.accounts.getUserInfo(peers, ["nickname", "avatarurl"]);
    const remarks = new Map(
      (await this.svc.contacts.list(this.username, null, 5000)).map((c) => [c.contact, c.remark]),
    );
    const appKey = this.svc.deps.appKey;
    const finished = this.now;
    const pages = Math.max(1, Math.ceil(entries.length / BATCH));
    for (let p = 0; p < pages; p++) {
      const page = entries.slice(p * BATCH, (p + 1) * BATCH);
      this.send((w) => {
        w.varint(1, TYPE.sessionResponse);
        header(w, 2, q, this.now);
        for (const e of page) {
          w.message(3, (s) => {
            s.string(1, e.peer);
            s.varint(2, SESSION_TYPE[e.chatType]);
            if (e.last) {
              const last = e.last;
              s.message(3, (m) => {
                m.varint(1, last.id);
                m.message(2, (j) => j.string(1, appKey).string(2, last.from).string(3, "easemob.com"));
                m.varint(4, last.timestamp);
                m.bytes(6, last.body);
              });
            }
            s.varint(6, e.lastMs);
            if (e.pinnedMs > 0) s.varint(7, e.pinnedMs);
            s.varint(8, e.unread);
            for (const mark of e.marks) s.string(9, mark);
            if (e.chatType === "chat") {
              const metadata = { ...profiles[e.peer], ...(remarks.get(e.peer) && { remark: remarks.get(e.peer) }) };
              if (Object.keys(metadata).length > 0) s.string(14, JSON.stringify(metadata));
            }
            const g = e.chatType === "groupchat" ? names.get(e.peer) : undefined;
            if (g) {
              s.string(12, g.name);
              if (g.avatar) s.string(13, g.avatar);
            }
          });
        }
        w.varint(4, p + 1 === pages);
        w.varint(5, finished);
      });
    }
  }

  private async groups(q: SyncRequest): Promise<void> {
    const groups = await this.svc.groups.joined(this.username, 0, MAX_ITEMS);
    const finished = this.now;
    const pages = Math.max(1, Math.ceil(groups.length / BATCH));
    for (let p = 0; p < pages; p++) {
      const page = groups.slice(p * BATCH, (p + 1) * BATCH);
      this.send((w) => {
        w.varint(1, TYPE.groupsResponse);
        header(w, 2, q, this.now);
        for (const g of page) {
          w.message(3, (i) => {
            i.string(1, String(g.id));
            i.string(2, g.name);
            i.string(3, g.owner);
            i.varint(4, g.member_count);
            i.varint(5, g.mute_all);
            i.varint(6, g.disabled);
            if (g.description) i.string(7, g.description);
            if (g.avatar) i.string(8, g.avatar);
            i.varint(9, ROLE[g.role]);
            i.varint(12, g.created_at.getTime());
            i.varint(13, g.modified_at.getTime());
            i.varint(14, g.joined_at.getTime());
          });
        }
        w.varint(4, p + 1 === pages);
        w.varint(5, finished);
        if (p + 1 < pages) w.string(6, String(p + 1));
      });
    }
  }
}
