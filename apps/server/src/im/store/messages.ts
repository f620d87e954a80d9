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
  /** False when the sender has no other device that would read the copy (it then reads history). */
  senderQueueCopy?: boolean;
}

export async function findByClientId(db: Executor, from: string, clientId: string): Promise<MessageRow | undefined> {
  return db.selectFrom("im_messages").selectAll().where("from_user", "=", from).where("client_id", "=", clientId).executeTakeFirst();
}

/** What appending stored: the message's id, its seq in the conversation and its server time. */
export interface Appended {
  id: number;
  seq: number;
  createdMs: number;
  /** A resend of a message already stored (same sender and client id): nothing new was written. */
  duplicate: boolean;
}

/**
 * Appends messages in one go: a few statements for the whole list instead of a few per message (group
 * commit: the gateway stores whatever arrived while the previous transaction ran). Messages keep their
 * list order within a conversation (consecutive seqs). A resend (same sender and client id, stored
 * before or earlier in the list) returns the first message and writes nothing.
 */
export async function appendMessages(tx: Tx, items: readonly { m: NewMessage; fan: Fanout }[], now: Date): Promise<Appended[]> {
  const out: (Appended | undefined)[] = new Array<Appended | undefined>(items.length);
  const withClientId = items.flatMap((it, i) => (it.m.clientId ? [{ i, from: it.m.from, clientId: it.m.clientId }] : []));
  const stored = new Map<string, Appended>();
  if (withClientId.length > 0) {
    const found = await sql<{ id: number; seq: number; created_ms: number; from_user: string; client_id: string }>`
      SELECT id, seq, created_ms, from_user, client_id FROM im_messages
      WHERE (from_user, client_id) IN (SELECT * FROM unnest(${withClientId.map((c) => c.from)}::text[], ${withClientId.map((c) => c.clientId)}::text[]))`.execute(tx);
    for (const r of found.rows) stored.set(`${r.from_user}\0${r.client_id}`, { id: Number(r.id), seq: Number(r.seq), createdMs: Number(r.created_ms), duplicate: true });
  }
  // Which items are new; a second copy in the list points at the first.
  const fresh: number[] = [];
  const copyOf = new Map<number, number>();
  const firstInList = new Map<string, number>();
  items.forEach((it, i) => {
    const dedupe = it.m.clientId ? `${it.m.from}\0${it.m.clientId}` : null;
    const before = dedupe ? stored.get(dedupe) : undefined;
    if (before) return void (out[i] = before);
    const earlier = dedupe ? firstInList.get(dedupe) : undefined;
    if (earlier !== undefined) return void copyOf.set(i, earlier);
    if (dedupe) firstInList.set(dedupe, i);
    fresh.push(i);
  });
  if (fresh.length > 0) {
    const keyOf = (i: number) => {
      const m = (items[i] as { m: NewMessage }).m;
      return convKey(m.chatType, m.from, m.to, m.threadId);
    };
    // One head update per conversation, by the number of its new messages.
    const counts = new Map<string, number>();
    for (const i of fresh) counts.set(keyOf(i), (counts.get(keyOf(i)) ?? 0) + 1);
    const heads = await sql<{ conv_key: string; last_seq: number; last_ms: number }>`
      INSERT INTO im_conv_heads (conv_key, last_seq, last_ms)
      SELECT k, n, ${now.getTime()} FROM unnest(${[...counts.keys()]}::text[], ${[...counts.values()]}::bigint[]) AS x(k, n)
      ON CONFLICT (conv_key) DO UPDATE
        SET last_seq = im_conv_heads.last_seq + EXCLUDED.last_seq, last_ms = GREATEST(im_conv_heads.last_ms, EXCLUDED.last_ms)
      RETURNING conv_key, last_seq, last_ms`.execute(tx);
    const next = new Map(heads.rows.map((h) => [h.conv_key, { seq: Number(h.last_seq) - (counts.get(h.conv_key) ?? 0), ms: Number(h.last_ms) }]));
    const rows = fresh.map((i) => {
      const m = (items[i] as { m: NewMessage }).m;
      const head = next.get(keyOf(i));
      if (!head) throw new Error("no conversation head");
      head.seq += 1;
      return {
        conv_key: keyOf(i),
        seq: head.seq,
        chat_type: m.chatType,
        from_user: m.from,
        from_resource: m.fromResource ?? null,
        to_target: m.to,
        thread_id: m.threadId ?? null,
        msg_type: m.payload.bodies[0]?.type ?? "txt",
        created_ms: head.ms,
        payload: JSON.stringify(m.payload),
        body_pb: m.bodyPb ?? null,
        client_id: m.clientId ?? null,
      };
    });
    const inserted = await tx.insertInto("im_messages").values(rows).returning(["id", "conv_key", "seq"]).execute();
    const idOf = new Map(inserted.map((r) => [`${r.conv_key}\0${r.seq}`, Number(r.id)]));
    fresh.forEach((i, k) => {
      const row = rows[k] as (typeof rows)[number];
      const id = idOf.get(`${row.conv_key}\0${row.seq}`);
      if (id === undefined) throw new Error("message not inserted");
      out[i] = { id, seq: row.seq, createdMs: row.created_ms, duplicate: false };
    });
    await fanOut(tx, fresh.map((i) => ({ ...(items[i] as { m: NewMessage; fan: Fanout }), stored: out[i] as Appended })), now);
  }
  for (const [i, first] of copyOf) out[i] = { ...(out[first] as Appended), duplicate: true };
  return out.map((a) => {
    if (!a) throw new Error("message without outcome");
    return a;
  });
}

/** Conversation rows (last message, unread) and sync-queue entries of new messages, a statement each. */
async function fanOut(tx: Tx, items: readonly { m: NewMessage; fan: Fanout; stored: Appended }[], now: Date): Promise<void> {
  // Per (user, conversation): the newest message and how many of them count unread.
  const convs = new Map<string, { u: string; key: string; peer: string; type: "chat" | "groupchat"; id: number; ms: number; unread: number }>();
  const touch = (u: string, key: string, peer: string, type: "chat" | "groupchat", id: number, ms: number, unread: number) => {
    const c = convs.get(`${u}\0${key}`);
    if (c) {
      c.id = id;
      c.ms = ms;
      c.unread += unread;
    } else convs.set(`${u}\0${key}`, { u, key, peer, type, id, ms, unread });
  };
  const inbox: { u: string; q: string; id: number; skip: string | null }[] = [];
  for (const { m, fan, stored } of items) {
    const key = convKey(m.chatType, m.from, m.to, m.threadId);
    if (m.chatType !== "chatroom" && !m.threadId) {
      const type = m.chatType === "chat" ? "chat" : "groupchat";
      if (fan.senderCopy) touch(m.from, key, m.to, type, stored.id, stored.createdMs, 0);
      for (const u of fan.unreadFor) touch(u, key, m.chatType === "chat" ? m.from : m.to, type, stored.id, stored.createdMs, 1);
    }
    const queue = m.chatType === "chat" ? null : mucQueue(m.to);
    for (const u of fan.inboxFor) inbox.push({ u, q: queue ?? userQueue(m.from), id: stored.id, skip: null });
    if (fan.senderCopy && fan.senderQueueCopy !== false) inbox.push({ u: m.from, q: queue ?? userQueue(m.to), id: stored.id, skip: m.fromResource ?? null });
  }
  if (convs.size > 0) {
    const list = [...convs.values()];
    await sql`
      INSERT INTO im_conversations (username, conv_key, peer, chat_type, last_message_id, last_ms, unread, visible)
      SELECT u, k, p, t, i, ms, n, true
      FROM unnest(${list.map((c) => c.u)}::text[], ${list.map((c) => c.key)}::text[], ${list.map((c) => c.peer)}::text[], ${list.map((c) => c.type)}::text[],
                  ${list.map((c) => c.id)}::bigint[], ${list.map((c) => c.ms)}::bigint[], ${list.map((c) => c.unread)}::int[]) AS x(u, k, p, t, i, ms, n)
      ON CONFLICT (username, conv_key) DO UPDATE
        SET last_message_id = EXCLUDED.last_message_id, last_ms = EXCLUDED.last_ms,
            unread = im_conversations.unread + EXCLUDED.unread, visible = true`.execute(tx);
  }
  if (inbox.length > 0) {
    await sql`
      INSERT INTO im_inbox (username, queue, message_id, skip_resource, created_at)
      SELECT u, q, i, s, ${now}
      FROM unnest(${inbox.map((r) => r.u)}::text[], ${inbox.map((r) => r.q)}::text[], ${inbox.map((r) => r.id)}::bigint[], ${inbox.map((r) => r.skip)}::text[]) WITH ORDINALITY AS x(u, q, i, s, o)
      ORDER BY o`.execute(tx);
  }
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

/**
 * History retention: deletes up to `batch` messages older than `beforeMs`; returns how many. `= ANY(ARRAY(...))` makes the
 * planner run the batch's index scan once and delete by primary key (`IN (subquery)` may be planned as a
 * join that scans the whole table for every batch).
 */
export async function purgeBefore(db: Executor, beforeMs: number, batch: number): Promise<number> {
  const r = await sql<{ n: number }>`
    WITH gone AS (DELETE FROM im_messages WHERE id = ANY(ARRAY(SELECT id FROM im_messages WHERE created_ms < ${beforeMs} LIMIT ${batch})) RETURNING 1)
    SELECT count(*)::int8 AS n FROM gone`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
