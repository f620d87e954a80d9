import type { ImMessagePayload } from "@tessera/contracts";
import { sql, type Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import type { ChatType, ImMessagesTable } from "../tables";
import { mucQueue, userQueue } from "./inbox";

/**
 * The message store, shared by the REST API and the realtime gateway. A message gets the next seq of
 * its conversation in the inserting transaction; the same transaction updates each participant's
 * conversation row (last message, unread) and appends the message to each recipient's sync queue.
 */

export type MessageRow = Selectable<ImMessagesTable>;

/** Conversation keys: one-to-one keys sort the two names so both sides share one conversation. */
export function convKey(chatType: ChatType, from: string, to: string, threadId?: number | null): string {
  if (threadId) return `t:${threadId}`;
  if (chatType === "chat") return from < to ? `c:${from}:${to}` : `c:${to}:${from}`;
  return `${chatType === "groupchat" ? "g" : "r"}:${to}`;
}

export interface NewMessage {
  chatType: ChatType;
  from: string;
  fromResource?: string | null;
  /** The peer user, or the group / room id. */
  to: string;
  threadId?: number | null;
  payload: ImMessagePayload;
  bodyPb?: Uint8Array | null;
  /** The sender's own id, for exactly-once acceptance of a resend. */
  clientId?: string | null;
}

export interface Fanout {
  /** Users whose conversation list shows the message and counts it unread (not the sender). */
  unreadFor: readonly string[];
  /** Users whose sync queue gets it (not the sender: its other devices get it through senderCopy). */
  inboxFor: readonly string[];
  /** Whether the sender gets a conversation row and a sync-queue copy for its other devices. */
  senderCopy: boolean;
}

export async function findByClientId(db: Executor, from: string, clientId: string): Promise<MessageRow | undefined> {
  return db.selectFrom("im_messages").selectAll().where("from_user", "=", from).where("client_id", "=", clientId).executeTakeFirst();
}

export async function appendMessage(tx: Tx, m: NewMessage, fan: Fanout, now: Date): Promise<{ row: MessageRow; duplicate: boolean }> {
  if (m.clientId) {
    const existing = await findByClientId(tx, m.from, m.clientId);
    if (existing) return { row: existing, duplicate: true };
  }
  const key = convKey(m.chatType, m.from, m.to, m.threadId);
  const head = await sql<{ last_seq: number; last_ms: number }>`
    INSERT INTO im_conv_heads (conv_key, last_seq, last_ms) VALUES (${key}, 1, ${now.getTime()})
    ON CONFLICT (conv_key) DO UPDATE
      SET last_seq = im_conv_heads.last_seq + 1, last_ms = GREATEST(im_conv_heads.last_ms, EXCLUDED.last_ms)
    RETURNING last_seq, last_ms`.execute(tx);
  const h = head.rows[0];
  if (!h) throw new Error("no conversation head");
  const seq = Number(h.last_seq);
  const createdMs = Number(h.last_ms);
  const row = await tx
    .insertInto("im_messages")
    .values({
      conv_key: key,
      seq,
      chat_type: m.chatType,
      from_user: m.from,
      from_resource: m.fromResource ?? null,
      to_target: m.to,
      thread_id: m.threadId ?? null,
      msg_type: m.payload.bodies[0]?.type ?? "txt",
      created_ms: createdMs,
      payload: JSON.stringify(m.payload),
      body_pb: m.bodyPb ?? null,
      client_id: m.clientId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  if (m.chatType !== "chatroom" && !m.threadId) {
    const convType = m.chatType === "chat" ? "chat" : "groupchat";
    if (fan.senderCopy) {
      await upsertConversations(tx, [m.from], key, m.chatType === "chat" ? m.to : m.to, convType, row.id, createdMs, 0);
    }
    if (fan.unreadFor.length > 0) {
      await upsertConversations(tx, fan.unreadFor, key, m.chatType === "chat" ? m.from : m.to, convType, row.id, createdMs, 1);
    }
  }
  const queue = m.chatType === "chat" ? null : mucQueue(m.to);
  const inboxRows = [...fan.inboxFor.map((u) => ({ u, q: queue ?? userQueue(m.from), skip: null as string | null }))];
  if (fan.senderCopy) inboxRows.push({ u: m.from, q: queue ?? userQueue(m.to), skip: m.fromResource ?? null });
  if (inboxRows.length > 0) {
    await sql`
      INSERT INTO im_inbox (username, queue, message_id, skip_resource, created_at)
      SELECT u, q, ${row.id}, s, ${now}
      FROM unnest(${inboxRows.map((r) => r.u)}::text[], ${inboxRows.map((r) => r.q)}::text[], ${inboxRows.map((r) => r.skip)}::text[]) AS x(u, q, s)`.execute(tx);
  }
  return { row, duplicate: false };
}

async function upsertConversations(
  tx: Tx,
  usernames: readonly string[],
  key: string,
  peer: string,
  chatType: "chat" | "groupchat",
  messageId: number,
  ms: number,
  unread: 0 | 1,
): Promise<void> {
  await sql`
    INSERT INTO im_conversations (username, conv_key, peer, chat_type, last_message_id, last_ms, unread, visible)
    SELECT u, ${key}, ${peer}, ${chatType}, ${messageId}, ${ms}, ${unread}, true FROM unnest(${[...usernames]}::text[]) AS x(u)
    ON CONFLICT (username, conv_key) DO UPDATE
      SET last_message_id = EXCLUDED.last_message_id, last_ms = EXCLUDED.last_ms,
          unread = im_conversations.unread + EXCLUDED.unread, visible = true`.execute(tx);
}

export async function findMessage(db: Executor, id: number): Promise<MessageRow | undefined> {
  return db.selectFrom("im_messages").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findMessages(db: Executor, ids: readonly number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom("im_messages").selectAll().where("id", "in", [...ids]).execute();
}

export interface HistoryQuery {
  convKey: string;
  username: string;
  /** Newest first ("up"), or oldest first ("down"). */
  direction: "up" | "down";
  /** Continue after this seq (exclusive), in the direction. */
  afterSeq: number | null;
  limit: number;
  clearedSeq: number;
  clearedMs: number;
  /** Oldest time kept (retention), ms. */
  minMs: number;
  from?: string | undefined;
  types?: readonly string[] | undefined;
  startMs?: number | undefined;
  endMs?: number | undefined;
}

/** One page of a conversation's history as the user may see it (not recalled, not removed by them). */
export async function history(db: Executor, q: HistoryQuery): Promise<MessageRow[]> {
  let query = db
    .selectFrom("im_messages as m")
    .selectAll("m")
    .where("m.conv_key", "=", q.convKey)
    .where("m.recalled_at", "is", null)
    .where("m.seq", ">", q.clearedSeq)
    .where("m.created_ms", ">=", Math.max(q.clearedMs, q.minMs))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("im_message_deletions as d").select("d.message_id").where("d.username", "=", q.username).whereRef("d.message_id", "=", "m.id"))),
    );
  if (q.afterSeq !== null) query = query.where("m.seq", q.direction === "up" ? "<" : ">", q.afterSeq);
  if (q.from) query = query.where("m.from_user", "=", q.from);
  if (q.types && q.types.length > 0) query = query.where("m.msg_type", "in", [...q.types]);
  if (q.startMs !== undefined) query = query.where("m.created_ms", ">=", q.startMs);
  if (q.endMs !== undefined) query = query.where("m.created_ms", "<=", q.endMs);
  return query
    .orderBy("m.seq", q.direction === "up" ? "desc" : "asc")
    .limit(q.limit)
    .execute();
}

/** The newest message of a conversation the user still sees, for its conversation row. */
export async function lastVisible(db: Executor, key: string, username: string, clearedSeq: number, clearedMs: number): Promise<MessageRow | undefined> {
  const rows = await history(db, { convKey: key, username, direction: "up", afterSeq: null, limit: 1, clearedSeq, clearedMs, minMs: 0 });
  return rows[0];
}

export async function hideMessages(tx: Tx, username: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .insertInto("im_message_deletions")
    .values(ids.map((message_id) => ({ username, message_id })))
    .onConflict((oc) => oc.columns(["username", "message_id"]).doNothing())
    .execute();
}

/** Marks a message recalled; it leaves everyone's history (the gateway's recall calls this). */
export async function markRecalled(tx: Tx, id: number, now: Date): Promise<boolean> {
  const r = await tx.updateTable("im_messages").set({ recalled_at: now }).where("id", "=", id).where("recalled_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function updatePayload(tx: Tx, id: number, payload: ImMessagePayload, bodyPb: Uint8Array | null): Promise<void> {
  await tx.updateTable("im_messages").set({ payload: JSON.stringify(payload), body_pb: bodyPb }).where("id", "=", id).execute();
}

/** Deletes messages older than `beforeMs` (history retention). Returns how many went. */
export async function purgeBefore(db: Executor, beforeMs: number, batch: number): Promise<number> {
  const r = await sql<{ n: number }>`
    WITH gone AS (DELETE FROM im_messages WHERE id IN (SELECT id FROM im_messages WHERE created_ms < ${beforeMs} LIMIT ${batch}) RETURNING 1)
    SELECT count(*)::int8 AS n FROM gone`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
