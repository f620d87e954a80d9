import type { Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ImFilesTable } from "../tables";

export type FileRow = Selectable<ImFilesTable>;

export async function insertFile(
  tx: Executor,
  f: {
    uuid: string;
    owner: string;
    shareSecret: string;
    filename: string;
    contentType: string;
    size: number;
    storageKey: string;
    width: number | null;
    height: number | null;
    restricted: boolean;
    chatType: string | null;
    chatTarget: string | null;
    now: Date;
  },
): Promise<void> {
  await tx
    .insertInto("im_files")
    .values({
      uuid: f.uuid,
      owner: f.owner,
      share_secret: f.shareSecret,
      filename: f.filename,
      content_type: f.contentType,
      size: f.size,
      storage_key: f.storageKey,
      width: f.width,
      height: f.height,
      restricted: f.restricted,
      chat_type: f.chatType,
      chat_target: f.chatTarget,
      created_at: f.now,
    })
    .execute();
}

export async function findFile(db: Executor, uuid: string): Promise<FileRow | undefined> {
  return db.selectFrom("im_files").selectAll().where("uuid", "=", uuid).executeTakeFirst();
}

export async function markFileDeleted(tx: Tx, uuid: string, now: Date): Promise<void> {
  await tx.updateTable("im_files").set({ deleted_at: now }).where("uuid", "=", uuid).execute();
}

export async function addMucFile(tx: Tx, mucId: number, fileUuid: string, owner: string, now: Date): Promise<void> {
  await tx.insertInto("im_muc_files").values({ muc_id: mucId, file_uuid: fileUuid, owner, created_at: now }).execute();
}

export async function mucFile(
  db: Executor,
  mucId: number,
  fileUuid: string,
): Promise<(FileRow & { muc_owner: string }) | undefined> {
  return db
    .selectFrom("im_muc_files as mf")
    .innerJoin("im_files as f", "f.uuid", "mf.file_uuid")
    .selectAll("f")
    .select("mf.owner as muc_owner")
    .where("mf.muc_id", "=", mucId)
    .where("mf.file_uuid", "=", fileUuid)
    .executeTakeFirst();
}

export async function removeMucFile(tx: Tx, mucId: number, fileUuid: string): Promise<boolean> {
  const r = await tx
    .deleteFrom("im_muc_files")
    .where("muc_id", "=", mucId)
    .where("file_uuid", "=", fileUuid)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function mucFilePage(db: Executor, mucId: number, offset: number, limit: number): Promise<FileRow[]> {
  return db
    .selectFrom("im_muc_files as mf")
    .innerJoin("im_files as f", "f.uuid", "mf.file_uuid")
    .selectAll("f")
    .where("mf.muc_id", "=", mucId)
    .orderBy("mf.created_at", "desc")
    .orderBy("mf.file_uuid")
    .offset(offset)
    .limit(limit)
    .execute();
}

/** Files of a group or room, for removing their bytes when it is dissolved. */
export async function mucFileUuids(db: Executor, mucId: number): Promise<string[]> {
  const rows = await db.selectFrom("im_muc_files").select("file_uuid").where("muc_id", "=", mucId).execute();
  return rows.map((r) => r.file_uuid);
}
