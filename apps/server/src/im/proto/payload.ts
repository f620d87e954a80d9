import type { ImMessageBody, ImMessagePayload } from "@tessera/contracts";
import type { DecodedBody, DecodedContent, DecodedKeyValue } from "./decode";
import type { ChatType } from "../tables";

/**
 * The JSON form (REST lastMessage, pinned messages, history search by type) of a message that arrived
 * as a protobuf MessageBody. The protobuf bytes themselves are stored and forwarded verbatim, so this
 * form only has to be faithful for what the REST side shows.
 */

/** Content.subType present and 0 marks a combined message sent as TEXT (easemob-wire §6.4). */
const SUB_COMBINE = 0;
const SUB_GIF = 1;
const SUB_STREAM = 10;

export class BodyError extends Error {}

function opt<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function combine(c: DecodedContent): ImMessageBody {
  return {
    type: "combine",
    ...opt("msg", c.text),
    ...opt("title", c.title),
    ...opt("summary", c.summary),
    ...opt("url", c.remotePath),
    ...opt("secret", c.secretKey),
    ...opt("filename", c.displayName),
    ...opt("file_length", c.fileLength),
    ...opt("combineLevel", c.combineLevel),
  };
}

function media(c: DecodedContent) {
  return {
    url: c.remotePath ?? "",
    ...opt("secret", c.secretKey),
    ...opt("filename", c.displayName),
    ...opt("file_length", c.fileLength),
  };
}

export function bodyOf(c: DecodedContent): ImMessageBody {
  switch (c.type) {
    case 0:
      if (c.subType === SUB_COMBINE) return combine(c);
      return { type: "txt", msg: c.text ?? "", ...(c.subType === SUB_STREAM && { subType: "sub_stream" }) };
    case 1:
      return { type: "img", ...media(c), ...opt("size", c.size), ...(c.subType === SUB_GIF && { subType: "sub_gif" }) };
    case 2:
      return { type: "video", ...media(c), ...opt("length", c.duration), ...opt("thumb", c.thumbnailRemotePath) };
    case 3:
      return {
        type: "loc",
        lat: c.latitude ?? 0,
        lng: c.longitude ?? 0,
        ...opt("addr", c.address),
        ...opt("buildingName", c.buildingName),
      };
    case 4:
      return { type: "audio", ...media(c), ...opt("length", c.duration) };
    case 5:
      return { type: "file", ...media(c) };
    case 6:
      return { type: "cmd", action: c.action ?? "" };
    case 7:
      return {
        type: "custom",
        ...opt("customEvent", c.customEvent),
        customExts: c.customExts.map((kv) => ({ [kv.key]: kv.value })),
      };
    case 8:
      return combine(c);
    default:
      throw new BodyError(`unknown content type ${c.type}`);
  }
}

/**
 * What the JSON schema of a message body (contracts `imMessageBody`) would still refuse in a body made by
 * bodyOf: its shape is the schema's by construction, but a double field can hold NaN or an infinity.
 */
export function finiteBody(b: ImMessageBody): boolean {
  if (b.type === "loc") return Number.isFinite(b.lat) && Number.isFinite(b.lng);
  if (b.type === "img" && b.size) return Number.isFinite(b.size.width) && Number.isFinite(b.size.height);
  return true;
}

export function extOf(kvs: readonly DecodedKeyValue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of kvs) if (kv.key !== "" && kv.value !== undefined) out[kv.key] = kv.value;
  return out;
}

export function payloadOf(body: DecodedBody, chatType: ChatType, from: string, to: string): ImMessagePayload {
  const first = body.contents[0];
  if (!first) throw new BodyError("a message has one content");
  let meta: Record<string, unknown> | undefined;
  if (body.meta) {
    const parsed: unknown = JSON.parse(body.meta);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
  }
  return {
    type: chatType,
    from,
    to,
    bodies: [bodyOf(first)],
    ext: extOf(body.ext),
    ...(body.allowGroupAck !== undefined && { msgConfig: { allowGroupAck: body.allowGroupAck } }),
    ...(meta && { meta }),
  };
}
