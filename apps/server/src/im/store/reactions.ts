import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";

export async function addReaction(
  tx: Tx,
  messageId: number,
  reaction: string,
  username: string,
  now: Date,
): Promise<boolean> {
  const r = await tx
    .insertInto("im_reactions")
    .values({ message_id: messageId, reaction, username, created_at: now })
    .onConflict((oc) => oc.columns(["message_id", "reaction", "username"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeReaction(tx: Tx, messageId: number, reaction: string, username: string): Promise<boolean> {
  const r = await tx
    .deleteFrom("im_reactions")
    .where("message_id", "=", messageId)
    .where("reaction", "=", reaction)
    .where("username", "=", username)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function distinctReactions(db: Executor, messageId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("im_reactions")
    .select("reaction")
    .distinct()
    .where("message_id", "=", messageId)
    .execute();
  return rows.map((r) => r.reaction);
}

/** Per message and reaction: how many, whether `me` is among them, and the first few users. */
export async function summary(
  db: Executor,
  messageIds: readonly number[],
  me: string,
  sample: number,
): Promise<{ message_id: number; reaction: string; count: number; mine: boolean; users: string[]; first: Date }[]> {
  if (messageIds.length === 0) return [];
  const r = await sql<{
    message_id: number;
    reaction: string;
    count: number;
    mine: boolean;
    users: string[];
    first: Date;
  }>`
    SELECT message_id, reaction, count(*)::int8 AS count, bool_or(username = ${me}) AS mine,
           (array_agg(username ORDER BY created_at, username))[1:${sample}] AS users, min(created_at) AS first
    FROM im_reactions WHERE message_id = ANY(${[...messageIds]}::int8[])
    GROUP BY message_id, reaction ORDER BY message_id, min(created_at), reaction`.execute(db);
  return r.rows.map((row) => ({ ...row, message_id: Number(row.message_id), count: Number(row.count) }));
}

export async function reactionUsersAfter(
  db: Executor,
  messageId: number,
  reaction: string,
  after: { ms: number; username: string } | null,
  limit: number,
): Promise<{ username: string; created_at: Date }[]> {
  let q = db
    .selectFrom("im_reactions")
    .select(["username", "created_at"])
    .where("message_id", "=", messageId)
    .where("reaction", "=", reaction);
  if (after) {
    q = q.where(sql<boolean>`(created_at, username) > (${new Date(after.ms)}::timestamptz, ${after.username})`);
  }
  return q.orderBy("created_at").orderBy("username").limit(limit).execute();
}

export async function insertReport(
  tx: Tx,
  r: { reporter: string; messageId: number; type: string; reason: string; now: Date },
): Promise<number> {
  const row = await tx
    .insertInto("im_reports")
    .values({ reporter: r.reporter, message_id: r.messageId, report_type: r.type, reason: r.reason, created_at: r.now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
