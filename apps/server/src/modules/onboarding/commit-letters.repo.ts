import type { Executor } from "../../db/tx";

/** SQL of commitment letters. Every query of a merchant's rows takes its merchant id (the tenant). */

export async function insertCommitLetter(
  tx: Executor,
  l: {
    merchantId: number;
    storageKey: string;
    contentType: string;
    fileName: string;
    sizeBytes: number;
    uploadedBy: number;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("commit_letters")
    .values({
      merchant_id: l.merchantId,
      storage_key: l.storageKey,
      content_type: l.contentType,
      file_name: l.fileName,
      size_bytes: l.sizeBytes,
      uploaded_by: l.uploadedBy,
      uploaded_at: l.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A merchant's letters, newest first, with the uploader's e-mail. */
export function commitLettersOf(db: Executor, merchantId: number) {
  return db
    .selectFrom("commit_letters as c")
    .innerJoin("users as u", "u.id", "c.uploaded_by")
    .selectAll("c")
    .select("u.email as uploader_email")
    .where("c.merchant_id", "=", merchantId)
    .orderBy("c.id", "desc")
    .execute();
}

export function findCommitLetter(db: Executor, merchantId: number, id: number) {
  return db
    .selectFrom("commit_letters")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("id", "=", id)
    .executeTakeFirst();
}
