import { sql, type Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ImConversationsTable } from "../tables";

/** Each user's conversations: last message, unread count, pin, and the part of history they cleared. */

export type ConversationRow = Selectable<ImConversationsTable>;

export async function findConversation(
  db: Executor,
  username: string,
  key: string,
): Promise<ConversationRow | undefined> {
  return db
    .selectFrom("im_conversations")
    .selectAll()
    .where("username", "=", username)
    .where("conv_key", "=", key)
    .executeTakeFirst();
}

/** Visible conversations, newest first, after the keyset cursor (last_ms, conv_key); optionally only those with a mark bit. */
export async function conversationPage(
  db: Executor,
  username: string,
  options: { pinnedOnly: boolean; after: { ms: number; key: string } | null; limit: number; markBit?: number },
): Promise<ConversationRow[]> {
  let q = db.selectFrom("im_conversations").selectAll().where("username", "=", username).where("visible", "=", true);
  if (options.markBit !== undefined) q = q.where(sql<boolean>`(marks & ${options.markBit}) <> 0`);
  if (options.pinnedOnly) {
    q = q.where("pinned_ms", "is not", null);
    if (options.after) q = q.where(sql<boolean>`(pinned_ms, conv_key) < (${options.after.ms}, ${options.after.key})`);
    return q.orderBy("pinned_ms", "desc").orderBy("conv_key", "desc").limit(options.limit).execute();
  }
  if (options.after) q = q.where(sql<boolean>`(last_ms, conv_key) < (${options.after.ms}, ${options.after.key})`);
  return q.orderBy("last_ms", "desc").orderBy("conv_key", "desc").limit(options.limit).execute();
}

export async function conversationOffsetPage(
  db: Executor,
  username: string,
  offset: number,
  limit: number,
): Promise<ConversationRow[]> {
  return db
    .selectFrom("im_conversations")
    .selectAll()
    .where("username", "=", username)
    .where("visible", "=", true)
    .orderBy("last_ms", "desc")
    .orderBy("conv_key", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function pinnedCount(db: Executor, username: string): Promise<number> {
  const r = await db
    .selectFrom("im_conversations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("username", "=", username)
    .where("visible", "=", true)
    .where("pinned_ms", "is not", null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function setPinned(tx: Tx, username: string, key: string, pinnedMs: number | null): Promise<boolean> {
  const r = await tx
    .updateTable("im_conversations")
    .set({ pinned_ms: pinnedMs })
    .where("username", "=", username)
    .where("conv_key", "=", key)
    .where("visible", "=", true)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Removes a conversation from the user's list (it comes back with the next message). With `clearSeq` the
 * user's history of it is cleared up to that seq as well.
 */
export async function hideConversation(
  tx: Tx,
  username: string,
  key: string,
  clearSeq: number | null,
): Promise<boolean> {
  const r = await tx
    .updateTable("im_conversations")
    .set({
      visible: false,
      unread: 0,
      pinned_ms: null,
      marks: 0,
      ...(clearSeq !== null && { cleared_seq: clearSeq, read_seq: clearSeq }),
    })
    .where("username", "=", username)
    .where("conv_key", "=", key)
    .where("visible", "=", true)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setClearedMs(tx: Tx, username: string, key: string, ms: number): Promise<void> {
  await tx
    .updateTable("im_conversations")
    .set({ cleared_ms: sql<number>`GREATEST(cleared_ms, ${ms})` })
    .where("username", "=", username)
    .where("conv_key", "=", key)
    .execute();
}

export async function headSeq(db: Executor, key: string): Promise<number> {
  const r = await db.selectFrom("im_conv_heads").select("last_seq").where("conv_key", "=", key).executeTakeFirst();
  return r?.last_seq ?? 0;
}

/**
 * Recomputes a user's conversation from the messages it still sees: the last message (after a recall or
 * a removal) and the unread count (messages from others after what was read). Unread counts therefore
 * never include the user's own messages, recalled ones or removed ones.
 */
export async function refreshConversation(tx: Tx, username: string, key: string): Promise<void> {
  await sql`
    UPDATE im_conversations c SET
      last_message_id = (
        SELECT m.id FROM im_messages m
        WHERE m.conv_key = c.conv_key AND m.recalled_at IS NULL AND m.seq > c.cleared_seq AND m.created_ms >= c.cleared_ms
          AND NOT EXISTS (SELECT 1 FROM im_message_deletions d WHERE d.username = c.username AND d.message_id = m.id)
        ORDER BY m.seq DESC LIMIT 1),
      unread = (
        SELECT count(*) FROM im_messages m
        WHERE m.conv_key = c.conv_key AND m.recalled_at IS NULL AND m.seq > GREATEST(c.read_seq, c.cleared_seq) AND m.created_ms >= c.cleared_ms
          AND m.from_user <> c.username
          AND NOT EXISTS (SELECT 1 FROM im_message_deletions d WHERE d.username = c.username AND d.message_id = m.id))
    WHERE c.username = ${username} AND c.conv_key = ${key}`.execute(tx);
}

/** The user has read the conversation up to `seq` (the gateway calls this on a read acknowledgement). */
export async function markRead(tx: Tx, username: string, key: string, seq: number): Promise<void> {
  await tx
    .updateTable("im_conversations")
    .set({ read_seq: sql<number>`GREATEST(read_seq, ${seq})` })
    .where("username", "=", username)
    .where("conv_key", "=", key)
    .execute();
  await refreshConversation(tx, username, key);
}

/** Everyone whose conversation shows this message last: their rows need refreshing after a recall. */
export async function holdersOfLast(
  db: Executor,
  messageId: number,
): Promise<{ username: string; conv_key: string }[]> {
  return db
    .selectFrom("im_conversations")
    .select(["username", "conv_key"])
    .where("last_message_id", "=", messageId)
    .execute();
}

/** Everyone with a conversation row for this conversation (a recall refreshes each). */
export async function conversationHolders(db: Executor, key: string): Promise<{ username: string }[]> {
  return db.selectFrom("im_conversations").select("username").where("conv_key", "=", key).execute();
}

/** Sets or clears a mark bit on some of the user's visible conversations; returns the keys it changed. */
export async function setMark(
  tx: Tx,
  username: string,
  keys: readonly string[],
  bit: number,
  on: boolean,
): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await tx
    .updateTable("im_conversations")
    .set({ marks: on ? sql<number>`marks | ${bit}` : sql<number>`marks & ${~bit}` })
    .where("username", "=", username)
    .where("conv_key", "in", [...keys])
    .where("visible", "=", true)
    .returning("conv_key")
    .execute();
  return rows.map((r) => r.conv_key);
}

/** The user's visible conversations, newest first, at most `limit`. */
export async function visibleConversations(
  db: Executor,
  username: string,
  limit: number,
): Promise<{ peer: string; chat_type: "chat" | "groupchat" }[]> {
  return db
    .selectFrom("im_conversations")
    .select(["peer", "chat_type"])
    .where("username", "=", username)
    .where("visible", "=", true)
    .orderBy("last_ms", "desc")
    .limit(limit)
    .execute();
}

/**
 * Hides all of the user's conversations and clears its history of them up to now (the client's "delete
 * all messages and conversations"). Chat rooms keep no conversation and no per-user history.
 */
export async function hideAllConversations(tx: Tx, username: string, nowMs: number): Promise<number> {
  const r = await sql`
    UPDATE im_conversations c SET visible = false, unread = 0, pinned_ms = NULL, marks = 0,
      cleared_seq = COALESCE((SELECT h.last_seq FROM im_conv_heads h WHERE h.conv_key = c.conv_key), c.cleared_seq),
      read_seq = COALESCE((SELECT h.last_seq FROM im_conv_heads h WHERE h.conv_key = c.conv_key), c.read_seq),
      cleared_ms = GREATEST(c.cleared_ms, ${nowMs})
    WHERE c.username = ${username}`.execute(tx);
  return Number(r.numAffectedRows ?? 0);
}
