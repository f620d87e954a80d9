import { randomBytes } from "node:crypto";
import { mkdir, open, rm, stat, truncate } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import {
  CODE,
  MEDIA_CONTENT_TYPES,
  checkMediaFile,
  mediaExtension,
  mediaKindOf,
  sizeInKb,
  type LibraryBatchAddReq,
  type LibraryItem,
  type Page,
  type VideoInfo,
} from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { keyedHash, sameHash } from "../../platform/crypto/tokens";
import { AppError, notFound } from "../../platform/http/errors";
import type { FileStorage } from "../../platform/storage";
import { presentLibraryItem, presentVideo } from "./presenter";
import * as repo from "./repo";
import { TusError, parseMetadata } from "./tus";

export interface MediaDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  secret: Buffer;
  /** Folder for the bytes of unfinished uploads (DATA_DIR/uploads). */
  uploadDir: string;
}

/** How long a signed playback address works. */
export const PLAY_LINK_TTL_SECONDS = 6 * 3600;
/** Unfinished uploads untouched this long are removed (their partial bytes with them). */
export const STALE_UPLOAD_SECONDS = 7 * 24 * 3600;

export interface UploadState {
  id: string;
  offset: number;
  length: number;
  metadata: string;
  /** Set once the upload is complete and saved as a video. */
  videoId: number | null;
}

const UPLOAD_ID_RE = /^[A-Za-z0-9_-]{32}$/;

/**
 * Resumable uploads (tus) into the file storage, the videos they become, and the video library. The
 * bytes of an upload stream to a part file at the offset the database records; the offset moves only
 * after the bytes are on disk, so an interrupted PATCH keeps what arrived and the next one continues
 * from there. One PATCH per upload at a time in this process (a second gets 409 and retries).
 */
export class MediaService {
  readonly #writing = new Set<string>();

  constructor(private readonly deps: MediaDeps) {}

  #partPath(id: string): string {
    return path.join(this.deps.uploadDir, `${id}.part`);
  }

  /** tus creation: POST with Upload-Length and Upload-Metadata (the upload request's fields). */
  async create(actor: Actor, length: number | null, metadataHeader: string | undefined): Promise<string> {
    const merchantId = tenantOf(actor);
    if (length === null) throw new TusError(400, "media.lengthInvalid");
    const meta = parseMetadata(metadataHeader);
    if (!meta) throw new TusError(400, "media.metadataInvalid");
    const filename = (meta.get("filename") ?? "").trim();
    const audio = meta.get("isAudioType") === "true" || meta.get("isAudioType") === "1";
    const problem = checkMediaFile(filename ? { name: filename, size: length } : null, audio);
    if (problem) {
      throw new TusError(
        problem === "media.tooLarge"
          ? 413
          : problem === "media.tooSmall"
            ? 400
            : problem === "media.chooseFile"
              ? 400
              : 415,
        problem,
      );
    }
    const type = Number(meta.get("type") ?? "");
    if (!Number.isInteger(type) || type < 1 || type > 99) throw new TusError(400, "media.typeInvalid");
    const name = (meta.get("name") ?? "").trim() || filename.replace(/\.[^.]*$/, "");
    if (name.length > 100 || filename.length > 200) throw new TusError(400, "media.nameLength");
    const refId = (meta.get("id") ?? "").trim();
    if (refId.length > 64) throw new TusError(400, "media.metadataInvalid");
    const videosize = meta.get("videosize");
    if (videosize !== undefined && videosize !== "" && Number(videosize) !== sizeInKb(length)) {
      throw new TusError(400, "media.sizeMismatch");
    }
    const zhuanma = meta.get("zhuanma") === "1" || meta.get("zhuanma") === "true";

    await this.sweepStale();
    const id = randomBytes(24).toString("base64url");
    await mkdir(this.deps.uploadDir, { recursive: true });
    const handle = await open(this.#partPath(id), "wx");
    await handle.close();
    await repo.insertUpload(this.deps.db, {
      id,
      merchantId,
      createdBy: actor.userId,
      length,
      refId: refId || null,
      type,
      name,
      filename,
      zhuanma,
      metadata: metadataHeader ?? "",
      now: this.deps.clock.now(),
    });
    return id;
  }

  async #uploadOf(actor: Actor, id: string): Promise<repo.UploadRow> {
    const merchantId = tenantOf(actor);
    const row = UPLOAD_ID_RE.test(id) ? await repo.findUpload(this.deps.db, merchantId, id) : undefined;
    if (!row) throw new TusError(404, "media.uploadNotFound", CODE.NOT_FOUND);
    return row;
  }

  /** tus HEAD: where the upload stands. */
  async state(actor: Actor, id: string): Promise<UploadState> {
    const row = await this.#uploadOf(actor, id);
    const video = row.completed_at ? await repo.videoOfUpload(this.deps.db, row.merchant_id, row.id) : undefined;
    return { id: row.id, offset: row.received, length: row.length, metadata: row.metadata, videoId: video?.id ?? null };
  }

  /**
   * tus PATCH: appends the body at `offset`, which must be the upload's current offset. Bytes that
   * arrived before the client went away are kept. Returns the new state; the upload becomes a video
   * when its last byte arrives.
   */
  async append(actor: Actor, id: string, offset: number | null, body: Readable): Promise<UploadState> {
    if (offset === null) throw new TusError(400, "media.offsetMismatch");
    const row = await this.#uploadOf(actor, id);
    if (this.#writing.has(id)) throw new TusError(409, "media.busy", CODE.CONFLICT);
    if (offset !== row.received) throw new TusError(409, "media.offsetMismatch", CODE.CONFLICT);
    this.#writing.add(id);
    try {
      let received = row.received;
      if (received < row.length) {
        const { written, overflow } = await this.#writePart(id, offset, row.length - offset, body);
        // A body longer than the upload is refused whole; the offset stays where it was.
        if (overflow) throw new TusError(413, "media.exceedsLength");
        if (written > 0) {
          received = offset + written;
          const moved = await repo.advanceUpload(
            this.deps.db,
            row.merchant_id,
            id,
            offset,
            received,
            this.deps.clock.now(),
          );
          if (!moved) throw new TusError(409, "media.offsetMismatch", CODE.CONFLICT);
        }
      }
      let videoId: number | null = null;
      if (received === row.length) videoId = await this.#finish(actor, { ...row, received });
      return { id, offset: received, length: row.length, metadata: row.metadata, videoId };
    } finally {
      this.#writing.delete(id);
    }
  }

  /** Streams the body into the part file at `offset`, at most `room` bytes; stops at the first error. */
  async #writePart(
    id: string,
    offset: number,
    room: number,
    body: Readable,
  ): Promise<{ written: number; overflow: boolean }> {
    const handle = await open(this.#partPath(id), "r+").catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        throw new TusError(410, "media.uploadNotFound", CODE.NOT_FOUND);
      }
      throw err;
    });
    let written = 0;
    let overflow = false;
    let diskError: Error | null = null;
    try {
      for await (const chunk of body) {
        const buf = chunk as Buffer;
        const take = Math.max(0, Math.min(buf.length, room - written));
        try {
          let done = 0;
          while (done < take) {
            const { bytesWritten } = await handle.write(buf, done, take - done, offset + written + done);
            done += bytesWritten;
          }
        } catch (err) {
          diskError = err instanceof Error ? err : new Error(String(err));
          break;
        }
        written += take;
        // Bytes past the upload's length are read and dropped (breaking off would cut the connection
        // before the 413 reply).
        if (take < buf.length) overflow = true;
      }
    } catch {
      // The client went away (or the connection broke) mid-part: keep what is on disk; the offset
      // moves to the end of it and the client resumes from there.
    } finally {
      await handle.sync();
      await handle.close();
    }
    if (diskError) throw diskError;
    return { written, overflow };
  }

  /** The last byte arrived: the part file moves into storage and becomes a video, once. */
  async #finish(actor: Actor, row: repo.UploadRow): Promise<number> {
    const existing = await repo.videoOfUpload(this.deps.db, row.merchant_id, row.id);
    if (existing) return existing.id;
    const ext = mediaExtension(row.filename);
    const kind = mediaKindOf(row.filename) ?? "video";
    const key = `media/${row.merchant_id}/${row.id}.${ext}`;
    const part = this.#partPath(row.id);
    const partStat = await stat(part).catch(() => null);
    if (partStat) {
      if (partStat.size > row.length) await truncate(part, row.length);
      await this.deps.storage.putFile(key, part);
    } else if (!(await this.deps.storage.open(key))) {
      // Neither the part nor the stored file: the bytes are gone (removed by hand); the upload cannot finish.
      throw new TusError(410, "media.uploadNotFound", CODE.NOT_FOUND);
    }
    const now = this.deps.clock.now();
    return withTx(this.deps.db, async (tx) => {
      const again = await repo.videoOfUpload(tx, row.merchant_id, row.id);
      if (again) return again.id;
      const videoId = await repo.insertVideo(tx, {
        merchantId: row.merchant_id,
        uploadId: row.id,
        refId: row.ref_id,
        type: row.type,
        name: row.name,
        filename: row.filename,
        bytes: row.length,
        kind,
        contentType: MEDIA_CONTENT_TYPES[ext] ?? "application/octet-stream",
        zhuanma: row.zhuanma,
        storageKey: key,
        createdBy: actor.userId,
        now,
      });
      await repo.completeUpload(tx, row.id, now);
      return videoId;
    });
  }

  /** tus termination: an unfinished upload and its bytes are removed. */
  async terminate(actor: Actor, id: string): Promise<void> {
    const row = await this.#uploadOf(actor, id);
    if (row.completed_at) throw new TusError(409, "media.uploadInUse", CODE.CONFLICT);
    if (this.#writing.has(id)) throw new TusError(409, "media.busy", CODE.CONFLICT);
    await repo.deleteUpload(this.deps.db, row.merchant_id, id);
    await rm(this.#partPath(id), { force: true });
  }

  /** Removes a few abandoned unfinished uploads (and their part files). */
  async sweepStale(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - STALE_UPLOAD_SECONDS * 1000);
    const stale = await repo.staleUploads(this.deps.db, before, 20);
    for (const s of stale) {
      if (this.#writing.has(s.id)) continue;
      await repo.deleteUpload(this.deps.db, s.merchant_id, s.id);
      await rm(this.#partPath(s.id), { force: true });
    }
    return stale.length;
  }

  /** A signed playback address for a video: `<video src>` cannot send the login header. */
  playUrl(videoId: number): string {
    const expires = Math.floor(this.deps.clock.now().getTime() / 1000) + PLAY_LINK_TTL_SECONDS;
    return `/api/media/files/${videoId}?e=${expires}&s=${keyedHash(this.deps.secret, "media-play", String(videoId), String(expires))}`;
  }

  /** The stored file behind a signed playback address; refuses a wrong or expired signature. */
  async playable(videoId: number, expires: number, signature: string) {
    const now = Math.floor(this.deps.clock.now().getTime() / 1000);
    const valid =
      /^[0-9a-f]{64}$/.test(signature) &&
      sameHash(signature, keyedHash(this.deps.secret, "media-play", String(videoId), String(expires)));
    if (!valid) throw new AppError(CODE.FORBIDDEN, "auth.forbidden");
    if (expires < now) throw new AppError(CODE.FORBIDDEN, "media.linkExpired");
    const video = await repo.videoForPlayback(this.deps.db, videoId);
    if (!video) throw notFound();
    return video;
  }

  /** The bytes of a stored file (a range of them), for playback. */
  async openFile(key: string, range?: { start: number; end: number }) {
    const opened = await this.deps.storage.open(key, range);
    if (!opened) throw notFound();
    return opened;
  }

  /** `course/video/info`: one of the merchant's videos with its playback address. */
  async videoInfo(actor: Actor, videoid: string): Promise<VideoInfo> {
    const video = await repo.videoOf(this.deps.db, tenantOf(actor), Number(videoid));
    if (!video) throw new AppError(CODE.NOT_FOUND, "media.videoNotFound", {}, "videoid");
    return presentVideo(video, this.playUrl(video.id));
  }

  /** `videolibrary/batchadd`: the merchant's own videos into its library; adding one twice changes nothing. */
  async addToLibrary(actor: Actor, req: LibraryBatchAddReq): Promise<{ added: number; list: LibraryItem[] }> {
    const merchantId = tenantOf(actor);
    const ids = [...new Set(req.list.map((i) => Number(i.videoid)))];
    return withTx(this.deps.db, async (tx) => {
      const videos = new Map((await repo.videosOf(tx, merchantId, ids)).map((v) => [v.id, v]));
      const items = [];
      const seen = new Set<number>();
      for (const [index, item] of req.list.entries()) {
        const video = videos.get(Number(item.videoid));
        if (!video) throw new AppError(CODE.NOT_FOUND, "media.videoNotFound", {}, `list.${index}.videoid`);
        if (seen.has(video.id)) continue;
        seen.add(video.id);
        items.push({ videoId: video.id, typeId: req.type_id, name: item.name, sizeKb: sizeInKb(video.bytes) });
      }
      const added = await repo.addToLibrary(tx, merchantId, items, actor.userId, this.deps.clock.now());
      const rows = await repo.libraryItemsOf(tx, merchantId, [...seen]);
      return { added, list: rows.map((r) => presentLibraryItem(r, this.playUrl(r.video_id))) };
    });
  }

  /** `videolibrary/pager`: the library, newest first. */
  async library(
    actor: Actor,
    q: { page: number; pagesize: number; type_id?: number | undefined; name?: string | undefined },
  ): Promise<Page<LibraryItem>> {
    const { rows, total } = await repo.libraryPage(
      this.deps.db,
      tenantOf(actor),
      { ...(q.type_id !== undefined && { typeId: q.type_id }), ...(q.name && { name: q.name }) },
      q.page,
      q.pagesize,
    );
    return {
      list: rows.map((r) => presentLibraryItem(r, this.playUrl(r.video_id))),
      total,
      page: q.page,
      pageSize: q.pagesize,
    };
  }
}
