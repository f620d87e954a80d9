import { imMessagePayload, type ImMessagePayload } from "@tessera/contracts";
import { intArray, textArray } from "../../db/arrays";
import { sql, type Selectable } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import { decodeMessageBody } from "../proto/decode";
import { payloadOf } from "../proto/payload";
import type { ChatType, ImMessagesTable } from "../tables";
import { mucQueue, userQueue } from "./inbox";

/**
 * The message store, shared by the REST API and the realtime gateway. A message gets the next seq of
 * its conversation in the inserting transaction; the same transaction updates each participant's
 * conversation row (last message, unread) and appends the message to each recipient's sync queue. A
 * one-to-one message needs no queue entry: devices get it from the conversation itself (`synced`,
 * migration 0089, gateway/sync.ts).
 */

type StoredRow = Selectable<ImMessagesTable>;
/** A message as the store hands it out: with its JSON form, whichever form it was stored in. */
export type MessageRow = Omit<StoredRow, "payload"> & { payload: ImMessagePayload };

/**
 * A stored message with its JSON form. The gateway stores a message as the client's protobuf bytes only
 * (migration 0088); its JSON form is rebuilt as the gateway built it when the message arrived.
 */
export function withPayload(row: StoredRow): MessageRow {
  if (row.payload) return { ...row, payload: row.payload };
  if (!row.body_pb) throw new Error(`message ${row.id} is stored without a body`);
  const body = decodeMessageBody(new Uint8Array(row.body_pb));
  return { ...row, payload: imMessagePayload.parse(payloadOf(body, row.chat_type, row.from_user, row.to_target)) };
}

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
  const row = await db
    .selectFrom("im_messages")
    .selectAll()
    .where("from_user", "=", from)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  return row && withPayload(row);
}

/** What appending stored: the message's id, its seq in the conversation and its server time. */
export interface Appended {
  id: number;
  seq: number;
  createdMs: number;
  /** A resend of a message already stored (same sender and client id): nothing new was written. */
  duplicate: boolean;
  /** The sync-queue entries written for it (recipients and the sender's copy), for the gateway's push. */
  inbox: readonly QueuedEntry[];
}

/**
 * One sync-queue entry of a new message: its id, whose queue, and the device that needs no copy. A
 * one-to-one message is its own entry in each participant's queue: its id is the message's, and `seq`
 * its place in the conversation (what a device's acknowledgement of it records).
 */
export interface QueuedEntry {
  id: number;
  username: string;
  skipResource: string | null;
  seq?: number;
}

/**
 * Whether a message is delivered from its conversation instead of by queue entries (migration 0089): a
 * one-to-one message someone's devices get (not an online-only one; a message to oneself goes to the
 * sender's other devices).
 */
function syncedFromConversation(m: Pick<NewMessage, "chatType" | "threadId">, fan: Fanout): boolean {
  return m.chatType === "chat" && !m.threadId && (fan.inboxFor.length > 0 || fan.senderCopy);
}

/**
 * Appends messages in one go: a few statements for the whole list instead of a few per message (group
 * commit: the gateway stores whatever arrived while the previous transaction ran). Messages keep their
 * list order within a conversation (consecutive seqs). A resend (same sender and client id, stored
 * before or earlier in the list) returns the first message and writes nothing.
 */
export async function appendMessages(
  tx: Executor,
  items: readonly { m: NewMessage; fan: Fanout }[],
  now: Date,
  /** The messages already stored under the items' client ids, when the caller read them already. */
  known?: readonly { id: number; seq: number; createdMs: number; from: string; clientId: string }[],
): Promise<Appended[]> {
  const out: (Appended | undefined)[] = new Array<Appended | undefined>(items.length);
  const withClientId: { from: string; clientId: string }[] = [];
  for (const { m } of items) if (m.clientId) withClientId.push({ from: m.from, clientId: m.clientId });
  const stored = new Map<string, Appended>();
  let found = known;
  if (!found && withClientId.length > 0) {
    const r = await sql<{ id: number; seq: number; created_ms: number; from_user: string; client_id: string }>`
      SELECT id, seq, created_ms, from_user, client_id FROM im_messages
      WHERE (from_user, client_id) IN (SELECT * FROM unnest(${textArray(withClientId.map((c) => c.from))}::text[], ${textArray(withClientId.map((c) => c.clientId))}::text[]))`.execute(
      tx,
    );
    found = r.rows.map((row) => ({
      id: Number(row.id),
      seq: Number(row.seq),
      createdMs: Number(row.created_ms),
      from: row.from_user,
      clientId: row.client_id,
    }));
  }
  for (const f of found ?? []) {
    stored.set(`${f.from}\0${f.clientId}`, {
      id: f.id,
      seq: f.seq,
      createdMs: f.createdMs,
      duplicate: true,
      inbox: [],
    });
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
    const written = await writeMessages(
      tx,
      fresh.map((i) => items[i] as { m: NewMessage; fan: Fanout }),
      now,
    );
    fresh.forEach((i, k) => (out[i] = written[k]));
  }
  for (const [i, first] of copyOf) out[i] = { ...(out[first] as Appended), duplicate: true, inbox: [] };
  return out.map((a) => {
    if (!a) throw new Error("message without outcome");
    return a;
  });
}

/** A participant's conversation row as a batch of messages leaves it. */
interface ConvTouch {
  u: string;
  key: string;
  peer: string;
  type: "chat" | "groupchat";
  o: number;
  unread: number;
}

/**
 * Writes new messages in one statement: each conversation's head moves by its number of new messages
 * (consecutive seqs in list order, the head's time as the messages' time), the messages are inserted,
 * and so are each participant's conversation row (last message, unread) and each recipient's sync-queue
 * entry (PostgreSQL runs every data-modifying part of a WITH to completion, read or not). One statement instead of four: with the reads of a send, the whole append is a few round trips,
 * and a round trip is what a message waits for.
 */
async function writeMessages(
  tx: Executor,
  items: readonly { m: NewMessage; fan: Fanout }[],
  now: Date,
): Promise<Appended[]> {
  const keys = items.map(({ m }) => convKey(m.chatType, m.from, m.to, m.threadId));
  // Per conversation, how many of the messages are its; per message, its place among them (from 1). The
  // head moves by the count and the k-th message gets the head's old seq + k, numbered here instead of by
  // an aggregate, a sort and a window function in the statement.
  const perConv = new Map<string, number>();
  const places = keys.map((k) => {
    const n = (perConv.get(k) ?? 0) + 1;
    perConv.set(k, n);
    return n;
  });
  const counts = keys.map((k) => perConv.get(k) ?? 0);
  // Per (user, conversation): the newest message (its position in `items`, from 1) and how many count
  // unread. Keyed by conversation, then user: a joined key would be a new string to hash per message.
  const convs = new Map<string, Map<string, ConvTouch>>();
  const list: ConvTouch[] = [];
  const touch = (u: string, key: string, peer: string, type: "chat" | "groupchat", o: number, unread: number) => {
    let users = convs.get(key);
    if (!users) convs.set(key, (users = new Map<string, ConvTouch>()));
    const c = users.get(u);
    if (c) {
      c.o = o;
      c.unread += unread;
    } else {
      const added = { u, key, peer, type, o, unread };
      users.set(u, added);
      list.push(added);
    }
  };
  const inbox: { u: string; q: string; o: number; skip: string | null }[] = [];
  const synced = items.map(({ m, fan }) => syncedFromConversation(m, fan));
  items.forEach(({ m, fan }, i) => {
    const o = i + 1;
    const key = keys[i] as string;
    if (m.chatType !== "chatroom" && !m.threadId) {
      const type = m.chatType === "chat" ? "chat" : "groupchat";
      if (fan.senderCopy) touch(m.from, key, m.to, type, o, 0);
      for (const u of fan.unreadFor) touch(u, key, m.chatType === "chat" ? m.from : m.to, type, o, 1);
    }
    if (synced[i]) return;
    const queue = m.chatType === "chat" ? null : mucQueue(m.to);
    for (const u of fan.inboxFor) inbox.push({ u, q: queue ?? userQueue(m.from), o, skip: null });
    if (fan.senderCopy && fan.senderQueueCopy !== false) {
      inbox.push({ u: m.from, q: queue ?? userQueue(m.to), o, skip: m.fromResource ?? null });
    }
  });
  // A message with the client's protobuf bytes is stored in that form only (migration 0088). All the
  // batch's bytes travel as one bytea parameter, each message's place in it (from 1) and length beside
  // it: as base64 text in an array they were encoded, scanned for escapes and decoded again per message.
  const bodies: Uint8Array[] = [];
  const bodyAt: (number | null)[] = [];
  const bodyLength: (number | null)[] = [];
  let bodyEnd = 0;
  for (const { m } of items) {
    if (m.bodyPb) {
      bodies.push(m.bodyPb);
      bodyAt.push(bodyEnd + 1);
      bodyLength.push(m.bodyPb.length);
      bodyEnd += m.bodyPb.length;
    } else {
      bodyAt.push(null);
      bodyLength.push(null);
    }
  }
  // int8[] arrives as text (only int8 itself is parsed to numbers).
  const r = await sql<{
    o: number | null;
    id: number;
    seq: number | null;
    created_ms: number | null;
    entry: number | null;
    username: string | null;
    skip: string | null;
  }>`
    WITH m AS (
      SELECT * FROM unnest(
        ${textArray(keys)}::text[], ${textArray(items.map(({ m }) => m.chatType))}::text[], ${textArray(items.map(({ m }) => m.from))}::text[],
        ${textArray(items.map(({ m }) => m.fromResource ?? null))}::text[], ${textArray(items.map(({ m }) => m.to))}::text[], ${intArray(items.map(({ m }) => m.threadId ?? null))}::bigint[],
        ${textArray(items.map(({ m }) => m.payload.bodies[0]?.type ?? "txt"))}::text[], ${textArray(items.map(({ m }) => (m.bodyPb ? null : JSON.stringify(m.payload))))}::text[],
        ${intArray(bodyAt)}::int[], ${intArray(bodyLength)}::int[], ${textArray(items.map(({ m }) => m.clientId ?? null))}::text[],
        ${intArray(places)}::int[], ${intArray(counts)}::int[], ${textArray(synced.map((x) => (x ? "t" : "f")))}::boolean[])
        WITH ORDINALITY AS m(conv_key, chat_type, from_user, from_resource, to_target, thread_id, msg_type, payload, body_at, body_length, client_id, k, n, synced, o)),
    heads AS (
      INSERT INTO im_conv_heads (conv_key, last_seq, last_ms)
      SELECT c.conv_key, c.n, ${now.getTime()}::bigint FROM unnest(${textArray([...perConv.keys()])}::text[], ${intArray([...perConv.values()])}::int[]) AS c(conv_key, n)
      ON CONFLICT (conv_key) DO UPDATE
        SET last_seq = im_conv_heads.last_seq + EXCLUDED.last_seq, last_ms = GREATEST(im_conv_heads.last_ms, EXCLUDED.last_ms)
      RETURNING conv_key, last_seq, last_ms),
    numbered AS MATERIALIZED (
      SELECT m.*, h.last_seq - m.n + m.k AS seq, h.last_ms AS created_ms
      FROM m JOIN heads h USING (conv_key)),
    ins AS (
      INSERT INTO im_messages (conv_key, seq, chat_type, from_user, from_resource, to_target, thread_id, msg_type, created_ms, payload, body_pb, client_id, synced)
      SELECT conv_key, seq, chat_type, from_user, from_resource, to_target, thread_id, msg_type, created_ms, payload::json,
        CASE WHEN body_at IS NOT NULL THEN substring(${Buffer.concat(bodies)}::bytea FROM body_at FOR body_length) END, client_id, synced
      FROM numbered ORDER BY o
      RETURNING id, conv_key, seq),
    stored AS MATERIALIZED (SELECT n.o, i.id, i.seq, n.created_ms FROM ins i JOIN numbered n USING (conv_key, seq)),
    convs AS (
      INSERT INTO im_conversations (username, conv_key, peer, chat_type, last_message_id, last_ms, unread, visible)
      SELECT x.u, x.k, x.p, x.t, s.id, s.created_ms, x.n, true
      FROM unnest(${textArray(list.map((c) => c.u))}::text[], ${textArray(list.map((c) => c.key))}::text[], ${textArray(list.map((c) => c.peer))}::text[], ${textArray(list.map((c) => c.type))}::text[],
                  ${intArray(list.map((c) => c.o))}::bigint[], ${intArray(list.map((c) => c.unread))}::int[]) AS x(u, k, p, t, o, n)
      JOIN stored s ON s.o = x.o
      ON CONFLICT (username, conv_key) DO UPDATE
        SET last_message_id = EXCLUDED.last_message_id, last_ms = EXCLUDED.last_ms,
            unread = im_conversations.unread + EXCLUDED.unread, visible = true
      RETURNING 1),
    queued AS (
      INSERT INTO im_inbox (username, queue, message_id, skip_resource, created_at)
      SELECT y.u, y.q, s.id, y.s, ${now}::timestamptz
      FROM unnest(${textArray(inbox.map((e) => e.u))}::text[], ${textArray(inbox.map((e) => e.q))}::text[], ${intArray(inbox.map((e) => e.o))}::bigint[], ${textArray(inbox.map((e) => e.skip))}::text[])
        WITH ORDINALITY AS y(u, q, o, s, ord)
      JOIN stored s ON s.o = y.o
      ORDER BY y.ord
      RETURNING id, message_id, username, skip_resource)
    -- One row per message (entry NULL), then one per queue entry: grouping the entries by message in
    -- the statement was planned as a nested loop that aggregated every entry once per message.
    SELECT s.o, s.id, s.seq, s.created_ms, NULL::bigint AS entry, NULL::text AS username, NULL::text AS skip FROM stored s
    UNION ALL
    SELECT NULL, q.message_id, NULL, NULL, q.id, q.username, q.skip_resource FROM queued q`.execute(tx);
  const stored = new Map<number, { o: number; appended: Appended; inbox: QueuedEntry[] }>();
  for (const row of r.rows) {
    if (row.entry !== null) continue;
    const inbox: QueuedEntry[] = [];
    stored.set(Number(row.id), {
      o: Number(row.o),
      inbox,
      appended: {
        id: Number(row.id),
        seq: Number(row.seq),
        createdMs: Number(row.created_ms),
        duplicate: false,
        inbox,
      },
    });
  }
  if (stored.size !== items.length) throw new Error(`stored ${stored.size} of ${items.length} messages`);
  const entries = r.rows.filter((row) => row.entry !== null).sort((a, b) => Number(a.entry) - Number(b.entry));
  for (const e of entries) {
    stored.get(Number(e.id))?.inbox.push({ id: Number(e.entry), username: e.username ?? "", skipResource: e.skip });
  }
  // A message delivered from its conversation is its own entry in the recipient's queue and in the
  // sender's (for the sender's other devices).
  for (const { o, appended: a, inbox } of stored.values()) {
    const { m, fan } = items[o - 1] as { m: NewMessage; fan: Fanout };
    if (!synced[o - 1]) continue;
    for (const u of fan.inboxFor) inbox.push({ id: a.id, username: u, skipResource: null, seq: a.seq });
    if (fan.senderCopy) inbox.push({ id: a.id, username: m.from, skipResource: m.fromResource ?? null, seq: a.seq });
  }
  return [...stored.values()].sort((a, b) => a.o - b.o).map((m) => m.appended);
}

export async function findMessage(db: Executor, id: number): Promise<MessageRow | undefined> {
  const row = await db.selectFrom("im_messages").selectAll().where("id", "=", id).executeTakeFirst();
  return row && withPayload(row);
}

export async function findMessages(db: Executor, ids: readonly number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return (
    await db
      .selectFrom("im_messages")
      .selectAll()
      .where("id", "in", [...ids])
      .execute()
  ).map(withPayload);
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
      eb.not(
        eb.exists(
          eb
            .selectFrom("im_message_deletions as d")
            .select("d.message_id")
            .where("d.username", "=", q.username)
            .whereRef("d.message_id", "=", "m.id"),
        ),
      ),
    );
  if (q.afterSeq !== null) query = query.where("m.seq", q.direction === "up" ? "<" : ">", q.afterSeq);
  if (q.from) query = query.where("m.from_user", "=", q.from);
  if (q.types && q.types.length > 0) query = query.where("m.msg_type", "in", [...q.types]);
  if (q.startMs !== undefined) query = query.where("m.created_ms", ">=", q.startMs);
  if (q.endMs !== undefined) query = query.where("m.created_ms", "<=", q.endMs);
  const rows = await query
    .orderBy("m.seq", q.direction === "up" ? "desc" : "asc")
    .limit(q.limit)
    .execute();
  return rows.map(withPayload);
}

/** The newest message of a conversation the user still sees, for its conversation row. */
export async function lastVisible(
  db: Executor,
  key: string,
  username: string,
  clearedSeq: number,
  clearedMs: number,
): Promise<MessageRow | undefined> {
  const rows = await history(db, {
    convKey: key,
    username,
    direction: "up",
    afterSeq: null,
    limit: 1,
    clearedSeq,
    clearedMs,
    minMs: 0,
  });
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
  const r = await tx
    .updateTable("im_messages")
    .set({ recalled_at: now })
    .where("id", "=", id)
    .where("recalled_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function updatePayload(
  tx: Tx,
  id: number,
  payload: ImMessagePayload,
  bodyPb: Uint8Array | null,
): Promise<void> {
  await tx
    .updateTable("im_messages")
    .set({ payload: JSON.stringify(payload), body_pb: bodyPb })
    .where("id", "=", id)
    .execute();
}

/**
 * History retention: deletes up to `batch` messages older than `beforeMs`; returns how many. `= ANY(ARRAY(...))` makes the
 * planner run the batch's index scan once and delete by primary key (`IN (subquery)` may be planned as a
 * join that scans the whole table for every batch). The sync-queue entries of the messages go with them,
 * and so do the devices' marks on those entries (the queue has no foreign keys: see migration 0083).
 */
export async function purgeBefore(db: Executor, beforeMs: number, batch: number): Promise<number> {
  const r = await sql<{ n: number }>`
    WITH gone AS (DELETE FROM im_messages WHERE id = ANY(ARRAY(SELECT id FROM im_messages WHERE created_ms < ${beforeMs} LIMIT ${batch})) RETURNING id),
    entries AS (DELETE FROM im_inbox WHERE message_id IN (SELECT id FROM gone) RETURNING id),
    marks AS (DELETE FROM im_inbox_acks WHERE inbox_id IN (SELECT id FROM entries))
    SELECT count(*)::int8 AS n FROM gone`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
