import { IM_MUC_DOMAIN, IM_USER_DOMAIN, type ImMessageBody, type ImMessagePayload } from "@tessera/contracts";
import { Writer } from "./wire";

/**
 * The message as the protocol carries it (easemob-wire §1): a JSON payload becomes a MessageBody, and a
 * stored message a Meta (namespace CHAT). History replies send each Meta base64-encoded.
 */

const CHAT_TYPE = { chat: 1, groupchat: 2, chatroom: 3 } as const;
const CONTENT_TYPE = { txt: 0, img: 1, video: 2, loc: 3, audio: 4, file: 5, cmd: 6, custom: 7, combine: 8 } as const;
const KV = { BOOL: 1, LLINT: 4, DOUBLE: 6, STRING: 7, JSON_STRING: 8 } as const;

/**
 * A JID as a nested message (app key, name, domain, client resource), from its parts: the message path
 * writes two per message, so no object is made for them. The gateway's frames write theirs through it.
 */
export function writeJidParts(
  w: Writer,
  field: number,
  appKey: string,
  name: string,
  domain: string,
  clientResource?: string | null,
): void {
  const at = w.begin(field);
  w.string(1, appKey).string(2, name).string(3, domain);
  if (clientResource) w.string(4, clientResource);
  w.end(at);
}

/** One KeyValue: typed as the client decodes it (bool, 64-bit integer, double, string, JSON text). */
function keyValue(w: Writer, field: number, key: string, value: unknown): void {
  w.message(field, (m) => {
    m.string(1, key);
    if (typeof value === "boolean") m.varint(2, KV.BOOL).varint(3, value ? 1 : 0);
    else if (typeof value === "number" && Number.isSafeInteger(value)) m.varint(2, KV.LLINT).varint(3, value);
    else if (typeof value === "number") m.varint(2, KV.DOUBLE).double(5, value);
    else if (typeof value === "string") m.varint(2, KV.STRING).string(6, value);
    else m.varint(2, KV.JSON_STRING).string(6, JSON.stringify(value ?? null));
  });
}

function content(w: Writer, body: ImMessageBody): void {
  w.message(4, (c) => {
    c.varint(1, CONTENT_TYPE[body.type]);
    switch (body.type) {
      case "txt":
        c.string(2, body.msg);
        if (body.subType === "sub_stream") c.varint(22, 10);
        break;
      case "img":
        if (body.filename !== undefined) c.string(6, body.filename);
        c.string(7, body.url);
        if (body.secret !== undefined) c.string(8, body.secret);
        if (body.file_length !== undefined) c.varint(9, body.file_length);
        if (body.size) c.message(13, (s) => s.double(1, body.size?.width ?? 0).double(2, body.size?.height ?? 0));
        if (body.subType === "sub_gif") c.varint(22, 1);
        break;
      case "video":
        if (body.filename !== undefined) c.string(6, body.filename);
        c.string(7, body.url);
        if (body.secret !== undefined) c.string(8, body.secret);
        if (body.file_length !== undefined) c.varint(9, body.file_length);
        if (body.length !== undefined) c.varint(12, body.length);
        if (body.thumb !== undefined) c.string(14, body.thumb);
        if (body.thumb_secret !== undefined) c.string(15, body.thumb_secret);
        break;
      case "audio":
        if (body.filename !== undefined) c.string(6, body.filename);
        c.string(7, body.url);
        if (body.secret !== undefined) c.string(8, body.secret);
        if (body.file_length !== undefined) c.varint(9, body.file_length);
        if (body.length !== undefined) c.varint(12, body.length);
        break;
      case "file":
        if (body.filename !== undefined) c.string(6, body.filename);
        c.string(7, body.url);
        if (body.secret !== undefined) c.string(8, body.secret);
        if (body.file_length !== undefined) c.varint(9, body.file_length);
        break;
      case "loc":
        c.double(3, body.lat).double(4, body.lng);
        if (body.addr !== undefined) c.string(5, body.addr);
        if (body.buildingName !== undefined) c.string(21, body.buildingName);
        break;
      case "cmd":
        c.string(10, body.action);
        break;
      case "custom":
        if (body.customEvent !== undefined) c.string(19, body.customEvent);
        for (const item of body.customExts ?? []) for (const [k, v] of Object.entries(item)) keyValue(c, 20, k, v);
        break;
      case "combine":
        if (body.msg !== undefined) c.string(2, body.msg);
        if (body.filename !== undefined) c.string(6, body.filename);
        if (body.url !== undefined) c.string(7, body.url);
        if (body.secret !== undefined) c.string(8, body.secret);
        if (body.file_length !== undefined) c.varint(9, body.file_length);
        if (body.title !== undefined) c.string(23, body.title);
        if (body.summary !== undefined) c.string(24, body.summary);
        if (body.combineLevel !== undefined) c.varint(25, body.combineLevel);
        break;
    }
  });
}

export function encodeMessageBody(appKey: string, p: ImMessagePayload): Uint8Array {
  const w = new Writer();
  w.varint(1, CHAT_TYPE[p.type]);
  writeJidParts(w, 2, appKey, p.from, IM_USER_DOMAIN);
  writeJidParts(w, 3, appKey, p.to, IM_USER_DOMAIN);
  for (const body of p.bodies) content(w, body);
  for (const [k, v] of Object.entries(p.ext)) keyValue(w, 5, k, v);
  if (p.msgConfig?.allowGroupAck !== undefined) w.message(7, (m) => m.varint(1, p.msgConfig?.allowGroupAck ?? false));
  if (p.meta && Object.keys(p.meta).length > 0) w.string(9, JSON.stringify(p.meta));
  return w.finish();
}

export interface MetaInput {
  id: number;
  from: string;
  fromResource?: string | null | undefined;
  to: string;
  chatType: "chat" | "groupchat" | "chatroom";
  timestamp: number;
  body: Uint8Array;
}

/** A CHAT-namespace Meta around a MessageBody. */
export function encodeMeta(appKey: string, m: MetaInput): Uint8Array {
  const w = new Writer();
  w.varint(1, m.id);
  writeJidParts(w, 2, appKey, m.from, IM_USER_DOMAIN, m.fromResource);
  writeJidParts(w, 3, appKey, m.to, m.chatType === "chat" ? IM_USER_DOMAIN : IM_MUC_DOMAIN);
  w.varint(4, m.timestamp);
  w.varint(5, 1);
  w.bytes(6, m.body);
  return w.finish();
}
