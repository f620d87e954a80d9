import { WebSocket } from "ws";
import { decodeJid, type DecodedJid } from "../proto/decode";
import { Reader, Writer } from "../proto/wire";
import { CMD, NS, writeJid } from "./frames";

/**
 * A minimal protocol client built from our own frames, for the gateway's tests and the benchmark: it
 * writes what the published client writes (easemob-wire §2-3) and decodes what the gateway answers.
 */

export interface Status {
  code: number;
  reason: string;
}

export interface ServerFrame {
  command: number;
  provision?: { status: Status; resource: string; authToken: string };
  unread?: { queue: DecodedJid; n: number }[];
  notice?: DecodedJid;
  sync?: {
    status: Status | null;
    metaId: bigint;
    serverId: bigint;
    metas: Uint8Array[];
    nextKey: bigint | null;
    queue: DecodedJid | null;
    isLast: boolean;
    timestamp: bigint;
  };
}

function status(b: Uint8Array): Status {
  const s: Status = { code: 0, reason: "" };
  const r = new Reader(b);
  while (r.next()) {
    if (r.field === 1) s.code = r.int();
    else if (r.field === 2) s.reason = r.string();
  }
  return s;
}

export function decodeServerFrame(buf: Uint8Array): ServerFrame {
  let command = 0;
  let payload: Reader | null = null;
  const frame = new Reader(buf);
  while (frame.next()) {
    if (frame.field === 8) command = frame.int();
    else if (frame.field === 9) payload = frame.message();
  }
  const out: ServerFrame = { command };
  // Walked with a cursor, not split into a list of fields first: the benchmark's load decodes every frame here.
  const r = payload ?? new Reader(new Uint8Array());
  if (command === CMD.PROVISION) {
    const p = { status: { code: -1, reason: "" }, resource: "", authToken: "" };
    while (r.next()) {
      if (r.field === 8) p.status = status(r.bytes());
      else if (r.field === 13) p.resource = r.string();
      else if (r.field === 18) p.authToken = r.string();
    }
    out.provision = p;
  } else if (command === CMD.UNREAD) {
    out.unread = [];
    while (r.next()) {
      if (r.field !== 2) continue;
      const q = { queue: decodeJid(new Uint8Array()), n: 0 };
      const g = r.message();
      while (g.next()) {
        if (g.field === 1) q.queue = decodeJid(g.bytes());
        else if (g.field === 2) q.n = g.int();
      }
      out.unread.push(q);
    }
  } else if (command === CMD.NOTICE) {
    out.notice = decodeJid(new Uint8Array());
    while (r.next()) if (r.field === 1) out.notice = decodeJid(r.bytes());
  } else if (command === CMD.SYNC) {
    const s: NonNullable<ServerFrame["sync"]> = {
      status: null,
      metaId: 0n,
      serverId: 0n,
      metas: [],
      nextKey: null,
      queue: null,
      isLast: false,
      timestamp: 0n,
    };
    while (r.next()) {
      if (r.field === 1) s.status = status(r.bytes());
      else if (r.field === 2) s.metaId = r.uint64();
      else if (r.field === 3) s.serverId = r.uint64();
      else if (r.field === 4) s.metas.push(r.bytes());
      else if (r.field === 5) s.nextKey = r.uint64();
      else if (r.field === 6) s.queue = decodeJid(r.bytes());
      else if (r.field === 7) s.isLast = r.bool();
      else if (r.field === 8) s.timestamp = r.uint64();
    }
    out.sync = s;
  }
  return out;
}

/** Matches the server's ack of the send with this message id. */
export const isAckOf = (id: bigint) => (f: ServerFrame) => f.sync?.metaId === id;

/**
 * A login as the 4.x client sends it: the token in the envelope's `auth` and in the provision's
 * authToken. With `sdk5`, as the chat SDK 5 sends it: `auth` empty and the provision's authToken as given.
 */
export function provisionFrame(
  appKey: string,
  user: string,
  token: string,
  resource: string,
  reason?: string,
  sdk5?: { authToken: string },
): Uint8Array {
  const p = new Writer()
    .varint(1, 16)
    .string(2, "4.21.1")
    .varint(5, 0)
    .varint(6, 0)
    .string(9, resource)
    .string(12, "webim")
    .string(13, resource);
  p.string(18, sdk5 ? sdk5.authToken : JSON.stringify({ token: `$t$${token}` })).string(20, `${Date.now()}:`);
  if (reason) p.string(21, reason);
  const w = new Writer().varint(1, 0);
  writeJid(w, 2, { appKey, name: user, domain: "easemob.com", clientResource: resource });
  w.string(3, sdk5 ? "" : `$t$${token}`)
    .varint(8, CMD.PROVISION)
    .bytes(9, p.finish())
    .varint(10, 0)
    .varint(11, 0);
  return w.finish();
}

export const unreadFrame = (): Uint8Array => new Writer().varint(1, 0).varint(8, CMD.UNREAD).varint(11, 0).finish();

export function pullFrame(appKey: string, queue: { name: string; domain: string }, key?: bigint): Uint8Array {
  const ul = new Writer();
  if (key !== undefined) ul.varint(2, key);
  writeJid(ul, 3, { appKey, ...queue });
  return new Writer().varint(1, 0).varint(8, CMD.SYNC).bytes(9, ul.finish()).varint(11, 0).finish();
}

export interface TextMessage {
  id: bigint;
  from: string;
  to: string;
  chatType: 1 | 2 | 3;
  text: string;
  /** Body type override (4 read ack, 6 recall ...) with ackMessageId. */
  bodyType?: number;
  ackMessageId?: bigint;
  /** Routing "online only" (Meta.routetype 1). */
  onlineOnly?: boolean;
}

export function messageBody(appKey: string, m: Omit<TextMessage, "id">): Uint8Array {
  void appKey;
  const body = new Writer();
  writeMessageBody(body, m);
  return body.finish();
}

function writeMessageBody(body: Writer, m: Omit<TextMessage, "id">): void {
  body.varint(1, m.bodyType ?? m.chatType);
  body.message(2, (j) => j.string(2, m.from));
  body.message(3, (j) => j.string(2, m.to));
  body.message(4, (c) => {
    if (m.bodyType === undefined) c.varint(1, 0).string(2, m.text);
  });
  if (m.ackMessageId !== undefined) body.varint(6, m.ackMessageId);
}

export function sendFrame(
  appKey: string,
  m: TextMessage,
  bodyBytes?: Uint8Array,
  directedUsers?: readonly string[],
): Uint8Array {
  // MSync { version, command, payload: SyncUL { meta: Meta { ... } }, encrypt-type }, nested in one writer.
  const w = new Writer().varint(1, 0).varint(8, CMD.SYNC);
  const ul = w.begin(9);
  const meta = w.begin(1);
  w.varint(1, m.id);
  writeJid(w, 3, { appKey, name: m.to, domain: m.chatType === 1 ? "easemob.com" : "conference.easemob.com" });
  w.varint(5, NS.CHAT);
  if (bodyBytes) w.bytes(6, bodyBytes);
  else w.message(6, (b) => writeMessageBody(b, m));
  if (m.onlineOnly) w.varint(7, 1);
  if (directedUsers) {
    w.varint(7, 2);
    for (const u of directedUsers) w.string(10, u);
  }
  w.end(meta).end(ul);
  return w.varint(11, 0).finish();
}

/** A socket with a queue of decoded frames. */
export class WireClient {
  readonly frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      this.frames.push(decodeServerFrame(new Uint8Array(data as Buffer)));
      this.notify();
    });
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.notify();
    });
  }

  static async connect(url: string): Promise<WireClient> {
    const ws = new WebSocket(url);
    ws.binaryType = "nodebuffer";
    const c = new WireClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return c;
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(frame: Uint8Array): void {
    this.ws.send(frame);
  }

  /** Takes the first frame matching `pred` (waiting up to `ms`). */
  async take(pred: (f: ServerFrame) => boolean, ms = 5000): Promise<ServerFrame> {
    const end = Date.now() + ms;
    for (;;) {
      const i = this.frames.findIndex(pred);
      if (i >= 0) return this.frames.splice(i, 1)[0] as ServerFrame;
      if (this.closed) throw new Error(`socket closed (${this.closed.code} ${this.closed.reason}) while waiting`);
      const left = end - Date.now();
      if (left <= 0) throw new Error("timed out waiting for a frame");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async untilClosed(ms = 5000): Promise<{ code: number; reason: string }> {
    const end = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > end) throw new Error("socket still open");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.closed;
  }

  close(): void {
    this.ws.close();
  }
}
