import { randomBytes, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { IM_LIMITS } from "@tessera/contracts";
import { imageInfo, thumbnail } from "../../platform/images";
import { sniffUserFile } from "../../platform/storage/serve";
import { imError } from "../errors";
import type { UploadedPart } from "../../platform/http/multipart";
import * as files from "../store/files";
import { inScope, type ImActor, type ImDeps } from "./core";
import type { ImMucs } from "./mucs";

/**
 * Files: message attachments (`chatfiles`) and group or room shared files. Bytes go to the storage
 * adapter; the row keeps the owner, type, size, image dimensions and the share secret a download must
 * present when the file is restricted (the published client always uploads restricted).
 */
export interface OpenedFile {
  stream: Readable;
  size: number;
  contentType: string;
  filename: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class ImFiles {
  constructor(private readonly deps: ImDeps) {}

  /** The REST base of this app as the caller reached it. */
  baseUrl(req: FastifyRequest): string {
    const { org, app, publicUrl } = this.deps.config;
    return `${publicUrl ?? `${req.protocol}://${req.headers.host ?? "localhost"}`}/${org}/${app}`;
  }

  private check(file: UploadedPart | undefined): UploadedPart {
    if (!file) throw imError("uploadFailed", { reason: "no file in the form field 'file'" });
    if (file.data.length === 0) throw imError("uploadFailed", { reason: "fileSize must be greater than 0" });
    if (file.data.length > this.deps.config.fileMaxBytes) {
      throw imError("uploadFailed", {
        reason: `file size exceeds the limit of ${this.deps.config.fileMaxBytes} bytes`,
      });
    }
    return file;
  }

  private async store(file: UploadedPart): Promise<{
    uuid: string;
    key: string;
    shareSecret: string;
    width: number | null;
    height: number | null;
    filename: string;
    contentType: string;
  }> {
    const uuid = randomUUID();
    const key = `chatfiles/${uuid.slice(0, 2)}/${uuid}`;
    const size = await imageInfo(file.data);
    await this.deps.storage.put(key, file.data);
    return {
      uuid,
      key,
      shareSecret: randomBytes(18).toString("base64url"),
      width: size?.width ?? null,
      height: size?.height ?? null,
      filename: (file.filename || "file").slice(0, 255),
      // The uploader's type is not kept: a file named text/html or image/svg+xml would run script on our
      // origin. The type comes from the bytes, and only allowlisted images, audio and video keep theirs.
      contentType: await sniffUserFile(file.data),
    };
  }

  /** POST chatfiles: an attachment for a message. */
  async upload(
    owner: string,
    part: UploadedPart | undefined,
    options: { restricted: boolean; chatType: string | null; chatTarget: string | null },
  ): Promise<files.FileRow> {
    const file = this.check(part);
    const stored = await this.store(file);
    try {
      return await inScope(this.deps, async (s) => {
        await files.insertFile(s.tx, {
          uuid: stored.uuid,
          owner,
          shareSecret: stored.shareSecret,
          filename: stored.filename,
          contentType: stored.contentType,
          size: file.data.length,
          storageKey: stored.key,
          width: stored.width,
          height: stored.height,
          restricted: options.restricted,
          chatType: options.chatType,
          chatTarget: options.chatTarget,
          now: s.now,
        });
        const row = await files.findFile(s.tx, stored.uuid);
        if (!row) throw new Error("file row vanished after insert");
        return row;
      });
    } catch (err) {
      await this.deps.storage.delete(stored.key);
      throw err;
    }
  }

  /** The upload reply the client reads: uri, entities[0].uuid, share-secret, file-metadata. */
  presentUpload(req: FastifyRequest, row: files.FileRow): Record<string, unknown> {
    return {
      uri: `${this.baseUrl(req)}/chatfiles`,
      entities: [
        {
          uuid: row.uuid,
          type: "chatfile",
          "share-secret": row.share_secret,
          "file-metadata": {
            "content-type": row.content_type,
            "content-length": row.size,
            ...(row.width !== null && { width: row.width, height: row.height }),
          },
        },
      ],
    };
  }

  /**
   * GET chatfiles/{uuid}: the bytes, or with `thumbnail` a WebP that fits the asked size (images only;
   * an image that cannot be decoded is served whole). A restricted file needs its share secret.
   */
  async download(
    uuid: string,
    options: {
      secret: string | undefined;
      thumbnail: boolean;
      width?: number;
      height?: number;
      /** `size=small|large` (the chat SDK 5's image URLs): a re-encoded, downscaled copy. */
      variant?: "small" | "large";
    },
  ): Promise<OpenedFile> {
    if (!UUID_RE.test(uuid)) throw imError("fileNotFound", { id: uuid });
    const row = await files.findFile(this.deps.db, uuid);
    if (!row) throw imError("fileNotFound", { id: uuid });
    if (row.deleted_at) throw imError("fileExpired", { id: uuid });
    const allowed = !row.restricted || options.secret === row.share_secret;
    // The image variants are served on the file's id alone (docs/architecture.md, "Chat files the
    // SDK 5 shows"): the client puts them in <img> tags with no secret. A restricted image asked for
    // without its secret gets its large copy; the original bytes keep the secret.
    const variant = options.variant ?? (allowed ? undefined : "large");
    if (variant && row.width !== null) {
      const side = variant === "small" ? IM_LIMITS.thumbnailDefaultSize : IM_LIMITS.thumbnailMaxSize;
      const copy = await this.thumbnailOf(row, side, side);
      if (copy) return copy;
    }
    if (!allowed) throw imError("fileNoPermission");
    if (options.thumbnail && row.width !== null) {
      const w = Math.min(options.width ?? IM_LIMITS.thumbnailDefaultSize, IM_LIMITS.thumbnailMaxSize);
      const h = Math.min(options.height ?? IM_LIMITS.thumbnailDefaultSize, IM_LIMITS.thumbnailMaxSize);
      const thumb = await this.thumbnailOf(row, w, h);
      if (thumb) return thumb;
    }
    return this.openRow(row);
  }

  private async openRow(row: files.FileRow): Promise<OpenedFile> {
    const opened = await this.deps.storage.open(row.storage_key);
    if (!opened) throw imError("fileExpired", { id: row.uuid });
    return { stream: opened.stream, size: opened.size, contentType: row.content_type, filename: row.filename };
  }

  /** Thumbnails are made once per size and kept beside the file. */
  private async thumbnailOf(row: files.FileRow, w: number, h: number): Promise<OpenedFile | null> {
    const key = `${row.storage_key}.thumb-${w}x${h}.webp`;
    let opened = await this.deps.storage.open(key);
    if (!opened) {
      const original = await this.deps.storage.get(row.storage_key);
      if (!original) return null;
      let made: Buffer;
      try {
        made = (await thumbnail(original, w, h)).data;
      } catch {
        // Dimensions were readable but the pixels are not (truncated upload): serve the file itself.
        return null;
      }
      await this.deps.storage.put(key, made);
      opened = await this.deps.storage.open(key);
      if (!opened) return null;
    }
    return {
      stream: opened.stream,
      size: opened.size,
      contentType: "image/webp",
      filename: `${row.filename}.thumb.webp`,
    };
  }

  /* ---------- shared files of groups and rooms ---------- */

  async uploadShared(
    mucs: ImMucs,
    actor: ImActor,
    rawId: string,
    part: UploadedPart | undefined,
  ): Promise<files.FileRow> {
    const a = await mucs.access(this.deps.db, actor, rawId);
    mucs.require(a, "member");
    const owner = a.username ?? a.muc.owner;
    const file = this.check(part);
    const stored = await this.store(file);
    try {
      return await inScope(this.deps, async (s) => {
        const again = await mucs.access(s.tx, actor, rawId, { lock: s });
        mucs.require(again, "member");
        await files.insertFile(s.tx, {
          uuid: stored.uuid,
          owner,
          shareSecret: stored.shareSecret,
          filename: stored.filename,
          contentType: stored.contentType,
          size: file.data.length,
          storageKey: stored.key,
          width: stored.width,
          height: stored.height,
          restricted: true,
          chatType: mucs.kind,
          chatTarget: String(a.muc.id),
          now: s.now,
        });
        await files.addMucFile(s.tx, a.muc.id, stored.uuid, owner, s.now);
        const members = await mucs.memberNames(s.tx, a.muc.id);
        await s.notify(
          members,
          {
            ns: "muc",
            op: "uploadFile",
            kind: mucs.kind,
            mucId: String(a.muc.id),
            from: owner,
            detail: { fileId: stored.uuid, fileName: stored.filename },
          },
          { durable: mucs.kind === "group" },
        );
        const row = await files.findFile(s.tx, stored.uuid);
        if (!row) throw new Error("file row vanished after insert");
        return row;
      });
    } catch (err) {
      await this.deps.storage.delete(stored.key);
      throw err;
    }
  }

  async listShared(
    mucs: ImMucs,
    actor: ImActor,
    rawId: string,
    offset: number,
    limit: number,
  ): Promise<files.FileRow[]> {
    const a = await mucs.access(this.deps.db, actor, rawId);
    mucs.require(a, "member");
    return files.mucFilePage(this.deps.db, a.muc.id, offset, limit);
  }

  /** The uploader may delete its file; the owner and admins any. */
  async deleteShared(mucs: ImMucs, actor: ImActor, rawId: string, fileId: string): Promise<void> {
    if (!UUID_RE.test(fileId)) throw imError("fileNotFound", { id: fileId });
    const key = await inScope(this.deps, async (s) => {
      const a = await mucs.access(s.tx, actor, rawId, { lock: s });
      mucs.require(a, "member");
      const file = await files.mucFile(s.tx, a.muc.id, fileId);
      if (!file) throw imError("fileNotFound", { id: fileId });
      if (a.role === "member" && file.muc_owner !== a.username) mucs.require(a, "admin");
      await files.removeMucFile(s.tx, a.muc.id, fileId);
      await files.markFileDeleted(s.tx, fileId, s.now);
      const members = await mucs.memberNames(s.tx, a.muc.id);
      await s.notify(
        members,
        {
          ns: "muc",
          op: "deleteFile",
          kind: mucs.kind,
          mucId: String(a.muc.id),
          from: a.username ?? "admin",
          detail: { fileId },
        },
        { durable: mucs.kind === "group" },
      );
      return file.storage_key;
    });
    await this.deps.storage.delete(key);
  }

  async openShared(mucs: ImMucs, actor: ImActor, rawId: string, fileId: string): Promise<OpenedFile> {
    if (!UUID_RE.test(fileId)) throw imError("fileNotFound", { id: fileId });
    const a = await mucs.access(this.deps.db, actor, rawId);
    mucs.require(a, "member");
    const file = await files.mucFile(this.deps.db, a.muc.id, fileId);
    if (!file) throw imError("fileNotFound", { id: fileId });
    return this.openRow(file);
  }

  /** Removes the bytes of files whose rows are gone or marked deleted (after a group is dissolved). */
  async purge(uuids: readonly string[]): Promise<void> {
    for (const uuid of uuids) {
      const row = await files.findFile(this.deps.db, uuid);
      if (row) await this.deps.storage.delete(row.storage_key);
    }
  }
}
