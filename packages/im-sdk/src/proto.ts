/**
 * A small protocol-buffers codec for the IM frames (package `easemob.pb`, proto2). Browser-safe: only
 * Uint8Array, DataView, TextEncoder/TextDecoder and BigInt. 64-bit integers are decimal strings in the
 * decoded objects (server ids exceed 2^53) and may be given as string, number or bigint when encoding.
 * Optional fields are written whenever they are set (not undefined/null), even to their default value,
 * because the protocol tests presence (a combine message is a TEXT content with subType present and 0).
 * Repeated scalar fields are written unpacked and read in both forms.
 */

type Scalar = "u64" | "i64" | "i32" | "u32" | "enum" | "bool" | "double" | "float" | "string" | "bytes";
/** [field number, name, kind (a scalar or a nested schema), repeated] */
type Field = readonly [number, string, Scalar | Schema, boolean?];
export interface Schema {
  readonly fields: readonly Field[];
}

const schema = (fields: Field[]): Schema => ({ fields });

export const JID = schema([
  [1, "appKey", "string"],
  [2, "name", "string"],
  [3, "domain", "string"],
  [4, "clientResource", "string"],
]);
export const KeyValue = schema([
  [1, "key", "string"],
  [2, "type", "enum"],
  [3, "varintValue", "i64"],
  [4, "floatValue", "float"],
  [5, "doubleValue", "double"],
  [6, "stringValue", "string"],
]);
const Size = schema([
  [1, "width", "double"],
  [2, "height", "double"],
]);
export const Content = schema([
  [1, "type", "enum"],
  [2, "text", "string"],
  [3, "latitude", "double"],
  [4, "longitude", "double"],
  [5, "address", "string"],
  [6, "displayName", "string"],
  [7, "remotePath", "string"],
  [8, "secretKey", "string"],
  [9, "fileLength", "i32"],
  [10, "action", "string"],
  [11, "params", KeyValue, true],
  [12, "duration", "i32"],
  [13, "size", Size],
  [14, "thumbnailRemotePath", "string"],
  [15, "thumbnailSecretKey", "string"],
  [16, "thumbnailDisplayName", "string"],
  [17, "thumbnailFileLength", "i32"],
  [18, "thumbnailSize", Size],
  [19, "customEvent", "string"],
  [20, "customExts", KeyValue, true],
  [21, "buildingName", "string"],
  [22, "subType", "enum"],
  [23, "title", "string"],
  [24, "summary", "string"],
  [25, "combineLevel", "i32"],
]);
export const MessageBody = schema([
  [1, "type", "enum"],
  [2, "from", JID],
  [3, "to", JID],
  [4, "contents", Content, true],
  [5, "ext", KeyValue, true],
  [6, "ackMessageId", "u64"],
  [7, "msgConfig", schema([[1, "allowGroupAck", "bool"]])],
  [8, "ackContent", "string"],
  [9, "meta", "string"],
  [11, "editMessageId", "u64"],
  [12, "editScope", "enum"],
]);
export const Status = schema([
  [1, "errorCode", "enum"],
  [2, "reason", "string"],
]);
export const Meta = schema([
  [1, "id", "u64"],
  [2, "from", JID],
  [3, "to", JID],
  [4, "timestamp", "u64"],
  [5, "ns", "enum"],
  [6, "payload", "bytes"],
  [7, "routetype", "enum"],
  [8, "ext", KeyValue, true],
  [9, "meta", "bytes"],
  [10, "directedUsers", "string", true],
]);
export const MSync = schema([
  [1, "version", "enum"],
  [2, "guid", JID],
  [3, "auth", "string"],
  [8, "command", "enum"],
  [9, "payload", "bytes"],
  [10, "deviceId", "u32"],
  [11, "encryptType", "enum", true],
  [20, "traceId", "u64"],
]);
export const CommSyncUL = schema([
  [1, "meta", Meta],
  [2, "key", "u64"],
  [3, "queue", JID],
]);
export const CommSyncDL = schema([
  [1, "status", Status],
  [2, "metaId", "u64"],
  [3, "serverId", "u64"],
  [4, "metas", Meta, true],
  [5, "nextKey", "u64"],
  [6, "queue", JID],
  [7, "isLast", "bool"],
  [8, "timestamp", "u64"],
]);
export const CommNotice = schema([[1, "queue", JID]]);
export const CommUnreadDL = schema([
  [1, "status", Status],
  [
    2,
    "unread",
    schema([
      [1, "queue", JID],
      [2, "n", "u32"],
    ]),
    true,
  ],
  [3, "timestamp", "u64"],
]);
export const Provision = schema([
  [1, "osType", "enum"],
  [2, "version", "string"],
  [5, "compressType", "enum", true],
  [6, "encryptType", "enum", true],
  [8, "status", Status],
  [9, "deviceUuid", "string"],
  [12, "deviceName", "string"],
  [13, "resource", "string"],
  [17, "actionVersion", "string"],
  [18, "authToken", "string"],
  [20, "sessionId", "string"],
  [21, "reason", "string"],
]);
export const Logout = schema([
  [1, "sessionId", "string"],
  [2, "reason", "string"],
]);
const MucStatus = schema([
  [1, "errorCode", "enum"],
  [2, "description", "string"],
  [3, "chatroomInfo", "string"],
]);
export const MUCBody = schema([
  [1, "mucId", JID],
  [2, "operation", "enum"],
  [3, "from", JID],
  [4, "to", JID, true],
  [6, "reason", "string"],
  [7, "isChatroom", "bool"],
  [8, "status", MucStatus],
  [9, "isThread", "bool"],
  [10, "mucParentId", JID],
  [11, "mucName", "string"],
  [
    12,
    "eventInfo",
    schema([
      [1, "eventType", "enum"],
      [2, "ext", "string"],
    ]),
  ],
  [13, "mucMemberCount", "i32"],
  [14, "ext", "string"],
  [15, "leaveOtherRooms", "bool"],
  [16, "members", "string", true],
]);
export const RosterBody = schema([
  [1, "operation", "enum"],
  [3, "from", JID],
  [4, "to", JID, true],
  [5, "reason", "string"],
]);
export const StatisticsBody = schema([
  [1, "operation", "enum"],
  [10, "reason", "string"],
]);

/** Decoded values: plain objects keyed by field name. */
export type Decoded = { [name: string]: unknown };

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

class Writer {
  private buf = new Uint8Array(64);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  varint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.byte(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.byte(Number(v));
  }

  /** Small non-negative numbers without BigInt (tags and lengths). */
  uvarint(value: number): void {
    let v = value >>> 0;
    while (v >= 0x80) {
      this.byte((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    this.byte(v);
  }

  bytes(data: Uint8Array): void {
    this.uvarint(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
  }

  fixed(size: 4 | 8, write: (view: DataView) => void): void {
    this.ensure(size);
    write(new DataView(this.buf.buffer, this.buf.byteOffset + this.len, size));
    this.len += size;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

function toBigInt(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number") return BigInt(Math.trunc(value));
  if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`not an integer: ${String(value)}`);
}

function writeValue(w: Writer, no: number, kind: Scalar | Schema, value: unknown): void {
  if (typeof kind !== "string") {
    w.uvarint((no << 3) | 2);
    w.bytes(encode(kind, value as Decoded));
    return;
  }
  switch (kind) {
    case "u64":
    case "i64":
    case "i32":
    case "u32":
    case "enum":
    case "bool":
      w.uvarint(no << 3);
      w.varint(toBigInt(value));
      return;
    case "double":
      w.uvarint((no << 3) | 1);
      w.fixed(8, (v) => v.setFloat64(0, Number(value), true));
      return;
    case "float":
      w.uvarint((no << 3) | 5);
      w.fixed(4, (v) => v.setFloat32(0, Number(value), true));
      return;
    case "string":
      w.uvarint((no << 3) | 2);
      w.bytes(utf8Encoder.encode(String(value)));
      return;
    case "bytes":
      w.uvarint((no << 3) | 2);
      w.bytes(value instanceof Uint8Array ? value : utf8Encoder.encode(String(value)));
      return;
  }
}

/** Encodes `value` with `schema`, fields in field-number order as declared. */
export function encode(s: Schema, value: Decoded): Uint8Array {
  const w = new Writer();
  for (const [no, name, kind, repeated] of s.fields) {
    const v = value[name];
    if (v === undefined || v === null) continue;
    if (repeated) {
      for (const item of v as unknown[]) writeValue(w, no, kind, item);
    } else {
      writeValue(w, no, kind, v);
    }
  }
  return w.finish();
}

class Reader {
  pos = 0;
  private readonly view: DataView;
  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new RangeError("truncated varint");
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
      if (shift > 63n) throw new RangeError("varint too long");
    }
  }

  uvarint(): number {
    let result = 0;
    let mul = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw new RangeError("truncated varint");
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
      if (mul > 2 ** 63) throw new RangeError("varint too long");
    }
  }

  take(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new RangeError("truncated field");
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  double(): number {
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  float(): number {
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.take(8);
    else if (wire === 2) this.take(this.uvarint());
    else if (wire === 5) this.take(4);
    else throw new RangeError(`unsupported wire type ${wire}`);
  }
}

function readScalar(r: Reader, kind: Scalar): unknown {
  switch (kind) {
    case "u64":
      return BigInt.asUintN(64, r.varint()).toString();
    case "i64":
      return BigInt.asIntN(64, r.varint()).toString();
    case "i32":
    case "enum":
      return Number(BigInt.asIntN(32, r.varint()));
    case "u32":
      return Number(BigInt.asUintN(32, r.varint()));
    case "bool":
      return r.varint() !== 0n;
    case "double":
      return r.double();
    case "float":
      return r.float();
    case "string":
      return utf8Decoder.decode(r.take(r.uvarint()));
    case "bytes":
      return r.take(r.uvarint()).slice();
  }
}

const isVarintKind = (k: Scalar): boolean => k !== "double" && k !== "float" && k !== "string" && k !== "bytes";

/** Decodes `bytes` with `schema`. Unknown fields are skipped; repeated scalars are read packed or not. */
export function decode(s: Schema, bytes: Uint8Array): Decoded {
  const out: Decoded = {};
  const r = new Reader(bytes);
  const byNo = new Map<number, Field>();
  for (const f of s.fields) byNo.set(f[0], f);
  for (const [, name, , repeated] of s.fields) if (repeated) out[name] = [];
  while (r.pos < bytes.length) {
    const tag = r.uvarint();
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    const field = byNo.get(no);
    if (!field) {
      r.skip(wire);
      continue;
    }
    const [, name, kind, repeated] = field;
    let value: unknown;
    if (typeof kind !== "string") {
      if (wire !== 2) throw new RangeError(`field ${name}: wrong wire type`);
      value = decode(kind, r.take(r.uvarint()));
    } else if (repeated && wire === 2 && isVarintKind(kind)) {
      const inner = new Reader(r.take(r.uvarint()));
      const list = out[name] as unknown[];
      while (inner.pos < inner.buf.length) list.push(readScalar(inner, kind));
      continue;
    } else {
      value = readScalar(r, kind);
    }
    if (repeated) (out[name] as unknown[]).push(value);
    else out[name] = value;
  }
  return out;
}

/** The MSync commands. */
export const COMMAND = { SYNC: 0, UNREAD: 1, NOTICE: 2, PROVISION: 3, LOGOUT: 4 } as const;
/** Meta namespaces. */
export const NS = { STATISTIC: 0, CHAT: 1, MUC: 2, ROSTER: 3, CONFERENCE: 4, NOTIFY: 5 } as const;
/** MessageBody types. */
export const BODY_TYPE = {
  NORMAL: 0,
  CHAT: 1,
  GROUPCHAT: 2,
  CHATROOM: 3,
  READ_ACK: 4,
  DELIVER_ACK: 5,
  RECALL: 6,
  CHANNEL_ACK: 7,
  EDIT: 8,
} as const;
/** Content types. */
export const CONTENT_TYPE = {
  TEXT: 0,
  IMAGE: 1,
  VIDEO: 2,
  LOCATION: 3,
  VOICE: 4,
  FILE: 5,
  COMMAND: 6,
  CUSTOM: 7,
  COMBINE: 8,
} as const;
/** KeyValue value types. */
export const KV_TYPE = { BOOL: 1, INT: 2, UINT: 3, LLINT: 4, FLOAT: 5, DOUBLE: 6, STRING: 7, JSON_STRING: 8 } as const;

/** A JS value as a typed KeyValue (booleans, integers, doubles, strings, objects as JSON text). */
export function toKeyValue(key: string, value: unknown): Decoded | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "boolean") return { key, type: KV_TYPE.BOOL, varintValue: value ? 1 : 0 };
  if (typeof value === "number" && Number.isFinite(value)) {
    return Number.isInteger(value)
      ? { key, type: KV_TYPE.INT, varintValue: value }
      : { key, type: KV_TYPE.DOUBLE, doubleValue: value };
  }
  if (typeof value === "string") return { key, type: KV_TYPE.STRING, stringValue: value };
  if (value !== null && typeof value === "object") {
    return { key, type: KV_TYPE.JSON_STRING, stringValue: JSON.stringify(value) };
  }
  return {
    key,
    type: KV_TYPE.STRING,
    stringValue: typeof value === "bigint" || typeof value === "symbol" ? value.toString() : "",
  };
}

/** A decoded KeyValue back to its JS value (undefined when the type is unknown). */
export function fromKeyValue(kv: Decoded): unknown {
  switch (kv.type) {
    case KV_TYPE.JSON_STRING:
      try {
        return JSON.parse(asText(kv.stringValue));
      } catch {
        return kv.stringValue;
      }
    case KV_TYPE.STRING:
      return kv.stringValue ?? "";
    case KV_TYPE.DOUBLE:
      return kv.doubleValue ?? 0;
    case KV_TYPE.FLOAT:
      return kv.floatValue ?? 0;
    case KV_TYPE.BOOL:
      return kv.varintValue !== undefined && kv.varintValue !== "0";
    case KV_TYPE.INT:
    case KV_TYPE.UINT:
    case KV_TYPE.LLINT:
      return Number(kv.varintValue ?? 0);
    default:
      return undefined;
  }
}

export function encodeExt(ext: Record<string, unknown> | undefined): Decoded[] {
  const out: Decoded[] = [];
  for (const [k, v] of Object.entries(ext ?? {})) {
    const kv = toKeyValue(k, v);
    if (kv) out.push(kv);
  }
  return out;
}

export function decodeExt(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of (list as Decoded[] | undefined) ?? []) {
    const v = fromKeyValue(kv);
    if (v !== undefined) out[String(kv.key)] = v;
  }
  return out;
}

/** Base64 (standard alphabet) to bytes without Buffer. */
export function base64ToBytes(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A decoded or parsed value as text: strings as they are, numbers and booleans written out, else `fallback`. */
export function asText(v: unknown, fallback = ""): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  return fallback;
}
