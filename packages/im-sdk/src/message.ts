import { uniqueId } from "./ids.js";
import {
  BODY_TYPE,
  CONTENT_TYPE,
  decode,
  decodeExt,
  encode,
  encodeExt,
  KV_TYPE,
  MessageBody,
  Meta,
  asText,
  type Decoded,
} from "./proto.js";

export type ChatType = "singleChat" | "groupChat" | "chatRoom";
export type MessageType =
  "txt" | "img" | "video" | "audio" | "file" | "loc" | "cmd" | "custom" | "combine" | "read" | "delivery" | "channel";
/** Local send status: CREATE, then INPROGRESS, then SUCCESS on the server's ack or FAIL on an error. */
export type MessageStatus = "CREATE" | "INPROGRESS" | "SUCCESS" | "FAIL";
export type Priority = "high" | "normal" | "low";

/** A file to upload with a message: the data plus its name and type. */
export interface FileObject {
  data: Blob;
  filename?: string;
  filetype?: string;
  url?: string;
}

export interface ModifiedInfo {
  operationTime: number;
  operatorId: string;
  operationCount: number;
}

export interface ChatThreadRef {
  messageId: string;
  parentId: string;
  chatThreadName?: string;
}

/** Everything a message may carry (spec 03 §3); the type decides which fields are used. */
export interface MessageFields {
  type: MessageType;
  chatType?: ChatType;
  to: string;
  from?: string;
  ext?: Record<string, unknown>;
  msg?: string;
  // img / audio / video / file
  url?: string;
  secret?: string;
  width?: number;
  height?: number;
  file?: FileObject;
  file_length?: number;
  filename?: string;
  filetype?: string;
  length?: number;
  thumb?: string;
  thumb_secret?: string;
  thumbnailWidth?: number;
  thumbnailHeight?: number;
  isGif?: boolean;
  body?: { url?: string; secret?: string; filename?: string; file_length?: number; length?: number };
  // loc
  addr?: string;
  buildingName?: string;
  lat?: number;
  lng?: number;
  // cmd / custom
  action?: string;
  customEvent?: string;
  customExts?: Record<string, unknown>;
  params?: Record<string, unknown>;
  // combine
  title?: string;
  summary?: string;
  compatibleText?: string;
  combineLevel?: number;
  messageList?: ChatMessage[];
  // read / delivery acks
  ackId?: string;
  ackContent?: string;
  /** read: the message id being acknowledged (the published client puts it in `id`). */
  id?: string;
  // options
  msgConfig?: { allowGroupAck?: boolean; languages?: string[] };
  isChatThread?: boolean;
  priority?: Priority;
  deliverOnlineOnly?: boolean;
  receiverList?: string[];
  broadcast?: boolean;
  onFileUploadProgress?: (e: { loaded: number; total: number }) => void;
  onFileUploadComplete?: (data: unknown) => void;
  onFileUploadError?: (err: unknown) => void;
}

/** A message as the SDK creates, sends and delivers it. */
export interface ChatMessage extends Omit<MessageFields, "id"> {
  id: string;
  chatType: ChatType;
  from: string;
  time: number;
  status?: MessageStatus;
  mid?: string;
  onlineState?: number;
  reactions?: unknown[];
  translations?: { code: string; text: string }[];
  modifiedInfo?: ModifiedInfo;
  chatThread?: ChatThreadRef;
  chatThreadOverview?: Record<string, unknown>;
  isContentReplaced?: boolean;
}

/** Builds a local message with a fresh id and status CREATE (the published `message.create`). */
export function create(options: MessageFields): ChatMessage {
  const chatType = options.chatType ?? "singleChat";
  const msg: ChatMessage = {
    ...options,
    chatType,
    from: options.from ?? "",
    time: Date.now(),
    id: uniqueId(),
    status: "CREATE",
  };
  // A read ack names the message it acknowledges in `id` (published API); keep it as ackId.
  if (options.type === "read" && options.id && !options.ackId) msg.ackId = options.id;
  if (options.type === "txt") msg.msg = options.msg ?? "";
  return msg;
}

const TYPE_OF_CHAT: Record<ChatType, number> = {
  singleChat: BODY_TYPE.CHAT,
  groupChat: BODY_TYPE.GROUPCHAT,
  chatRoom: BODY_TYPE.CHATROOM,
};
const CHAT_OF_TYPE: Record<number, ChatType> = { 1: "singleChat", 2: "groupChat", 3: "chatRoom" };

/** The Content of a message (spec 03 §3, type-specific fields). */
export function contentOf(m: MessageFields): Decoded {
  const b = m.body ?? {};
  switch (m.type) {
    case "txt":
      return { type: CONTENT_TYPE.TEXT, text: m.msg ?? "" };
    case "img":
      return {
        type: CONTENT_TYPE.IMAGE,
        displayName: m.filename ?? m.file?.filename ?? "",
        remotePath: m.url ?? b.url ?? "",
        secretKey: m.secret ?? b.secret ?? "",
        fileLength: m.file_length ?? b.file_length,
        size: { width: m.width ?? 0, height: m.height ?? 0 },
        ...(m.isGif && { subType: 1 }),
      };
    case "video":
    case "audio":
    case "file": {
      const remotePath = m.url ?? b.url ?? "";
      return {
        type: m.type === "video" ? CONTENT_TYPE.VIDEO : m.type === "audio" ? CONTENT_TYPE.VOICE : CONTENT_TYPE.FILE,
        displayName: m.filename ?? b.filename ?? m.file?.filename ?? "",
        remotePath,
        secretKey: m.secret ?? b.secret ?? "",
        fileLength: m.file_length ?? b.file_length,
        ...(m.type !== "file" && { duration: m.length ?? b.length ?? 0 }),
        ...(m.type === "video" &&
          remotePath && {
            thumbnailRemotePath: `${remotePath}?vframe=true`,
            thumbnailSecretKey: m.secret ?? b.secret ?? "",
          }),
      };
    }
    case "loc":
      return {
        type: CONTENT_TYPE.LOCATION,
        latitude: m.lat ?? 0,
        longitude: m.lng ?? 0,
        address: m.addr ?? "",
        buildingName: m.buildingName ?? "",
      };
    case "cmd":
      return { type: CONTENT_TYPE.COMMAND, action: m.action ?? "" };
    case "custom":
      return {
        type: CONTENT_TYPE.CUSTOM,
        customEvent: m.customEvent ?? "",
        customExts: encodeExt(m.customExts),
        params: encodeExt(m.params),
      };
    case "combine":
      return {
        type: CONTENT_TYPE.TEXT,
        subType: 0,
        text: m.compatibleText ?? "",
        displayName: m.filename ?? "",
        remotePath: m.url ?? "",
        secretKey: m.secret ?? "",
        fileLength: m.file_length,
        title: m.title ?? "",
        summary: m.summary ?? "",
        combineLevel: m.combineLevel ?? 1,
      };
    case "read":
    case "delivery":
    case "channel":
      return {};
  }
}

/** The MessageBody of an outgoing message, acknowledgement, recall or edit. */
export function bodyOf(m: MessageFields, from: string, extra: Decoded = {}): Uint8Array {
  const chatType = m.chatType ?? "singleChat";
  let type = TYPE_OF_CHAT[chatType];
  const body: Decoded = {
    from: { name: from },
    to: { name: m.to.split("/")[0] },
    contents: [contentOf(m)],
    ext: encodeExt(m.ext),
  };
  if (m.type === "read") {
    type = BODY_TYPE.READ_ACK;
    body.ackMessageId = m.ackId;
    if (chatType === "groupChat") {
      body.msgConfig = { allowGroupAck: true };
      body.ackContent = m.ackContent ?? "";
    }
  } else if (m.type === "delivery") {
    type = BODY_TYPE.DELIVER_ACK;
    body.ackMessageId = m.ackId;
  } else if (m.type === "channel") {
    type = BODY_TYPE.CHANNEL_ACK;
  } else if (chatType === "groupChat" && m.msgConfig?.allowGroupAck) {
    body.msgConfig = { allowGroupAck: true };
  }
  if (m.isChatThread) body.meta = JSON.stringify({ thread: {} });
  return encode(MessageBody, { type, ...body, ...extra });
}

const KIND: Record<number, MessageType> = {
  0: "txt",
  1: "img",
  2: "video",
  3: "loc",
  4: "audio",
  5: "file",
  6: "cmd",
  7: "custom",
  8: "combine",
};

/** Rewrites an attachment path onto this client's REST host, with the share secret (easemob-wire §3h). */
function attachmentUrl(remotePath: string, secret: string, apiUrl: string): string {
  if (!remotePath) return "";
  let path = remotePath;
  try {
    const u = new URL(remotePath);
    path = u.pathname + u.search;
  } catch {
    // Already a path.
  }
  const base = `${apiUrl}${path}`;
  if (base.includes("?em-redirect")) return base;
  return `${base}${base.includes("?") ? "&" : "?"}em-redirect=true${secret ? `&share-secret=${secret}` : ""}`;
}

interface MetaJson {
  reaction?: { state?: boolean; [k: string]: unknown }[];
  translations?: { code: string; text: string }[];
  edit_msg?: { count?: number; operator?: string; edit_time?: number };
  thread?: { msg_parent_id?: string; muc_parent_id?: string; thread_name?: string };
  thread_overview?: Record<string, unknown>;
}

function applyMetaJson(out: ChatMessage, text: string | undefined): void {
  if (!text) return;
  let meta: MetaJson;
  try {
    meta = JSON.parse(text) as MetaJson;
  } catch {
    return;
  }
  if (meta.reaction) out.reactions = meta.reaction.map(({ state, ...r }) => ({ ...r, isAddedBySelf: Boolean(state) }));
  if (meta.translations) out.translations = meta.translations;
  if (meta.edit_msg) {
    out.modifiedInfo = {
      operationCount: Number(meta.edit_msg.count ?? 0),
      operatorId: asText(meta.edit_msg.operator),
      operationTime: Number(meta.edit_msg.edit_time ?? 0),
    };
  }
  if (meta.thread && Object.keys(meta.thread).length > 0) {
    out.chatThread = {
      messageId: asText(meta.thread.msg_parent_id),
      parentId: asText(meta.thread.muc_parent_id),
      chatThreadName: asText(meta.thread.thread_name),
    };
  }
  if (meta.thread_overview) {
    const o = meta.thread_overview;
    out.chatThreadOverview = {
      id: o.id,
      parentId: o.muc_parent_id,
      name: o.name,
      lastMessage: o.last_message,
      createTimestamp: o.create_timestamp,
      updateTimestamp: o.update_timestamp,
      messageCount: o.message_count,
    };
  }
}

/** A content message decoded from its body (received, in history, or an edit). */
export function messageFromBody(body: Decoded, id: string, time: number, apiUrl: string): ChatMessage {
  const content = ((body.contents as Decoded[] | undefined) ?? [])[0] ?? {};
  const ctype = Number(content.type ?? 0);
  let type: MessageType = KIND[ctype] ?? "txt";
  if (ctype === CONTENT_TYPE.TEXT && content.subType === 0) type = "combine";
  const chatType = CHAT_OF_TYPE[Number(body.type)] ?? "singleChat";
  const out: ChatMessage = {
    id,
    type,
    chatType,
    from: asText((body.from as Decoded | undefined)?.name),
    to: asText((body.to as Decoded | undefined)?.name),
    time,
    ext: decodeExt(body.ext),
  };
  const secret = asText(content.secretKey);
  const size = content.size as Decoded | undefined;
  switch (type) {
    case "txt":
      out.msg = asText(content.text);
      break;
    case "img":
      out.url = attachmentUrl(asText(content.remotePath), secret, apiUrl);
      out.thumb = out.url ? `${out.url}&thumbnail=true` : "";
      out.secret = secret;
      out.thumb_secret = secret;
      out.width = Number(size?.width ?? 0);
      out.height = Number(size?.height ?? 0);
      out.file_length = Number(content.fileLength ?? 0);
      out.isGif = content.subType === 1;
      break;
    case "video":
    case "audio":
    case "file":
      out.url = attachmentUrl(asText(content.remotePath), secret, apiUrl);
      out.secret = secret;
      out.filename = asText(content.displayName);
      out.file_length = Number(content.fileLength ?? 0);
      if (type !== "file") out.length = Number(content.duration ?? 0);
      if (type === "video" && content.thumbnailRemotePath) {
        out.thumb = attachmentUrl(asText(content.thumbnailRemotePath), asText(content.thumbnailSecretKey), apiUrl);
        out.thumb_secret = asText(content.thumbnailSecretKey);
      }
      break;
    case "loc":
      out.lat = Number(content.latitude ?? 0);
      out.lng = Number(content.longitude ?? 0);
      out.addr = asText(content.address);
      out.buildingName = asText(content.buildingName);
      break;
    case "cmd":
      out.action = asText(content.action);
      break;
    case "custom":
      out.customEvent = asText(content.customEvent);
      out.customExts = decodeExt(content.customExts);
      out.params = decodeExt(content.params);
      break;
    case "combine":
      out.title = asText(content.title);
      out.summary = asText(content.summary);
      out.compatibleText = asText(content.text);
      out.url = attachmentUrl(asText(content.remotePath), secret, apiUrl);
      out.secret = secret;
      out.file_length = Number(content.fileLength ?? 0);
      out.filename = asText(content.displayName);
      out.combineLevel = Number(content.combineLevel ?? 1);
      break;
    case "read":
    case "delivery":
    case "channel":
      break;
  }
  if (body.msgConfig) out.msgConfig = { allowGroupAck: Boolean((body.msgConfig as Decoded).allowGroupAck) };
  applyMetaJson(out, body.meta as string | undefined);
  return out;
}

const PRIORITY: Record<number, Priority> = { 0: "high", 1: "normal", 2: "low" };

/** Chat-room extras carried in Meta.ext: the priority tag and the broadcast flag. */
export function applyRoomExt(out: ChatMessage, metaExt: unknown): void {
  for (const kv of (metaExt as Decoded[] | undefined) ?? []) {
    if (kv.key === "chatroom_msg_tag" && kv.type === KV_TYPE.INT) {
      out.priority = PRIORITY[Number(kv.varintValue)] ?? "normal";
    }
    if (kv.key === "is_broadcast") out.broadcast = kv.varintValue !== undefined && kv.varintValue !== "0";
  }
}

/** A history entry: base64 of a protobuf Meta whose payload is the MessageBody. */
export function messageFromHistory(
  base64: string,
  apiUrl: string,
  bytes: (s: string) => Uint8Array,
): ChatMessage | undefined {
  const meta = decode(Meta, bytes(base64));
  if (Number(meta.ns) !== 1 || !(meta.payload instanceof Uint8Array)) return undefined;
  const body = decode(MessageBody, meta.payload);
  const out = messageFromBody(body, String(meta.id), Number(meta.timestamp ?? 0), apiUrl);
  if (out.chatType === "chatRoom") applyRoomExt(out, meta.ext);
  return out;
}

interface JsonMessage {
  id?: string | number;
  msg_id?: string | number;
  timestamp?: number;
  to?: string;
  from?: string;
  payload?: string | Record<string, unknown>;
}

/** The REST "JSON message" (conversation last message, pinned message, thread last message, §4.4). */
export function messageFromJson(raw: JsonMessage | undefined): ChatMessage | Record<string, never> {
  if (!raw || typeof raw !== "object") return {};
  let p: Record<string, unknown>;
  try {
    p = (typeof raw.payload === "string" ? JSON.parse(raw.payload) : (raw.payload ?? {})) as Record<string, unknown>;
  } catch {
    return {};
  }
  const kind = asText(p.type).toLowerCase();
  const chatType: ChatType =
    kind === "groupchat"
      ? "groupChat"
      : kind === "chatroom"
        ? "chatRoom"
        : kind === "chat"
          ? "singleChat"
          : asText(raw.to).includes("@conference")
            ? "groupChat"
            : "singleChat";
  const b = ((p.bodies as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
  const bt = asText(b.type, "txt");
  const out: ChatMessage = {
    id: asText(raw.id ?? raw.msg_id),
    type: (["txt", "img", "video", "audio", "file", "loc", "cmd", "custom", "combine"].includes(bt)
      ? bt
      : "txt") as MessageType,
    chatType,
    from: asText(p.from ?? raw.from),
    to: asText(p.to ?? raw.to).split("@")[0] ?? "",
    time: Number(raw.timestamp ?? 0),
    ext: (p.ext as Record<string, unknown> | undefined) ?? {},
  };
  const str = (k: string): string => asText(b[k]);
  const num = (k: string): number => Number(b[k] ?? 0);
  switch (out.type) {
    case "txt":
      out.msg = str("msg");
      if (b.subType === "sub_combine") {
        out.type = "combine";
        Object.assign(out, {
          title: str("title"),
          summary: str("summary"),
          url: str("url"),
          secret: str("secret"),
          file_length: num("file_length"),
          filename: str("filename"),
          combineLevel: num("combineLevel"),
          compatibleText: str("msg"),
        });
      }
      break;
    case "img": {
      const size = (b.size as { width?: number; height?: number } | undefined) ?? {};
      Object.assign(out, {
        url: str("url"),
        secret: str("secret"),
        width: Number(size.width ?? 0),
        height: Number(size.height ?? 0),
        file_length: num("file_length"),
      });
      break;
    }
    case "video":
    case "audio":
    case "file":
      Object.assign(out, {
        url: str("url"),
        secret: str("secret"),
        filename: str("filename"),
        file_length: num("file_length"),
        ...(out.type !== "file" && { length: num("length") }),
      });
      break;
    case "loc":
      Object.assign(out, { addr: str("addr"), lat: num("lat"), lng: num("lng"), buildingName: str("buildingName") });
      break;
    case "cmd":
      out.action = str("action");
      break;
    case "custom": {
      out.customEvent = str("customEvent");
      const exts = b.customExts;
      out.customExts = Array.isArray(exts)
        ? (Object.assign({}, ...(exts as Record<string, unknown>[])) as Record<string, unknown>)
        : ((exts as Record<string, unknown> | undefined) ?? {});
      break;
    }
    case "combine":
      Object.assign(out, {
        title: str("title"),
        summary: str("summary"),
        url: str("url"),
        secret: str("secret"),
        file_length: num("file_length"),
        filename: str("filename"),
        combineLevel: num("combineLevel"),
        compatibleText: str("text") || str("msg"),
      });
      break;
    case "read":
    case "delivery":
    case "channel":
      break;
  }
  if (p.msgConfig) out.msgConfig = p.msgConfig;
  if (p.meta && typeof p.meta === "object") applyMetaJson(out, JSON.stringify(p.meta));
  return out;
}
