import type { Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ImThreadsTable } from "../tables";

export type ThreadRow = Selectable<ImThreadsTable>;

export async function findThread(db: Executor, rawId: string): Promise<ThreadRow | undefined> {
  if (!/^\d{1,18}$/.test(rawId)) return undefined;
  return db.selectFrom("im_threads").selectAll().where("id", "=", Number(rawId)).executeTakeFirst();
}

export async function threadOfMessage(db: Executor, messageId: number): Promise<ThreadRow | undefined> {
  return db.selectFrom("im_threads").selectAll().where("parent_msg_id", "=", messageId).executeTakeFirst();
}

export async function insertThread(
  tx: Tx,
  t: { id: number; mucId: number; parentMsgId: number; name: string; owner: string; now: Date },
): Promise<void> {
  await tx
    .insertInto("im_threads")
    .values({
      id: t.id,
      muc_id: t.mucId,
      parent_msg_id: t.parentMsgId,
      name: t.name,
      owner: t.owner,
      created_at: t.now,
      updated_at: t.now,
    })
    .execute();
}

export async function isThreadMember(db: Executor, threadId: number, username: string): Promise<boolean> {
  return (
    (await db
      .selectFrom("im_thread_members")
      .select("username")
      .where("thread_id", "=", threadId)
      .where("username", "=", username)
      .executeTakeFirst()) !== undefined
  );
}

export async function addThreadMember(tx: Tx, threadId: number, username: string, now: Date): Promise<boolean> {
  const r = await tx
    .insertInto("im_thread_members")
    .values({ thread_id: threadId, username, joined_at: now })
    .onConflict((oc) => oc.columns(["thread_id", "username"]).doNothing())
    .executeTakeFirst();
  const added = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  if (added) await refreshThreadCount(tx, threadId);
  return added;
}

export async function removeThreadMember(tx: Tx, threadId: number, username: string): Promise<boolean> {
  const r = await tx
    .deleteFrom("im_thread_members")
    .where("thread_id", "=", threadId)
    .where("username", "=", username)
    .executeTakeFirst();
  const removed = Number(r.numDeletedRows) > 0;
  if (removed) await refreshThreadCount(tx, threadId);
  return removed;
}

async function refreshThreadCount(tx: Tx, threadId: number): Promise<void> {
  await tx
    .updateTable("im_threads")
    .set((eb) => ({
      member_count: eb
        .selectFrom("im_thread_members")
        .select((e) => e.fn.countAll<number>().as("n"))
        .where("thread_id", "=", threadId),
    }))
    .where("id", "=", threadId)
    .execute();
}

export async function threadMembersAfter(
  db: Executor,
  threadId: number,
  after: string | null,
  limit: number,
): Promise<string[]> {
  let q = db.selectFrom("im_thread_members").select("username").where("thread_id", "=", threadId);
  if (after !== null) q = q.where("username", ">", after);
  return (await q.orderBy("username").limit(limit).execute()).map((r) => r.username);
}

/** Threads of a group (newest first), optionally only those `member` belongs to. */
export async function threadPage(
  db: Executor,
  options: { mucId?: number; member?: string; beforeId: number | null; limit: number },
): Promise<ThreadRow[]> {
  let q = db.selectFrom("im_threads as t").selectAll("t");
  if (options.mucId !== undefined) q = q.where("t.muc_id", "=", options.mucId);
  if (options.member !== undefined) {
    const member = options.member;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("im_thread_members as m")
          .select("m.thread_id")
          .whereRef("m.thread_id", "=", "t.id")
          .where("m.username", "=", member),
      ),
    );
  }
  if (options.beforeId !== null) q = q.where("t.id", "<", options.beforeId);
  return q.orderBy("t.id", "desc").limit(options.limit).execute();
}

export async function renameThread(tx: Tx, id: number, name: string, now: Date): Promise<void> {
  await tx.updateTable("im_threads").set({ name, updated_at: now }).where("id", "=", id).execute();
}

export async function deleteThread(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom("im_threads").where("id", "=", id).execute();
}

export async function threadMemberNames(db: Executor, threadId: number): Promise<string[]> {
  return (await db.selectFrom("im_thread_members").select("username").where("thread_id", "=", threadId).execute()).map(
    (r) => r.username,
  );
}

/** Counts a batch's messages into the thread and makes the newest its last; returns the thread's row as updated. */
export async function addThreadMessages(
  tx: Tx,
  threadId: number,
  count: number,
  lastMessageId: number,
  now: Date,
): Promise<Pick<ThreadRow, "id" | "name" | "muc_id" | "parent_msg_id" | "message_count"> | undefined> {
  return tx
    .updateTable("im_threads")
    .set((eb) => ({
      message_count: eb("message_count", "+", count),
      last_message_id: lastMessageId,
      updated_at: now,
    }))
    .where("id", "=", threadId)
    .returning(["id", "name", "muc_id", "parent_msg_id", "message_count"])
    .executeTakeFirst();
}
