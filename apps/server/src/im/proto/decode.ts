import { Reader } from "./wire";

/**
 * Reading the protocol's Meta and MessageBody back (the gateway decodes uplink frames with these; the
 * tests check what history replies carry).
 */
export interface DecodedJid {
  appKey: string;
  name: string;
  domain: string;
  clientResource: string;
}

export interface DecodedKeyValue {
  key: string;
  type: number;
  value: unknown;
}

export interface DecodedContent {
  type: number;
  text?: string;
  latitude?: number;
  longitude?: number;
  address?: string;
  displayName?: string;
  remotePath?: string;
  secretKey?: string;
  fileLength?: number;
  action?: string;
  duration?: number;
  size?: { width: number; height: number };
  thumbnailRemotePath?: string;
  customEvent?: string;
  customExts: DecodedKeyValue[];
  buildingName?: string;
  subType?: number;
  title?: string;
  summary?: string;
  combineLevel?: number;
}

export interface DecodedBody {
  type: number;
  from: DecodedJid | null;
  to: DecodedJid | null;
  contents: DecodedContent[];
  ext: DecodedKeyValue[];
  meta?: string;
  allowGroupAck?: boolean;
  ackMessageId?: bigint;
  /** Field 17, repeated uint64 (packed or not): the read receipts of the chat SDK 5 name several messages. */
  ackMessageIds?: bigint[];
  ackContent?: string;
  editMessageId?: bigint;
  editScope?: number;
}

export interface DecodedMeta {
  id: bigint;
  from: DecodedJid | null;
  to: DecodedJid | null;
  timestamp: bigint;
  ns: number;
  payload: Uint8Array;
  /** 0 all, 1 online only, 2 directed users. */
  routetype: number;
  ext: DecodedKeyValue[];
  /** The ext KeyValues as sent (room priority tag, recall info), for forwarding unchanged. */
  extRaw: Uint8Array[];
  directedUsers: string[];
}

const EMPTY = new Uint8Array();

export function decodeJid(buf: Uint8Array): DecodedJid {
  return readJid(new Reader(buf));
}

/** A JID from a reader (of a nested message: decoding from the frame's bytes in place). */
export function readJid(r: Reader): DecodedJid {
  const j: DecodedJid = { appKey: "", name: "", domain: "", clientResource: "" };
  while (r.next()) {
    if (r.field === 1) j.appKey = r.string();
    else if (r.field === 2) j.name = r.string();
    else if (r.field === 3) j.domain = r.string();
    else if (r.field === 4) j.clientResource = r.string();
  }
  return j;
}

export function decodeKeyValue(buf: Uint8Array): DecodedKeyValue {
  return readKeyValue(new Reader(buf));
}

function readKeyValue(r: Reader): DecodedKeyValue {
  const kv: DecodedKeyValue = { key: "", type: 0, value: undefined };
  while (r.next()) {
    if (r.field === 1) kv.key = r.string();
    else if (r.field === 2) kv.type = r.int();
    else if (r.field === 3) kv.value = kv.type === 1 ? r.int() !== 0 : r.int();
    else if (r.field === 4) kv.value = r.float();
    else if (r.field === 5) kv.value = r.double();
    else if (r.field === 6) kv.value = kv.type === 8 ? (JSON.parse(r.string()) as unknown) : r.string();
  }
  return kv;
}

function readContent(r: Reader): DecodedContent {
  const c: DecodedContent = { type: 0, customExts: [] };
  while (r.next()) {
    switch (r.field) {
      case 1:
        c.type = r.int();
        break;
      case 2:
        c.text = r.string();
        break;
      case 3:
        c.latitude = r.double();
        break;
      case 4:
        c.longitude = r.double();
        break;
      case 5:
        c.address = r.string();
        break;
      case 6:
        c.displayName = r.string();
        break;
      case 7:
        c.remotePath = r.string();
        break;
      case 8:
        c.secretKey = r.string();
        break;
      case 9:
        c.fileLength = r.int();
        break;
      case 10:
        c.action = r.string();
        break;
      case 12:
        c.duration = r.int();
        break;
      case 13: {
        const size = { width: 0, height: 0 };
        const g = r.message();
        while (g.next()) {
          if (g.field === 1) size.width = g.double();
          else if (g.field === 2) size.height = g.double();
        }
        c.size = size;
        break;
      }
      case 14:
        c.thumbnailRemotePath = r.string();
        break;
      case 19:
        c.customEvent = r.string();
        break;
      case 20:
        c.customExts.push(readKeyValue(r.message()));
        break;
      case 21:
        c.buildingName = r.string();
        break;
      case 22:
        c.subType = r.int();
        break;
      case 23:
        c.title = r.string();
        break;
      case 24:
        c.summary = r.string();
        break;
      case 25:
        c.combineLevel = r.int();
        break;
      default:
        break;
    }
  }
  return c;
}

/** MessageConfig.allowGroupAck (field 1) is set to 1. */
function allowsGroupAck(r: Reader): boolean {
  while (r.next()) if (r.field === 1 && r.wireType === 0 && r.uint64() === 1n) return true;
  return false;
}

/** A repeated uint64 field's values at the reader: one varint, or a packed run of them. */
function repeatedUint64(r: Reader): bigint[] {
  if (r.wireType === 0) return [r.uint64()];
  if (r.wireType !== 2) return [];
  const packed = r.bytes();
  const out: bigint[] = [];
  let v = 0n;
  let shift = 0n;
  for (const b of packed) {
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
    if ((b & 0x80) === 0) {
      out.push(BigInt.asUintN(64, v));
      v = 0n;
      shift = 0n;
    } else if (shift >= 70n) throw new Error("protobuf: varint too long");
  }
  if (shift !== 0n) throw new Error("protobuf: truncated varint");
  return out;
}

export function decodeMessageBody(buf: Uint8Array): DecodedBody {
  const b: DecodedBody = { type: 0, from: null, to: null, contents: [], ext: [] };
  const r = new Reader(buf);
  while (r.next()) {
    if (r.field === 1) b.type = r.int();
    else if (r.field === 2) b.from = readJid(r.message());
    else if (r.field === 3) b.to = readJid(r.message());
    else if (r.field === 4) b.contents.push(readContent(r.message()));
    else if (r.field === 5) b.ext.push(readKeyValue(r.message()));
    else if (r.field === 7) b.allowGroupAck = allowsGroupAck(r.message());
    else if (r.field === 9) b.meta = r.string();
    else if (r.field === 6) b.ackMessageId = r.uint64();
    else if (r.field === 17) (b.ackMessageIds ??= []).push(...repeatedUint64(r));
    else if (r.field === 8) b.ackContent = r.string();
    else if (r.field === 11) b.editMessageId = r.uint64();
    else if (r.field === 12) b.editScope = r.int();
  }
  return b;
}

export function decodeMeta(buf: Uint8Array): DecodedMeta {
  const m: DecodedMeta = {
    id: 0n,
    from: null,
    to: null,
    timestamp: 0n,
    ns: 0,
    payload: EMPTY,
    routetype: 0,
    ext: [],
    extRaw: [],
    directedUsers: [],
  };
  const r = new Reader(buf);
  while (r.next()) {
    if (r.field === 1) m.id = r.uint64();
    else if (r.field === 2) m.from = readJid(r.message());
    else if (r.field === 3) m.to = readJid(r.message());
    else if (r.field === 4) m.timestamp = r.uint64();
    else if (r.field === 5) m.ns = r.int();
    else if (r.field === 6) m.payload = r.bytes();
    else if (r.field === 7) m.routetype = r.int();
    else if (r.field === 8) {
      m.extRaw.push(r.bytes());
      m.ext.push(readKeyValue(r.message()));
    } else if (r.field === 10) m.directedUsers.push(r.string());
  }
  return m;
}
