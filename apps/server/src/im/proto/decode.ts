import { readFields, type Field } from "./wire";

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

const text = (f: Field) => Buffer.from(f.bytes ?? new Uint8Array()).toString("utf8");
const num = (f: Field) => Number(BigInt.asIntN(64, f.varint ?? 0n));
const dbl = (f: Field) => Buffer.from(f.bytes ?? new Uint8Array(8)).readDoubleLE(0);

export function decodeJid(buf: Uint8Array): DecodedJid {
  const j: DecodedJid = { appKey: "", name: "", domain: "", clientResource: "" };
  for (const f of readFields(buf)) {
    if (f.field === 1) j.appKey = text(f);
    else if (f.field === 2) j.name = text(f);
    else if (f.field === 3) j.domain = text(f);
    else if (f.field === 4) j.clientResource = text(f);
  }
  return j;
}

export function decodeKeyValue(buf: Uint8Array): DecodedKeyValue {
  const kv: DecodedKeyValue = { key: "", type: 0, value: undefined };
  for (const f of readFields(buf)) {
    if (f.field === 1) kv.key = text(f);
    else if (f.field === 2) kv.type = num(f);
    else if (f.field === 3) kv.value = kv.type === 1 ? num(f) !== 0 : num(f);
    else if (f.field === 4) kv.value = Buffer.from(f.bytes ?? new Uint8Array(4)).readFloatLE(0);
    else if (f.field === 5) kv.value = dbl(f);
    else if (f.field === 6) kv.value = kv.type === 8 ? (JSON.parse(text(f)) as unknown) : text(f);
  }
  return kv;
}

function decodeContent(buf: Uint8Array): DecodedContent {
  const c: DecodedContent = { type: 0, customExts: [] };
  for (const f of readFields(buf)) {
    switch (f.field) {
      case 1: c.type = num(f); break;
      case 2: c.text = text(f); break;
      case 3: c.latitude = dbl(f); break;
      case 4: c.longitude = dbl(f); break;
      case 5: c.address = text(f); break;
      case 6: c.displayName = text(f); break;
      case 7: c.remotePath = text(f); break;
      case 8: c.secretKey = text(f); break;
      case 9: c.fileLength = num(f); break;
      case 10: c.action = text(f); break;
      case 12: c.duration = num(f); break;
      case 13: {
        const size = { width: 0, height: 0 };
        for (const g of readFields(f.bytes ?? new Uint8Array())) {
          if (g.field === 1) size.width = dbl(g);
          else if (g.field === 2) size.height = dbl(g);
        }
        c.size = size;
        break;
      }
      case 14: c.thumbnailRemotePath = text(f); break;
      case 19: c.customEvent = text(f); break;
      case 20: c.customExts.push(decodeKeyValue(f.bytes ?? new Uint8Array())); break;
      case 21: c.buildingName = text(f); break;
      case 22: c.subType = num(f); break;
      case 23: c.title = text(f); break;
      case 24: c.summary = text(f); break;
      case 25: c.combineLevel = num(f); break;
      default: break;
    }
  }
  return c;
}

export function decodeMessageBody(buf: Uint8Array): DecodedBody {
  const b: DecodedBody = { type: 0, from: null, to: null, contents: [], ext: [] };
  for (const f of readFields(buf)) {
    if (f.field === 1) b.type = num(f);
    else if (f.field === 2) b.from = decodeJid(f.bytes ?? new Uint8Array());
    else if (f.field === 3) b.to = decodeJid(f.bytes ?? new Uint8Array());
    else if (f.field === 4) b.contents.push(decodeContent(f.bytes ?? new Uint8Array()));
    else if (f.field === 5) b.ext.push(decodeKeyValue(f.bytes ?? new Uint8Array()));
    else if (f.field === 7) b.allowGroupAck = readFields(f.bytes ?? new Uint8Array()).some((g) => g.field === 1 && g.varint === 1n);
    else if (f.field === 9) b.meta = text(f);
    else if (f.field === 6) b.ackMessageId = f.varint ?? 0n;
    else if (f.field === 8) b.ackContent = text(f);
    else if (f.field === 11) b.editMessageId = f.varint ?? 0n;
    else if (f.field === 12) b.editScope = num(f);
  }
  return b;
}

export function decodeMeta(buf: Uint8Array): DecodedMeta {
  const m: DecodedMeta = { id: 0n, from: null, to: null, timestamp: 0n, ns: 0, payload: new Uint8Array(), routetype: 0, ext: [], extRaw: [], directedUsers: [] };
  for (const f of readFields(buf)) {
    if (f.field === 1) m.id = f.varint ?? 0n;
    else if (f.field === 2) m.from = decodeJid(f.bytes ?? new Uint8Array());
    else if (f.field === 3) m.to = decodeJid(f.bytes ?? new Uint8Array());
    else if (f.field === 4) m.timestamp = f.varint ?? 0n;
    else if (f.field === 5) m.ns = num(f);
    else if (f.field === 6) m.payload = f.bytes ?? new Uint8Array();
    else if (f.field === 7) m.routetype = num(f);
    else if (f.field === 8) {
      m.extRaw.push(f.bytes ?? new Uint8Array());
      m.ext.push(decodeKeyValue(f.bytes ?? new Uint8Array()));
    }
    else if (f.field === 10) m.directedUsers.push(text(f));
  }
  return m;
}
