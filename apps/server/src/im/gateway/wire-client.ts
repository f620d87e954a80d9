import { WebSocket } from "ws";
import { decodeJid, type DecodedJid } from "../proto/decode";
import { readFields, Writer } from "../proto/wire";
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
  sync?: { status: Status | null; metaId: bigint; serverId: bigint; metas: Uint8Array[]; nextKey: bigint | null; queue: DecodedJid | null; isLast: boolean; timestamp: bigint };
}

const text = (b: Uint8Array | undefined) => Buffer.from(b ?? new Uint8Array()).toString("utf8");

function status(b: Uint8Array): Status {
  const s: Status = { code: 0, reason: "" };
  for (const f of readFields(b)) {
    if (f.field === 1) s.code = Number(f.varint ?? 0n);
    else if (f.field === 2) s.reason = text(f.bytes);
  }
  return s;
}

export function decodeServerFrame(buf: Uint8Array): ServerFrame {
  let command = 0;
  let payload: Uint8Array = new Uint8Array();
  for (const f of readFields(buf)) {
    if (f.field === 8) command = Number(f.varint ?? 0n);
    else if (f.field === 9) payload = f.bytes ?? payload;
  }
  const out: ServerFrame = { command };
  const fields = readFields(payload);
  if (command === CMD.PROVISION) {
    const p = { status: { code: -1, reason: "" }, resource: "", authToken: "" };
    for (const f of fields) {
      if (f.field === 8) p.status = status(f.bytes ?? new Uint8Array());
      else if (f.field === 13) p.resource = text(f.bytes);
      else if (f.field === 18) p.authToken = text(f.bytes);
    }
    out.provision = p;
  } else if (command === CMD.UNREAD) {
    out.unread = fields
      .filter((f) => f.field === 2)
      .map((f) => {
        const q = { queue: decodeJid(new Uint8Array()), n: 0 };
        for (const g of readFields(f.bytes ?? new Uint8Array())) {
          if (g.field === 1) q.queue = decodeJid(g.bytes ?? new Uint8Array());
          else if (g.field === 2) q.n = Number(g.varint ?? 0n);
        }
        return q;
      });
  } else if (command === CMD.NOTICE) {
    const q = fields.find((f) => f.field === 1);
    out.notice = decodeJid(q?.bytes ?? new Uint8Array());
  } else if (command === CMD.SYNC) {
    const s: NonNullable<ServerFrame["sync"]> = { status: null, metaId: 0n, serverId: 0n, metas: [], nextKey: null, queue: null, isLast: false, timestamp: 0n };
    for (const f of fields) {
      if (f.field === 1) s.status = status(f.bytes ?? new Uint8Array());
      else if (f.field === 2) s.metaId = f.varint ?? 0n;
      else if (f.field === 3) s.serverId = f.varint ?? 0n;
      else if (f.field === 4) s.metas.push(f.bytes ?? new Uint8Array());
      else if (f.field === 5) s.nextKey = f.varint ?? 0n;
      else if (f.field === 6) s.queue = decodeJid(f.bytes ?? new Uint8Array());
      else if (f.field === 7) s.isLast = f.varint === 1n;
      else if (f.field === 8) s.timestamp = f.varint ?? 0n;
    }
    out.sync = s;
  }
  return out;
}

/** Matches the server's ack of the send with this message id. */
export const isAckOf = (id: bigint) => (f: ServerFrame) => f.sync?.metaId === id;

export function provisionFrame(appKey: string, user: string, token: string, resource: string, reason?: string): Uint8Array {
  const p = new Writer().varint(1, 16).string(2, "4.21.1").varint(5, 0).varint(6, 0).string(9, resource).string(12, "webim").string(13, resource);
  p.string(18, JSON.stringify({ token: `$t$${token}` })).string(20, `${Date.now()}:`);
  if (reason) p.string(21, reason);
  const w = new Writer().varint(1, 0);
  writeJid(w, 2, { appKey, name: user, domain: "easemob.com", clientResource: resource });
  w.string(3, `$t$${token}`).varint(8, CMD.PROVISION).bytes(9, p.finish()).varint(10, 0).varint(11, 0);
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
  const body = new Writer().varint(1, m.bodyType ?? m.chatType);
  body.message(2, (j) => j.string(2, m.from));
  body.message(3, (j) => j.string(2, m.to));
  body.message(4, (c) => {
    if (m.bodyType === undefined) c.varint(1, 0).string(2, m.text);
  });
  if (m.ackMessageId !== undefined) body.varint(6, m.ackMessageId);
  void appKey;
  return body.finish();
}

export function sendFrame(appKey: string, m: TextMessage, bodyBytes?: Uint8Array, directedUsers?: readonly string[]): Uint8Array {
  const meta = new Writer().varint(1, m.id);
  writeJid(meta, 3, { appKey, name: m.to, domain: m.chatType === 1 ? "easemob.com" : "conference.easemob.com" });
  meta.varint(5, NS.CHAT).bytes(6, bodyBytes ?? messageBody(appKey, m));
  if (m.onlineOnly) meta.varint(7, 1);
  if (directedUsers) {
    meta.varint(7, 2);
    for (const u of directedUsers) meta.string(10, u);
  }
  const ul = new Writer().bytes(1, meta.finish());
  return new Writer().varint(1, 0).varint(8, CMD.SYNC).bytes(9, ul.finish()).varint(11, 0).finish();
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
