import { IM_USER_DOMAIN, type ImMessagePayload } from "@tessera/contracts";
import { sql, type RawBuilder } from "kysely";
import type { Db } from "../../db/tx";
import { imMessagesDelivered } from "../../platform/metrics";
import { encodeMessageBody, encodeMeta } from "../proto/message";
import { DEVICE_DAYS, userQueue } from "../store/inbox";
import { convKey } from "../store/messages";
import type { AckBatcher } from "./acks";
import { LEASE_MS } from "./leases";
import { encodeNotice } from "./notices";

/**
 * The sync queues as the client pulls them (easemob-wire §3f). Entries stay in im_inbox until the
 * client acknowledges them by pulling again with the key it was given (everything below the key), so a
 * device that drops mid-batch gets the same entries again on reconnect, and nothing is lost.
 *
 * Acknowledgements are per device: an entry is removed once every device of the user that logged in
 * within DEVICE_DAYS has acknowledged it, so a device that was offline still gets what another device
 * of the same user already read. A device away longer reads the rest from history (roaming).
 *
 * A user queue (`peer@easemob.com`) also holds the one-to-one conversation with that peer: its messages
 * have no entries, they are read from the conversation after the device's cursor, merged with the
 * queue's entries by id (migration 0089), under the same rules (owedChatMessages).
 */
export { DEVICE_DAYS };

/**
 * Records a device at login: it is one of the user's devices whose acknowledgement entries wait for,
 * and `node` (this process) takes its lease (leases.ts). The newest entry at its first login is the
 * last id the queue's sequence handed out (messages and entries share it, migration 0089): `max(id)`
 * walked the whole id index back over the entries removed since the table was last vacuumed (on a
 * database that never is, every entry ever queued), at every login.
 */
export async function recordDevice(db: Db, username: string, resource: string, now: Date, node: string): Promise<void> {
  const lease = { online_node: node, online_until: new Date(now.getTime() + LEASE_MS) };
  await db
    .insertInto("im_devices")
    .values({
      username,
      resource,
      first_inbox_id: sql<number>`COALESCE(pg_sequence_last_value('im_messages_id_seq'::regclass), 0)`,
      last_seen_at: now,
      ...lease,
    })
    .onConflict((oc) => oc.columns(["username", "resource"]).doUpdateSet({ last_seen_at: now, ...lease }))
    .execute();
}

/**
 * Entries a device is owed: those queued since the device first appeared, and older ones no device has
 * read yet (a user's first login still gets what was sent before it). Used inside queries on im_inbox.
 */
function owedToDevice(username: string, resource: string) {
  return sql<boolean>`(im_inbox.id > (SELECT d.first_inbox_id FROM im_devices d WHERE d.username = ${username} AND d.resource = ${resource})
    OR NOT EXISTS (SELECT 1 FROM im_inbox_acks a2 WHERE a2.inbox_id = im_inbox.id))`;
}

/**
 * The one-to-one messages of conversation `conv` owed to a device, as a query's FROM and WHERE (`m` is
 * the message): those after the device's cursor, except what the device sent itself, and of those the
 * ones sent within DEVICE_DAYS after the device first appeared, or sent by the peer and acknowledged by
 * none of the user's devices (a device away longer reads the rest from history, as with queue entries).
 *
 * Where the scan starts: the device's cursor; without one, where the user's other devices are or where
 * the conversation was when the device first appeared, whichever is earlier (the last message at or
 * below its first id, found walking back from the newest), so a new device does not walk a
 * conversation's whole history.
 */
function owedChatMessages(username: string, resource: string, conv: RawBuilder<unknown>, recentMs: number) {
  return sql`
    (SELECT d.first_inbox_id AS first,
        COALESCE((SELECT max(c.seq) FROM im_sync_cursors c WHERE c.username = ${username} AND c.conv_key = ${conv}), 0) AS anyone,
        (SELECT c.seq FROM im_sync_cursors c WHERE c.username = ${username} AND c.resource = ${resource} AND c.conv_key = ${conv}) AS own
      FROM im_devices d WHERE d.username = ${username} AND d.resource = ${resource}) AS dev
    CROSS JOIN LATERAL (SELECT COALESCE(dev.own, LEAST(dev.anyone, COALESCE(
        (SELECT b.seq FROM im_messages b WHERE b.conv_key = ${conv} AND b.id <= dev.first ORDER BY b.seq DESC LIMIT 1), 0))) AS after) AS start
    JOIN im_messages m ON m.conv_key = ${conv} AND m.seq > start.after
    WHERE m.synced AND (m.from_user <> ${username} OR m.from_resource IS DISTINCT FROM ${resource})
      AND ((m.id > dev.first AND m.created_ms >= ${recentMs}) OR (m.from_user <> ${username} AND m.seq > dev.anyone))`;
}

const recentSince = (nowMs: number) => nowMs - DEVICE_DAYS * 86_400_000;

/** The user whose one-to-one conversation with `username` a user queue name stands for; null for other queues. */
function peerOf(queue: string): string | null {
  const suffix = `@${IM_USER_DOMAIN}`;
  return queue.endsWith(suffix) ? queue.slice(0, -suffix.length) : null;
}

/**
 * Pending entries per queue for a device (entries its own sends left for its other devices excluded):
 * queue entries, and the one-to-one messages owed from each of the user's conversations.
 */
export async function pendingQueues(
  db: Db,
  username: string,
  resource: string,
  nowMs: number,
): Promise<{ queue: string; n: number }[]> {
  const [entries, chats] = await Promise.all([
    sql<{ queue: string; n: string | number; first: string | number }>`
      SELECT queue, count(*) AS n, min(id) AS first FROM im_inbox
      WHERE username = ${username} AND (skip_resource IS NULL OR skip_resource <> ${resource})
        AND NOT EXISTS (SELECT 1 FROM im_inbox_acks a WHERE a.inbox_id = im_inbox.id AND a.resource = ${resource})
        AND (${owedToDevice(username, resource)})
      GROUP BY queue`.execute(db),
    sql<{ peer: string; n: string | number; first: string | number }>`
      SELECT cv.peer, k.n, k.first FROM im_conversations cv
      CROSS JOIN LATERAL (SELECT count(*) AS n, min(m.id) AS first FROM ${owedChatMessages(username, resource, sql`cv.conv_key`, recentSince(nowMs))}) k
      WHERE cv.username = ${username} AND cv.chat_type = 'chat' AND k.n > 0`.execute(db),
  ]);
  const byQueue = new Map<string, { n: number; first: number }>();
  for (const row of [...entries.rows, ...chats.rows.map((c) => ({ ...c, queue: userQueue(c.peer) }))]) {
    const q = byQueue.get(row.queue);
    if (q) {
      q.n += Number(row.n);
      q.first = Math.min(q.first, Number(row.first));
    } else byQueue.set(row.queue, { n: Number(row.n), first: Number(row.first) });
  }
  return [...byQueue].sort((a, b) => a[1].first - b[1].first).map(([queue, q]) => ({ queue, n: q.n }));
}

export interface Batch {
  metas: Uint8Array[];
  /** The key the client pulls with next (acknowledging this batch); null when nothing was delivered. */
  nextKey: number | null;
}

/**
 * One queue as one session sees it. Entries reach the session by pull replies and by pushes (a new
 * message's entries, sent as an unsolicited pull reply the client then acknowledges by pulling); this
 * keeps what both need to hand out each entry once and in order.
 */
export class QueueState {
  /** Entries delivered to this session and not yet acknowledged: id → the nextKey of the frame that carried it. */
  readonly sent = new Map<number, number>();
  /** Of those, the one-to-one messages delivered from their conversation: id → seq (what acknowledging them records). */
  readonly seqs = new Map<number, number>();
  /** The last nextKey handed out. Keys only grow: the client drops a queue whose key repeats. */
  lastKey = 0;
  /**
   * Every entry of the queue committed so far has been delivered to this session or is among `pending`:
   * set by a pull whose select found everything (no wake during it), cleared by every wake (a notice of
   * entries this session did not get by push). Only while it holds may entries be pushed, and may a pull
   * that only acknowledges skip its select.
   */
  clean = false;
  /** A pull of this queue is being answered: pushes wait for it (its reply must not overtake them). */
  pulling = false;
  /** A wake arrived while a pull ran: its select may have missed the entry. */
  woke = false;
  /** Entries offered for push, sent when no pull runs (ids already sent by a pull are skipped). */
  pending: { id: number; meta: Uint8Array; seq?: number | undefined }[] = [];

  /** The key of a frame carrying entries up to `maxId`: above every id and every earlier key. */
  nextKeyFor(maxId: number): number {
    this.lastKey = Math.max(this.lastKey + 1, maxId + 1);
    return this.lastKey;
  }

  /** Ids the client acknowledged by pulling with `key`: those of the frames whose nextKey it has seen. */
  acknowledgedBy(key: number): number[] {
    const out: number[] = [];
    for (const [id, frameKey] of this.sent) if (frameKey <= key) out.push(id);
    return out;
  }
}

/**
 * Pulls a queue for one session. A pull with key K acknowledges the entries of the frames whose nextKey
 * is at most K, and a pull never hands the same session an entry twice. Acknowledging by the ids actually
 * delivered (not "everything below K") matters: an entry whose transaction commits late with a lower id
 * is delivered later, not lost. A new session (reconnect) starts with nothing sent, so whatever was not
 * acknowledged comes again.
 *
 * A pull with a key on a clean queue (see QueueState.clean) only acknowledges: nothing can be waiting
 * that the session was not told about, so the select would come back empty.
 */
export async function pull(
  db: Db,
  acks: AckBatcher,
  appKey: string,
  who: { username: string; resource: string },
  queue: string,
  key: bigint | null,
  limit: number,
  st: QueueState,
  nowMs: number,
): Promise<Batch> {
  const peer = peerOf(queue);
  const conv = peer === null ? null : convKey("chat", who.username, peer);
  if (key !== null && key > 0n && st.sent.size > 0) {
    const acked = st.acknowledgedBy(Number(key));
    if (acked.length > 0) {
      // Queue entries are acknowledged one by one; messages from the conversation by the highest seq.
      const entries: number[] = [];
      let upTo = 0;
      for (const id of acked) {
        const seq = st.seqs.get(id);
        if (seq === undefined) entries.push(id);
        else upTo = Math.max(upTo, seq);
      }
      await acks.acknowledge(who, queue, entries, conv !== null && upTo > 0 ? { conv, seq: upTo } : null);
      for (const id of acked) {
        st.sent.delete(id);
        st.seqs.delete(id);
      }
    }
  }
  if (key !== null && st.clean) return { metas: [], nextKey: null };
  const sent = st.sent;
  const cap = limit + sent.size;
  // The entries with their messages in one query (only the columns a meta needs: the JSON form only
  // for messages stored without the client's protobuf bytes).
  const rows = await db
    .selectFrom("im_inbox")
    .leftJoin("im_messages as m", "m.id", "im_inbox.message_id")
    .select([
      "im_inbox.id",
      "im_inbox.message_id",
      "im_inbox.notice",
      "m.from_user",
      "m.from_resource",
      "m.to_target",
      "m.chat_type",
      "m.created_ms",
      "m.recalled_at",
      "m.body_pb",
      sql<ImMessagePayload | null>`CASE WHEN m.body_pb IS NULL THEN m.payload END`.as("payload"),
    ])
    .where("im_inbox.username", "=", who.username)
    .where("im_inbox.queue", "=", queue)
    // What this device sent itself stays for the user's other devices.
    .where((eb) => eb.or([eb("im_inbox.skip_resource", "is", null), eb("im_inbox.skip_resource", "<>", who.resource)]))
    // What this device already acknowledged waits only for the user's other devices.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("im_inbox_acks as a")
            .select("a.inbox_id")
            .whereRef("a.inbox_id", "=", "im_inbox.id")
            .where("a.resource", "=", who.resource),
        ),
      ),
    )
    .where(owedToDevice(who.username, who.resource))
    .orderBy("im_inbox.id")
    .limit(cap)
    .execute();
  // A user queue also holds the conversation's messages: merged with the entries by id.
  const chats =
    conv === null
      ? []
      : (
          await sql<(typeof rows)[number] & { seq: number }>`
    SELECT m.id, m.id AS message_id, NULL::jsonb AS notice, m.from_user, m.from_resource, m.to_target, m.chat_type, m.created_ms, m.recalled_at, m.body_pb,
      CASE WHEN m.body_pb IS NULL THEN m.payload END AS payload, m.seq
    FROM ${owedChatMessages(who.username, who.resource, sql`${conv}`, recentSince(nowMs))}
    ORDER BY m.seq LIMIT ${cap}`.execute(db)
        ).rows;
  const chatSeqs = new Map(chats.map((c) => [Number(c.id), Number(c.seq)]));
  const all = chats.length === 0 ? rows : [...rows, ...chats].sort((a, b) => Number(a.id) - Number(b.id));
  const entries = all.filter((e) => !sent.has(Number(e.id))).slice(0, limit);
  // Everything committed before the select is delivered now, unless the batch is full or a wake came
  // in meanwhile (its entry may have committed after the select's snapshot).
  st.clean = rows.length < cap && chats.length < cap && entries.length < limit && !st.woke;
  const last = entries.at(-1);
  if (!last) return { metas: [], nextKey: null };
  const frameKey = st.nextKeyFor(Number(last.id));
  const metas: Uint8Array[] = [];
  for (const e of entries) {
    sent.set(Number(e.id), frameKey);
    const seq = chatSeqs.get(Number(e.id));
    if (seq !== undefined) st.seqs.set(Number(e.id), seq);
    if (e.message_id !== null) {
      // A message recalled before this device got it is not delivered (its RECALL follows in the queue).
      if (
        e.from_user === null ||
        e.to_target === null ||
        e.chat_type === null ||
        e.created_ms === null ||
        e.recalled_at
      ) {
        continue;
      }
      const body = e.body_pb ? new Uint8Array(e.body_pb) : e.payload ? encodeMessageBody(appKey, e.payload) : null;
      if (!body) continue;
      metas.push(
        encodeMeta(appKey, {
          id: Number(e.message_id),
          from: e.from_user,
          fromResource: e.from_resource,
          to: e.to_target,
          chatType: e.chat_type,
          timestamp: Number(e.created_ms),
          body,
        }),
      );
    } else if (e.notice) {
      const meta = encodeNotice(appKey, e.notice, Number(e.id));
      if (meta) metas.push(meta);
    }
  }
  imMessagesDelivered.inc(metas.length);
  return { metas, nextKey: frameKey };
}
