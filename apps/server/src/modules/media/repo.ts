import { pageWindow, paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the media module: uploads, videos and the video library. Every read names its merchant. */

export interface NewUpload {
  id: string;
  merchantId: number;
  createdBy: number;
  length: number;
  refId: string | null;
  type: number;
  name: string;
  filename: string;
  zhuanma: boolean;
  metadata: string;
  now: Date;
}

export async function insertUpload(db: Executor, u: NewUpload): Promise<void> {
  await db
    .insertInto("media_uploads")
    .values({
      id: u.id,
      merchant_id: u.merchantId,
      created_by: u.createdBy,
      length: u.length,
      ref_id: u.refId,
      type: u.type,
      name: u.name,
      filename: u.filename,
      zhuanma: u.zhuanma,
      metadata: u.metadata,
      created_at: u.now,
      updated_at: u.now,
    })
    .execute();
}

export function findUpload(db: Executor, merchantId: number, id: string) {
  return db
    .selectFrom("media_uploads")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}
export type UploadRow = NonNullable<Awaited<ReturnType<typeof findUpload>>>;

/** Moves the offset forward only from the offset the writer started at; false when someone else moved it. */
export async function advanceUpload(
  db: Executor,
  merchantId: number,
  id: string,
  from: number,
  to: number,
  now: Date,
): Promise<boolean> {
  const res = await db
    .updateTable("media_uploads")
    .set({ received: to, updated_at: now })
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .where("received", "=", from)
    .where("completed_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function completeUpload(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable("media_uploads").set({ completed_at: now, updated_at: now }).where("id", "=", id).execute();
}

export async function deleteUpload(db: Executor, merchantId: number, id: string): Promise<void> {
  await db
    .deleteFrom("media_uploads")
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .where("completed_at", "is", null)
    .execute();
}

/** Unfinished uploads nobody has written to since `before` (abandoned), a few at a time. */
export function staleUploads(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom("media_uploads")
    .select(["id", "merchant_id"])
    .where("completed_at", "is", null)
    .where("updated_at", "<", before)
    .orderBy("updated_at")
    .limit(limit)
    .execute();
}

export interface NewVideo {
  merchantId: number;
  uploadId: string;
  refId: string | null;
  type: number;
  name: string;
  filename: string;
  bytes: number;
  kind: "video" | "audio";
  contentType: string;
  zhuanma: boolean;
  storageKey: string;
  createdBy: number;
  now: Date;
}

export async function insertVideo(db: Executor, v: NewVideo): Promise<number> {
  const row = await db
    .insertInto("media_videos")
    .values({
      merchant_id: v.merchantId,
      upload_id: v.uploadId,
      ref_id: v.refId,
      type: v.type,
      name: v.name,
      filename: v.filename,
      bytes: v.bytes,
      kind: v.kind,
      content_type: v.contentType,
      zhuanma: v.zhuanma,
      storage_key: v.storageKey,
      created_by: v.createdBy,
      created_at: v.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function videoOf(db: Executor, merchantId: number, id: number) {
  return db
    .selectFrom("media_videos")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}
export type VideoRow = NonNullable<Awaited<ReturnType<typeof videoOf>>>;

export function videoOfUpload(db: Executor, merchantId: number, uploadId: string) {
  return db
    .selectFrom("media_videos")
    .selectAll()
    .where("upload_id", "=", uploadId)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
}

/** A video by id alone: only for serving a file whose signed address names it. */
export function videoForPlayback(db: Executor, id: number) {
  return db
    .selectFrom("media_videos")
    .select(["id", "storage_key", "content_type", "bytes"])
    .where("id", "=", id)
    .executeTakeFirst();
}

export function videosOf(db: Executor, merchantId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("media_videos")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "in", ids)
    .execute();
}

/** Adds videos to the library; one already there stays as it was. Returns how many were new. */
export async function addToLibrary(
  db: Executor,
  merchantId: number,
  items: { videoId: number; typeId: number; name: string; sizeKb: number }[],
  createdBy: number,
  now: Date,
): Promise<number> {
  const rows = await db
    .insertInto("media_library")
    .values(
      items.map((i) => ({
        merchant_id: merchantId,
        video_id: i.videoId,
        type_id: i.typeId,
        name: i.name,
        size_kb: i.sizeKb,
        created_by: createdBy,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(["merchant_id", "video_id"]).doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

function libraryBase(db: Executor, merchantId: number, filter: { typeId?: number; name?: string }) {
  let q = db
    .selectFrom("media_library as l")
    .innerJoin("media_videos as v", "v.id", "l.video_id")
    .where("l.merchant_id", "=", merchantId);
  if (filter.typeId !== undefined) q = q.where("l.type_id", "=", filter.typeId);
  if (filter.name) q = q.where("l.name", "ilike", `%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  return q;
}

export async function libraryPage(
  db: Executor,
  merchantId: number,
  filter: { typeId?: number; name?: string },
  page: number,
  pageSize: number,
) {
  return paginate(
    libraryBase(db, merchantId, filter)
      .select([
        "l.id",
        "l.video_id",
        "l.type_id",
        "l.name",
        "l.size_kb",
        "l.created_at",
        "v.filename",
        "v.kind",
        "v.content_type",
      ])
      .orderBy("l.id", "desc"),
    libraryBase(db, merchantId, filter),
    pageWindow({ page, pageSize }),
  );
}
export type LibraryRow = Awaited<ReturnType<typeof libraryPage>>["rows"][number];

export function libraryItemsOf(db: Executor, merchantId: number, videoIds: number[]) {
  if (videoIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("media_library as l")
    .innerJoin("media_videos as v", "v.id", "l.video_id")
    .where("l.merchant_id", "=", merchantId)
    .where("l.video_id", "in", videoIds)
    .select([
      "l.id",
      "l.video_id",
      "l.type_id",
      "l.name",
      "l.size_kb",
      "l.created_at",
      "v.filename",
      "v.kind",
      "v.content_type",
    ])
    .orderBy("l.id", "desc")
    .execute();
}
