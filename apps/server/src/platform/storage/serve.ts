import type { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { fileTypeFromBuffer } from "file-type";

/**
 * User files (chat attachments, uploaded images, videos, documents) are served from the app's own origin,
 * where a page that runs script can read the session token. So what a browser may do with them is decided
 * here, from the bytes, never from what the uploader said:
 *
 * - the type is sniffed from the bytes (file-type, a maintained magic-number table) and kept only when it
 *   is on the allowlist below: images, audio and video that a browser shows without running anything.
 *   Everything else, HTML, SVG and script included, is `application/octet-stream`;
 * - only an allowlisted type is `inline`; anything else is `attachment`, so opening it downloads it;
 * - every user file carries `X-Content-Type-Options: nosniff` (the browser never second-guesses the type)
 *   and `Content-Security-Policy: default-src 'none'; sandbox` (even if a file were rendered as a document,
 *   it would have a unique opaque origin, no script, and nothing it could load).
 */

/** file-type's extension of each allowed kind → the type the file is stored and served as. */
const SNIFFED: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  amr: "audio/amr",
  mp3: "audio/mpeg",
  aac: "audio/aac",
  // An Ogg stream of Vorbis (ogg), Opus (opus) or either (oga): all audio. Ogg video (ogv) is not allowed.
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
};

export const OCTET_STREAM = "application/octet-stream";

/**
 * Types served inline: the sniffed allowlist, plus the audio and video types the video library names from
 * its extensions (modules/media, played by `<video>`/`<audio>`, which ignore the disposition anyway).
 */
const INLINE_TYPES: ReadonlySet<string> = new Set([...Object.values(SNIFFED), "audio/x-m4a", "video/ogg"]);

/**
 * Types the server itself produced or checked (a PDF that starts with `%PDF-`, a spreadsheet it wrote)
 * that keep their name so the download opens in the right program, but are never shown inline.
 */
const DOWNLOAD_TYPES: ReadonlySet<string> = new Set([
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
]);

/** The type an upload is stored as: sniffed from its bytes, `application/octet-stream` unless allowlisted. */
export async function sniffUserFile(data: Uint8Array): Promise<string> {
  const found = await fileTypeFromBuffer(data);
  return (found && SNIFFED[found.ext]) ?? OCTET_STREAM;
}

/** Whether a stored type may be shown inline (an allowlisted image, audio or video). */
export function isInlineType(contentType: string): boolean {
  return INLINE_TYPES.has(baseType(contentType));
}

function baseType(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/**
 * What a stored type is served as. Rows written before types were sniffed (or by an adapter that names a
 * type from an extension) are checked again here, so an old `text/html` row is served as a download too.
 */
export function servedType(contentType: string): { contentType: string; inline: boolean } {
  const base = baseType(contentType);
  if (INLINE_TYPES.has(base)) return { contentType: base, inline: true };
  if (DOWNLOAD_TYPES.has(base)) return { contentType: base, inline: false };
  return { contentType: OCTET_STREAM, inline: false };
}

export interface UserFileHeaders {
  /** The stored type (sniffed at upload, or named by the server); checked against the allowlist again. */
  contentType: string;
  /** The name a download is saved under. */
  filename?: string;
  /** The whole length, when the caller sends the whole file. */
  size?: number;
  cacheControl?: string;
}

/** Sets the headers every user file carries; the caller sends the body (the video library answers Range requests itself). */
export function userFileHeaders(reply: FastifyReply, file: UserFileHeaders): FastifyReply {
  const served = servedType(file.contentType);
  const name = file.filename ? `; filename*=UTF-8''${encodeRfc5987(file.filename)}` : "";
  reply
    .header("content-type", served.contentType)
    .header("content-disposition", `${served.inline ? "inline" : "attachment"}${name}`)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; sandbox");
  if (file.size !== undefined) reply.header("content-length", String(file.size));
  if (file.cacheControl) reply.header("cache-control", file.cacheControl);
  return reply;
}

/** Sends a stored user file with the headers above. */
export function serveUserFile(reply: FastifyReply, file: UserFileHeaders, body: Readable | Buffer): FastifyReply {
  return userFileHeaders(reply, file).send(body);
}

/** RFC 5987 `ext-value` characters: encodeURIComponent leaves `'()*` which the grammar does not allow. */
function encodeRfc5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
