import { Reader, Writer } from "../proto/wire";
import { readJid, type DecodedJid } from "../proto/decode";
import { writeJidParts } from "../proto/message";

/**
 * The envelope frames of the realtime protocol (easemob-wire §1-2): one MSync per websocket binary
 * message. Only the fields the gateway reads or the client reads are handled; anything else is skipped.
 */

export const CMD = { SYNC: 0, UNREAD: 1, NOTICE: 2, PROVISION: 3, LOGOUT: 4 } as const;
export const NS = { STATISTIC: 0, CHAT: 1, MUC: 2, ROSTER: 3, CONFERENCE: 4, NOTIFY: 5 } as const;

/** Status.ErrorCode values the gateway answers with (20 is the client's RESOURCE_CHANGED). */
export const STATUS = {
  OK: 0,
  FAIL: 1,
  UNAUTHORIZED: 2,
  WRONG_PARAMETER: 4,
  PERMISSION_DENIED: 7,
  UNKNOWN_COMMAND: 9,
  PB_PARSER_ERROR: 10,
  IM_FORBIDDEN: 12,
  TOO_MANY_DEVICES: 13,
  USER_MUTED: 15,
} as const;

/** StatisticsBody operations that end a session (easemob-wire §3l). */
export const KICK = { USER_REMOVED: 1, LOGIN_ANOTHER_DEVICE: 2, CHANGE_PASSWORD: 3, OTHER_DEVICE: 4 } as const;

export class FrameError extends Error {}

/** Envelope fields of the wrong wire type make the frame unreadable (the connection is closed). */
function bytesOf(r: Reader): Uint8Array {
  if (r.wireType !== 2) throw new FrameError(`field ${r.field} is not length-delimited`);
  return r.bytes();
}
function jidOf(r: Reader): DecodedJid {
  if (r.wireType !== 2) throw new FrameError(`field ${r.field} is not length-delimited`);
  return readJid(r.message());
}
function varintOf(r: Reader): bigint {
  if (r.wireType !== 0) throw new FrameError(`field ${r.field} is not a varint`);
  return r.uint64();
}

export interface MSyncIn {
  command: number;
  guid: DecodedJid | null;
  auth: string;
  payload: Uint8Array | null;
}

export function decodeMSync(buf: Uint8Array): MSyncIn {
  const m: MSyncIn = { command: 0, guid: null, auth: "", payload: null };
  const r = new Reader(buf);
  while (r.next()) {
    if (r.field === 2) m.guid = jidOf(r);
    else if (r.field === 3) m.auth = r.string();
    else if (r.field === 8) m.command = Number(varintOf(r));
    else if (r.field === 9) m.payload = bytesOf(r);
  }
  return m;
}

export interface ProvisionIn {
  resource: string;
  deviceUuid: string;
  sessionId: string;
  /** The client's loginInfoCustomExt, shown to the device it kicks. */
  reason: string;
  /**
   * Field 18, `{"token":"$t$…"}`: where the chat SDK 5 (in easemob-chat-uikit 3.x) puts the token,
   * leaving the envelope's `auth` empty; 4.x sends both.
   */
  authToken: string;
}

export function decodeProvision(buf: Uint8Array): ProvisionIn {
  const p: ProvisionIn = { resource: "", deviceUuid: "", sessionId: "", reason: "", authToken: "" };
  const r = new Reader(buf);
  while (r.next()) {
    if (r.field === 13) p.resource = r.string();
    else if (r.field === 9) p.deviceUuid = r.string();
    else if (r.field === 20) p.sessionId = r.string();
    else if (r.field === 21) p.reason = r.string();
    else if (r.field === 18) p.authToken = r.string();
  }
  return p;
}

/** The login token of a provision: the envelope's `auth`, else the provision's authToken JSON. */
export function provisionToken(auth: string, p: ProvisionIn): string {
  let token = auth;
  if (token === "" && p.authToken !== "") {
    try {
      const parsed = JSON.parse(p.authToken) as unknown;
      const t = typeof parsed === "object" && parsed !== null ? (parsed as { token?: unknown }).token : undefined;
      token = typeof t === "string" ? t : "";
    } catch {
      token = "";
    }
  }
  return token.startsWith("$t$") ? token.slice(3) : token;
}

export interface SyncUlIn {
  meta: Uint8Array | null;
  key: bigint | null;
  queue: DecodedJid | null;
}

export function decodeSyncUl(buf: Uint8Array): SyncUlIn {
  const s: SyncUlIn = { meta: null, key: null, queue: null };
  const r = new Reader(buf);
  while (r.next()) {
    if (r.field === 1) s.meta = bytesOf(r);
    else if (r.field === 2) s.key = varintOf(r);
    else if (r.field === 3) s.queue = jidOf(r);
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
  writeJidParts(w, field, j.appKey, j.name, j.domain, j.clientResource);
}

function status(w: Writer, field: number, code: number, reason?: string): void {
  const at = w.begin(field);
  w.varint(1, code);
  if (reason !== undefined) w.string(2, reason);
  w.end(at);
}

export function msync(command: number, payload: Uint8Array): Uint8Array {
  return new Writer().varint(8, command).bytes(9, payload).finish();
}

/** An MSync envelope whose payload the caller writes in place (ended by the returned writer's end(at)). */
function envelope(command: number): { w: Writer; at: number } {
  const w = new Writer().varint(8, command);
  return { w, at: w.begin(9) };
}

export function provisionReply(
  ok: { resource: string; expiresMs: number } | { code: number; reason: string },
): Uint8Array {
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
  const { w, at } = envelope(CMD.NOTICE);
  writeJid(w, 1, queue);
  return w.end(at).finish();
}

/** The answer to one uplink meta: correlated by the client's metaId, with the server id and time. */
export function ack(a: {
  metaId: bigint;
  serverId: bigint | number;
  nowMs: number;
  code: number;
  reason?: string | undefined;
  metas?: readonly Uint8Array[] | undefined;
}): Uint8Array {
  const { w, at } = envelope(CMD.SYNC);
  status(w, 1, a.code, a.reason);
  w.varint(2, a.metaId);
  w.varint(3, a.serverId);
  for (const m of a.metas ?? []) w.bytes(4, m);
  w.varint(8, a.nowMs);
  return w.end(at).finish();
}

/** A batch of a queue (pull reply or unsolicited push): metaId stays 0 so the client delivers the metas. */
export function batch(b: {
  queue: Jid;
  metas: readonly Uint8Array[];
  nextKey: bigint | number | null;
  isLast: boolean;
  nowMs: number;
}): Uint8Array {
  const { w, at } = envelope(CMD.SYNC);
  status(w, 1, STATUS.OK);
  for (const m of b.metas) w.bytes(4, m);
  if (b.nextKey !== null) w.varint(5, b.nextKey);
  writeJid(w, 6, b.queue);
  w.varint(7, b.isLast);
  w.varint(8, b.nowMs);
  return w.end(at).finish();
}

/** A Meta the gateway builds (receipts, recalls, room pushes, MUC, roster, notify, statistic). */
export function metaOf(m: {
  id: bigint | number;
  from?: Jid | undefined;
  to?: Jid | undefined;
  nowMs: number;
  ns: number;
  payload: Uint8Array;
  ext?: readonly Uint8Array[];
}): Uint8Array {
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
