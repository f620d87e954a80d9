import { IM_USER_DOMAIN } from "@tessera/contracts";
import type { Db } from "../../db/tx";
import { imMessagesDelivered } from "../../platform/metrics";
import { encodeMessageBody, encodeMeta } from "../proto/message";
import { DEVICE_DAYS, userQueue } from "../store/inbox";
import * as devices from "../store/devices";
import { convKey } from "../store/messages";
import * as syncStore from "../store/sync";
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
 * queue's entries by id (migration 0089), under the same rules (store/sync.ts).
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
  await devices.recordDevice(db, username, resource, now, {
    online_node: node,
    online_until: new Date(now.getTime() + LEASE_MS),
  });
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
    syncStore.pendingEntryCounts(db, username, resource),
    syncStore.owedChatCounts(db, username, resource, recentSince(nowMs)),
  ]);
  const byQueue = new Map<string, { n: number; first: number }>();
  for (const row of [...entries, ...chats.map((c) => ({ ...c, queue: userQueue(c.peer) }))]) {
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
  const rows = await syncStore.queuedEntries(db, who, queue, cap);
  // A user queue also holds the conversation's messages: merged with the entries by id.
  const chats = conv === null ? [] : await syncStore.owedChatMessageRows(db, who, conv, recentSince(nowMs), cap);
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
