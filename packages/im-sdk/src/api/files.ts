import type { Connection } from "../connection.js";
import { ChatSdkError, err } from "../errors.js";
import { download, type Progress } from "../http.js";
import { bodyOf, messageFromBody, type ChatMessage, type FileObject } from "../message.js";
import { decode, encode, MessageBody, Meta } from "../proto.js";
import { statusCode as C } from "../status.js";
import { enc, needObj, needStr } from "./check.js";

/** Images above this size (200 KB) are uploaded with a thumbnail (spec 03 §9). */
export const THUMBNAIL_THRESHOLD = 204_800;
export const THUMBNAIL_SIZE = 200;
/** Combined messages: at most 300 per message and 10 levels of nesting (spec 03 §5, §9). */
export const COMBINE_MAX_MESSAGES = 300;
export const COMBINE_MAX_LEVEL = 10;

export interface UploadCallbacks {
  onFileUploadProgress?: (p: Progress) => void;
  onFileUploadComplete?: (data: unknown) => void;
  onFileUploadError?: (e: unknown) => void;
}

interface UploadReply {
  uri?: string;
  entities?: {
    uuid?: string;
    "share-secret"?: string;
    "file-metadata"?: { "content-length"?: number; "content-type"?: string };
  }[];
  data?: unknown;
}

/** Checks the credentials and the file before any upload (spec 03 §5, file upload). */
function checkUpload(c: Connection, file: FileObject | undefined): Blob {
  if (!c.orgName || !c.appName) throw err(C.WEBIM_UPLOADFILE_ERROR, "AppKey illegal");
  if (!c.token || !c.context.accessToken) throw err(C.WEBIM_UPLOADFILE_NO_LOGIN, "AccessToken cannot be empty");
  const data = file?.data;
  if (!data || typeof data !== "object" || typeof data.size !== "number") {
    throw err(C.WEBIM_UPLOADFILE_NO_FILE, 'Invalid parameter: "file"');
  }
  if (data.size <= 0) throw err(C.WEBIM_UPLOADFILE_ERROR, "fileSize must be greater than 0");
  return data;
}

function formOf(file: FileObject, data: Blob, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append("file", data, file.filename ?? (data as File).name ?? "file");
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return form;
}

/**
 * Runs an upload, reporting through the callbacks as well as the promise. With an error callback the
 * failure goes to it and the promise resolves with undefined (callback style, as the published client);
 * without one the promise rejects.
 */
async function withCallbacks<T>(cb: UploadCallbacks, run: () => Promise<T>): Promise<T | undefined> {
  try {
    const result = await run();
    cb.onFileUploadComplete?.(result);
    return result;
  } catch (e) {
    const failure = e instanceof ChatSdkError ? e : err(C.WEBIM_UPLOADFILE_ERROR, "File upload failed", e);
    if (!cb.onFileUploadError) throw failure;
    cb.onFileUploadError(failure);
    return undefined;
  }
}

const CHAT_TYPE_PARAM = { singleChat: "CHAT", groupChat: "GROUP", chatRoom: "ROOM" } as const;

/** The combined-message file: "cm", then per message a 4-byte big-endian length and its Meta, then a checksum byte. */
export function encodeCombineFile(messages: ChatMessage[]): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.from([0x63, 0x6d])];
  for (const m of messages) {
    const meta = encode(Meta, {
      id: /^\d+$/.test(m.id) ? m.id : "0",
      from: { name: m.from },
      to: { name: m.to },
      timestamp: m.time,
      ns: 1,
      payload: bodyOf(m, m.from),
    });
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, meta.length, false);
    parts.push(len, meta);
  }
  const size = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size + 1);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  let check = 0;
  for (let i = 2; i < out.length - 1; i++) if (i % 2 === 1) check ^= out[i]!;
  out[out.length - 1] = check;
  return out;
}

/** Parses a combined-message file back into messages (spec 03 §8: read, verification, parse failures). */
export function decodeCombineFile(bytes: Uint8Array, apiUrl: string): ChatMessage[] {
  if (bytes.length < 3) throw err(C.PARSE_FILE_ERROR, "Read file failed");
  let check = 0;
  for (let i = 2; i < bytes.length - 1; i++) if (i % 2 === 1) check ^= bytes[i]!;
  if (bytes[bytes.length - 1] !== check) throw err(C.PARSE_FILE_ERROR, "File verification failed");
  if (bytes[0] !== 0x63 || bytes[1] !== 0x6d) throw err(C.PARSE_FILE_ERROR, "Parse file failed");
  const out: ChatMessage[] = [];
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let off = 2;
    while (off < bytes.length - 1) {
      const len = view.getUint32(off, false);
      off += 4;
      if (off + len > bytes.length - 1) throw new RangeError("truncated");
      const meta = decode(Meta, bytes.subarray(off, off + len));
      off += len;
      const body = decode(MessageBody, meta.payload as Uint8Array);
      out.push(messageFromBody(body, String(meta.id), Number(meta.timestamp ?? 0), apiUrl));
    }
  } catch (e) {
    throw err(C.PARSE_FILE_ERROR, "Parse file failed", e);
  }
  return out;
}

/** Nesting level of a combined message: 1 plus the deepest combined message inside it. */
export function combineLevel(m: ChatMessage): number {
  let inner = 0;
  for (const child of m.messageList ?? []) {
    if (child.type !== "combine") continue;
    inner = Math.max(inner, child.messageList ? combineLevel(child) : (child.combineLevel ?? 1));
    if (inner > COMBINE_MAX_LEVEL) break;
  }
  return inner + 1;
}

/** Files: uploads for messages and shared files, downloads with progress, combined-message files. */
export const filesApi = {
  /** Uploads a chat file (`POST chatfiles`); resolves with the server's reply (uri, uuid, share-secret). */
  async uploadFile(
    this: Connection,
    opts: {
      file: FileObject;
      to?: string;
      chatType?: ChatMessage["chatType"];
      thumbnailWidth?: number;
      thumbnailHeight?: number;
    } & UploadCallbacks,
  ): Promise<UploadReply | undefined> {
    const data = checkUpload(this, opts?.file);
    return withCallbacks(opts, () => {
      const extra: Record<string, string> = {};
      if (opts.thumbnailWidth) extra["thumbnail-width"] = String(opts.thumbnailWidth);
      if (opts.thumbnailHeight) extra["thumbnail-height"] = String(opts.thumbnailHeight);
      return this.rest<UploadReply>("POST", "chatfiles", {
        query: opts.to ? { "chat-type": CHAT_TYPE_PARAM[opts.chatType ?? "singleChat"], "chat-target": opts.to } : {},
        multipart: formOf(opts.file, data, extra),
        headers: { "restrict-access": "true", Accept: "*/*" },
        onUploadProgress: (p) => opts.onFileUploadProgress?.(p),
      });
    });
  },

  async uploadGroupSharedFile(
    this: Connection,
    opts: { groupId: string; file: FileObject } & UploadCallbacks,
  ): Promise<unknown> {
    needStr(needObj(opts).groupId, "groupId");
    const data = checkUpload(this, opts.file);
    return withCallbacks(opts, () =>
      this.rest("POST", `chatgroups/${enc(opts.groupId)}/share_files`, {
        multipart: formOf(opts.file, data),
        resource: true,
        headers: { "restrict-access": "true", Accept: "*/*" },
        onUploadProgress: (p) => opts.onFileUploadProgress?.(p),
      }),
    );
  },

  async uploadChatRoomSharedFile(
    this: Connection,
    opts: { roomId: string; file: FileObject } & UploadCallbacks,
  ): Promise<unknown> {
    needStr(needObj(opts).roomId, "roomId");
    const data = checkUpload(this, opts.file);
    return withCallbacks(opts, () =>
      this.rest("POST", `chatrooms/${enc(opts.roomId)}/share_files`, {
        multipart: formOf(opts.file, data),
        resource: true,
        headers: { "restrict-access": "true", Accept: "*/*" },
        onUploadProgress: (p) => opts.onFileUploadProgress?.(p),
      }),
    );
  },

  async downloadGroupSharedFile(
    this: Connection,
    opts: {
      groupId: string;
      fileId: string;
      onFileDownloadProgress?: (p: Progress) => void;
      onFileDownloadComplete?: (b: Blob) => void;
      onFileDownloadError?: (e: unknown) => void;
    },
  ): Promise<Blob | undefined> {
    needStr(needObj(opts).groupId, "groupId");
    needStr(opts.fileId, "fileId");
    return filesApi.download.call(this, {
      url: `${this.apiUrl}/${this.orgName}/${this.appName}/chatgroups/${enc(opts.groupId)}/share_files/${enc(opts.fileId)}`,
      ...(opts.onFileDownloadProgress && { onFileDownloadProgress: opts.onFileDownloadProgress }),
      ...(opts.onFileDownloadComplete && { onFileDownloadComplete: opts.onFileDownloadComplete }),
      ...(opts.onFileDownloadError && { onFileDownloadError: opts.onFileDownloadError }),
    });
  },

  /** Downloads a file (a message attachment) as a Blob, with progress. */
  async download(
    this: Connection,
    opts: {
      url: string;
      secret?: string;
      method?: string;
      onFileDownloadProgress?: (p: Progress) => void;
      onFileDownloadComplete?: (b: Blob) => void;
      onFileDownloadError?: (e: unknown) => void;
    },
  ): Promise<Blob | undefined> {
    needStr(needObj(opts).url, "url");
    try {
      const blob = await download({
        url: opts.url,
        token: this.token,
        ...(opts.secret && { secret: opts.secret }),
        ...(opts.method && { method: opts.method }),
        ...(opts.onFileDownloadProgress && { onProgress: opts.onFileDownloadProgress }),
      });
      opts.onFileDownloadComplete?.(blob);
      return blob;
    } catch (e) {
      // Callback style: with an error callback the failure goes there only.
      if (!opts.onFileDownloadError) throw e;
      opts.onFileDownloadError(e);
      return undefined;
    }
  },

  /** Downloads and parses the messages of a received combined message. */
  async downloadAndParseCombineMessage(
    this: Connection,
    opts: { url: string; secret?: string },
  ): Promise<ChatMessage[]> {
    const blob = await filesApi.download.call(this, { url: opts.url, ...(opts.secret && { secret: opts.secret }) });
    if (!blob) throw err(C.WEBIM_DOWNLOADFILE_ERROR, "Download failed, please try again");
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await blob.arrayBuffer());
    } catch (e) {
      throw err(C.PARSE_FILE_ERROR, "Read file failed", e);
    }
    return decodeCombineFile(bytes, this.apiUrl);
  },
};

/** Uploads the file of a file message before it is sent; images over 200 KB get a thumbnail. */
export async function uploadMessageFile(this: Connection, m: ChatMessage): Promise<void> {
  const file = m.file!;
  const big = m.type === "img" && file.data.size > THUMBNAIL_THRESHOLD;
  const reply = await filesApi.uploadFile.call(this, {
    file,
    to: m.to,
    chatType: m.chatType,
    ...(big && {
      thumbnailWidth: m.thumbnailWidth ?? THUMBNAIL_SIZE,
      thumbnailHeight: m.thumbnailHeight ?? THUMBNAIL_SIZE,
    }),
    ...(m.onFileUploadProgress && { onFileUploadProgress: m.onFileUploadProgress }),
    ...(m.onFileUploadComplete && { onFileUploadComplete: m.onFileUploadComplete }),
    ...(m.onFileUploadError && { onFileUploadError: m.onFileUploadError }),
  });
  const entity = reply?.entities?.[0];
  if (!entity?.uuid) throw err(C.WEBIM_UPLOADFILE_ERROR, "Failed to upload the file", reply);
  m.url = `${this.apiUrl}/${this.orgName}/${this.appName}/chatfiles/${entity.uuid}`;
  m.secret = entity["share-secret"] ?? "";
  m.file_length = entity["file-metadata"]?.["content-length"] ?? file.data.size;
  m.filename ??= file.filename ?? (file.data as File).name ?? "file";
  if (m.type === "img" && big) {
    const w = m.thumbnailWidth ?? THUMBNAIL_SIZE;
    const h = m.thumbnailHeight ?? THUMBNAIL_SIZE;
    m.thumb = `${m.url}?em-redirect=true&share-secret=${encodeURIComponent(m.secret)}&thumbnail=true&thumbnail-width=${w}&thumbnail-height=${h}`;
    m.thumb_secret = m.secret;
  }
}

/** Checks and uploads the combined-message file before a combine message is sent. */
export async function uploadCombineFile(this: Connection, m: ChatMessage): Promise<void> {
  const list = m.messageList;
  if (!Array.isArray(list) || list.length === 0 || list.length > COMBINE_MAX_MESSAGES) {
    throw err(C.MAX_LIMIT, "The number of combined messages exceeded the limit.");
  }
  const level = combineLevel(m);
  if (level > COMBINE_MAX_LEVEL) throw err(C.MAX_LIMIT, "The level of the merged message exceeded the limit.");
  m.combineLevel = level;
  const bytes = encodeCombineFile(list);
  let reply: UploadReply | undefined;
  try {
    reply = await filesApi.uploadFile.call(this, {
      file: { data: new Blob([bytes] as unknown as ConstructorParameters<typeof Blob>[0]), filename: "combine" },
      to: m.to,
      chatType: m.chatType,
    });
  } catch (e) {
    throw err(C.WEBIM_UPLOADFILE_ERROR, "Failed to upload the merge message.Please try again", e);
  }
  const entity = reply?.entities?.[0];
  if (!entity?.uuid) throw err(C.WEBIM_UPLOADFILE_ERROR, "Failed to upload the merge message.Please try again", reply);
  m.url = `${this.apiUrl}/${this.orgName}/${this.appName}/chatfiles/${entity.uuid}`;
  m.secret = entity["share-secret"] ?? "";
  m.file_length = bytes.length;
  m.filename = "combine";
}
