import { z } from "zod";
import { PAGE_SIZES, pageOf } from "./paging";

/**
 * The media upload dialog and the video library (spec 03 §3 upload requests, §4 and §5 upload dialog,
 * §9 upload constants; spec 01 §7 e-commerce `videolibrary/batchadd`, `videolibrary/pager`,
 * `course/video/info`).
 *
 * Files travel over the tus 1.0 resumable-upload protocol (core, creation, termination) at
 * `/api/media/uploads`; the upload request's fields (id, type, name, filename, zhuanma, videosize in KB)
 * are its `Upload-Metadata`. A finished upload becomes a video (its `videoid`); uploads of the types in
 * LIBRARY_UPLOAD_TYPES are then added to the merchant's video library by the dialog.
 */

/** Video extensions the dialog accepts (spec 03 §5), lower case. */
export const VIDEO_EXTENSIONS = [
  "3gp",
  "asf",
  "avi",
  "dat",
  "dv",
  "flv",
  "f4v",
  "gif",
  "m2t",
  "m4v",
  "mj2",
  "mjpeg",
  "mkv",
  "mov",
  "mp4",
  "mpe",
  "mpg",
  "mpeg",
  "mts",
  "ogg",
  "qt",
  "rm",
  "rmvb",
  "swf",
  "ts",
  "vob",
  "wmv",
  "webm",
] as const;
/** Audio extensions the dialog accepts when it is an audio dialog (isAudioType). */
export const AUDIO_EXTENSIONS = [
  "aac",
  "ac3",
  "acm",
  "amr",
  "ape",
  "caf",
  "flac",
  "m4a",
  "mp3",
  "ra",
  "wav",
  "wma",
] as const;

/** Smallest file: 1 KB ('video size at least 1KB'). */
export const UPLOAD_MIN_BYTES = 1024;
/** Largest file: 2 GB ('video size cannot exceed 2GB'), enforced by the dialog and the server. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024 * 1024;
/** Part size of the resumable upload (spec 03 §9: 1048576 bytes). */
export const UPLOAD_PART_BYTES = 1_048_576;
/** Retries of a failed part (spec 03 §9: retry 3). */
export const UPLOAD_RETRIES = 3;
/** Request timeout of one part (spec 03 §9: 60000 ms). */
export const UPLOAD_TIMEOUT_MS = 60_000;
/** Delay before a finished upload of a library type is added to the library (spec 03 §4: 0.5 s). */
export const LIBRARY_ADD_DELAY_MS = 500;
/** Upload types whose videos go to the video library when the upload finishes (spec 03 §4). */
export const LIBRARY_UPLOAD_TYPES = [3, 7] as const;
export const TUS_VERSION = "1.0.0";

export type MediaKind = "video" | "audio";

/** Content types served for each accepted extension (playback in the library). */
export const MEDIA_CONTENT_TYPES: Record<string, string> = {
  "3gp": "video/3gpp",
  asf: "video/x-ms-asf",
  avi: "video/x-msvideo",
  dat: "video/mpeg",
  dv: "video/x-dv",
  flv: "video/x-flv",
  f4v: "video/x-f4v",
  gif: "image/gif",
  m2t: "video/mp2t",
  m4v: "video/x-m4v",
  mj2: "video/mj2",
  mjpeg: "video/x-motion-jpeg",
  mkv: "video/x-matroska",
  mov: "video/quicktime",
  mp4: "video/mp4",
  mpe: "video/mpeg",
  mpg: "video/mpeg",
  mpeg: "video/mpeg",
  mts: "video/mp2t",
  ogg: "video/ogg",
  qt: "video/quicktime",
  rm: "application/vnd.rn-realmedia",
  rmvb: "application/vnd.rn-realmedia-vbr",
  swf: "application/x-shockwave-flash",
  ts: "video/mp2t",
  vob: "video/dvd",
  wmv: "video/x-ms-wmv",
  webm: "video/webm",
  aac: "audio/aac",
  ac3: "audio/ac3",
  acm: "audio/x-acm",
  amr: "audio/amr",
  ape: "audio/x-ape",
  caf: "audio/x-caf",
  flac: "audio/flac",
  m4a: "audio/mp4",
  mp3: "audio/mpeg",
  ra: "audio/x-realaudio",
  wav: "audio/wav",
  wma: "audio/x-ms-wma",
};

/** The extension of a file name, lower case, without the dot ("" when there is none). */
export function mediaExtension(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot < 0 || dot === fileName.length - 1 ? "" : fileName.slice(dot + 1).toLowerCase();
}

/** Whether the name is a video (or, for an audio dialog, an audio) file the dialog accepts. */
export function acceptsMediaName(fileName: string, audio: boolean): boolean {
  const ext = mediaExtension(fileName);
  return (audio ? (AUDIO_EXTENSIONS as readonly string[]) : (VIDEO_EXTENSIONS as readonly string[])).includes(ext);
}

export function mediaKindOf(fileName: string): MediaKind | null {
  const ext = mediaExtension(fileName);
  if ((VIDEO_EXTENSIONS as readonly string[]).includes(ext)) return "video";
  if ((AUDIO_EXTENSIONS as readonly string[]).includes(ext)) return "audio";
  return null;
}

export type MediaFileProblem =
  "media.chooseFile" | "media.videoOnly" | "media.audioOnly" | "media.tooSmall" | "media.tooLarge";

/** The dialog's checks of spec 03 §5, in order; null when the file is accepted. */
export function checkMediaFile(
  file: { name: string; size: number } | null | undefined,
  audio: boolean,
): MediaFileProblem | null {
  if (!file) return "media.chooseFile";
  if (!acceptsMediaName(file.name, audio)) return audio ? "media.audioOnly" : "media.videoOnly";
  if (file.size < UPLOAD_MIN_BYTES) return "media.tooSmall";
  if (file.size > UPLOAD_MAX_BYTES) return "media.tooLarge";
  return null;
}

/** A size in KB as the upload request carries it (`videosize`). */
export const sizeInKb = (bytes: number) => Math.ceil(bytes / 1024);

const idText = z
  .union([z.string(), z.number()])
  .transform(String)
  .pipe(z.string().regex(/^\d{1,18}$/, { error: "media.videoNotFound" }));
const typeId = z.coerce
  .number({ error: "media.typeInvalid" })
  .int({ error: "media.typeInvalid" })
  .min(1, { error: "media.typeInvalid" })
  .max(99, { error: "media.typeInvalid" });
const mediaName = z
  .string({ error: "media.nameLength" })
  .trim()
  .min(1, { error: "media.nameLength" })
  .max(100, { error: "media.nameLength" });

/** `course/video/info`: one video's details and its playback address. */
export const videoInfoReq = z.object({ videoid: idText });
export const videoInfo = z.object({
  videoid: z.string(),
  /** The upload request's `id`: what the video was uploaded for (a course or commodity id), if any. */
  id: z.string().nullable(),
  type: z.number().int(),
  name: z.string(),
  filename: z.string(),
  /** Size in KB. */
  size: z.number().int(),
  bytes: z.number().int(),
  kind: z.enum(["video", "audio"]),
  contentType: z.string(),
  /** The upload request's zhuanma (transcode) flag. */
  zhuanma: z.boolean(),
  /** A signed playback address (Range requests supported), valid for some hours. */
  url: z.string(),
  createdAt: z.string(),
});
export type VideoInfo = z.infer<typeof videoInfo>;

/** `videolibrary/batchadd`: type_id and a list of {name, size, videoid}. */
export const libraryBatchAddReq = z.object({
  type_id: typeId,
  list: z
    .array(
      z.object({
        name: mediaName,
        size: z.coerce
          .number()
          .int()
          .min(0)
          .max(UPLOAD_MAX_BYTES / 1024)
          .optional(),
        videoid: idText,
      }),
      { error: "media.listEmpty" },
    )
    .min(1, { error: "media.listEmpty" })
    .max(100, { error: "media.listTooLong" }),
});
export type LibraryBatchAddReq = z.infer<typeof libraryBatchAddReq>;

/** `videolibrary/pager`: page and pagesize (20, 50, 100, 200, 1000), newest first. */
export const libraryPagerReq = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pagesize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { error: "validation.pageSize" })
    .default(20),
  type_id: typeId.optional(),
  name: z.string().trim().max(100).optional(),
});
export type LibraryPagerReq = z.input<typeof libraryPagerReq>;

export const libraryItem = z.object({
  id: z.string(),
  videoid: z.string(),
  type_id: z.number().int(),
  name: z.string(),
  /** Size in KB. */
  size: z.number().int(),
  filename: z.string(),
  kind: z.enum(["video", "audio"]),
  contentType: z.string(),
  url: z.string(),
  createdAt: z.string(),
});
export type LibraryItem = z.infer<typeof libraryItem>;
export const libraryPage = pageOf(libraryItem);
export const libraryBatchAddReply = z.object({ added: z.number().int(), list: z.array(libraryItem) });
