import { readFields, Writer, type Field } from "../proto/wire";
import { decodeJid, type DecodedJid } from "../proto/decode";

/**
 * The envelope frames of the realtime protocol (easemob-wire §1-2): one MSync per websocket binary
 * message. Only the fields the gateway reads or the client reads are handled; anything else is skipped.
 */

export const CMD = { SYNC: 0, UNREAD: 1, NOTICE: 2, PROVISION: 3, LOGOUT: 4 } as const;
export const NS = { STATISTIC: 0, CHAT: 1, MUC: 2, ROSTER: 3, CONFERENCE: 4, NOTIFY: 5 } as const;

/** Status.ErrorCode values the gateway answers with (20 is the client's RESOURCE_CHANGED). */
export const STATUS = { OK: 0, FAIL: 1, UNAUTHORIZED: 2, WRONG_PARAMETER: 4, PERMISSION_DENIED: 7, UNKNOWN_COMMAND: 9, PB_PARSER_ERROR: 10, IM_FORBIDDEN: 12, TOO_MANY_DEVICES: 13, USER_MUTED: 15 } as const;

/** StatisticsBody operations that end a session (easemob-wire §3l). */
export const KICK = { USER_REMOVED: 1, LOGIN_ANOTHER_DEVICE: 2, CHANGE_PASSWORD: 3, OTHER_DEVICE: 4 } as const;

export class FrameError extends Error {}

const text = (f: Field) => Buffer.from(f.bytes ?? new Uint8Array()).toString("utf8");
const bytesOf = (f: Field): Uint8Array => {
  if (f.wireType !== 2 || !f.bytes) throw new FrameError(`field ${f.field} is not length-delimited`);
  return f.bytes;
};
const varintOf = (f: Field): bigint => {
  if (f.wireType !== 0 || f.varint === undefined) throw new FrameError(`field ${f.field} is not a varint`);
  return f.varint;
};

export interface MSyncIn {
  command: number;
  guid: DecodedJid | null;
  auth: string;
  payload: Uint8Array | null;
}

export function decodeMSync(buf: Uint8Array): MSyncIn {
  const m: MSyncIn = { command: 0, guid: null, auth: "", payload: null };
  for (const f of readFields(buf)) {
    if (f.field === 2) m.guid = decodeJid(bytesOf(f));
    else if (f.field === 3) m.auth = text(f);
    else if (f.field === 8) m.command = Number(varintOf(f));
    else if (f.field === 9) m.payload = bytesOf(f);
  }
  return m;
}

export interface ProvisionIn {
  resource: string;
  deviceUuid: string;
  sessionId: string;
  /** The client's loginInfoCustomExt, shown to the device it kicks. */
  reason: string;
}

export function decodeProvision(buf: Uint8Array): ProvisionIn {
  const p: ProvisionIn = { resource: "", deviceUuid: "", sessionId: "", reason: "" };
  for (const f of readFields(buf)) {
    if (f.field === 13) p.resource = text(f);
    else if (f.field === 9) p.deviceUuid = text(f);
    else if (f.field === 20) p.sessionId = text(f);
    else if (f.field === 21) p.reason = text(f);
  }
  return p;
}

export interface SyncUlIn {
  meta: Uint8Array | null;
  key: bigint | null;
  queue: DecodedJid | null;
}

export function decodeSyncUl(buf: Uint8Array): SyncUlIn {
  const s: SyncUlIn = { meta: null, key: null, queue: null };
  for (const f of readFields(buf)) {
    if (f.field === 1) s.meta = bytesOf(f);
    else if (f.field === 2) s.key = varintOf(f);
    else if (f.field === 3) s.queue = decodeJid(bytesOf(f));
  }
  return s;
}

export interface Jid {
  appKey: string;
  name: string;
  domain: string;
  clientResource?: string | undefined;
}

export function writeJid(w: Writer, field: number, j: Jid): void {
  w.message(field, (m) => {
    m.string(1, j.appKey).string(2, j.name).string(3, j.domain);
    if (j.clientResource) m.string(4, j.clientResource);
  });
}

function status(w: Writer, field: number, code: number, reason?: string): void {
  w.message(field, (s) => {
    s.varint(1, code);
    if (reason !== undefined) s.string(2, reason);
  });
}

export function msync(command: number, payload: Uint8Array): Uint8Array {
  return new Writer().varint(8, command).bytes(9, payload).finish();
}

export function provisionReply(ok: { resource: string; expiresMs: number } | { code: number; reason: string }): Uint8Array {
  const w = new Writer();
  if ("resource" in ok) {
    status(w, 8, STATUS.OK);
    w.string(13, ok.resource);
    // expires_in is an absolute epoch time in ms despite its name (easemob-wire §3d).
    w.string(18, JSON.stringify({ expires_in: ok.expiresMs }));
  } else {
    status(w, 8, ok.code, ok.reason);
  }
  return msync(CMD.PROVISION, w.finish());
}

export function unreadReply(queues: readonly { queue: Jid; n: number }[], nowMs: number): Uint8Array {
  const w = new Writer();
  status(w, 1, STATUS.OK);
  for (const q of queues) {
    w.message(2, (m) => {
      writeJid(m, 1, q.queue);
      m.varint(2, q.n);
    });
  }
  w.varint(3, nowMs);
  return msync(CMD.UNREAD, w.finish());
}

export function notice(queue: Jid): Uint8Array {
  const w = new Writer();
  writeJid(w, 1, queue);
  return msync(CMD.NOTICE, w.finish());
}

/** The answer to one uplink meta: correlated by the client's metaId, with the server id and time. */
export function ack(a: { metaId: bigint; serverId: bigint | number; nowMs: number; code: number; reason?: string | undefined; metas?: readonly Uint8Array[] }): Uint8Array {
  const w = new Writer();
  status(w, 1, a.code, a.reason);
  w.varint(2, a.metaId);
  w.varint(3, a.serverId);
  for (const m of a.metas ?? []) w.bytes(4, m);
  w.varint(8, a.nowMs);
  return msync(CMD.SYNC, w.finish());
}

/** A batch of a queue (pull reply or unsolicited push): metaId stays 0 so the client delivers the metas. */
export function batch(b: { queue: Jid; metas: readonly Uint8Array[]; nextKey: bigint | number | null; isLast: boolean; nowMs: number }): Uint8Array {
  const w = new Writer();
  status(w, 1, STATUS.OK);
  for (const m of b.metas) w.bytes(4, m);
  if (b.nextKey !== null) w.varint(5, b.nextKey);
  writeJid(w, 6, b.queue);
  w.varint(7, b.isLast);
  w.varint(8, b.nowMs);
  return msync(CMD.SYNC, w.finish());
}

/** A Meta the gateway builds (receipts, recalls, room pushes, MUC, roster, notify, statistic). */
export function metaOf(m: { id: bigint | number; from?: Jid | undefined; to?: Jid | undefined; nowMs: number; ns: number; payload: Uint8Array; ext?: readonly Uint8Array[] }): Uint8Array {
  const w = new Writer();
  w.varint(1, m.id);
  if (m.from) writeJid(w, 2, m.from);
  if (m.to) writeJid(w, 3, m.to);
  w.varint(4, m.nowMs);
  w.varint(5, m.ns);
  w.bytes(6, m.payload);
  for (const kv of m.ext ?? []) w.bytes(8, kv);
  return w.finish();
}

export function statisticsBody(operation: number, reason?: string): Uint8Array {
  const w = new Writer().varint(1, operation);
  if (reason) w.string(10, reason);
  return w.finish();
}
