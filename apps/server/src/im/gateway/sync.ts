import { sql } from "kysely";
import type { Db } from "../../db/tx";
import { encodeMessageBody, encodeMeta } from "../proto/message";
import { ackQueue, readQueue } from "../store/inbox";
import { findMessages } from "../store/messages";
import { encodeNotice } from "./notices";

/**
 * The sync queues as the client pulls them (easemob-wire §3f). Entries stay in im_inbox until the
 * client acknowledges them by pulling again with the key it was given (everything below the key), so a
 * device that drops mid-batch gets the same entries again on reconnect, and nothing is lost.
 */

/** Pending entries per queue for a device (entries its own sends left for its other devices excluded). */
export async function pendingQueues(db: Db, username: string, resource: string): Promise<{ queue: string; n: number }[]> {
  const r = await sql<{ queue: string; n: string | number }>`
    SELECT queue, count(*) AS n FROM im_inbox
    WHERE username = ${username} AND (skip_resource IS NULL OR skip_resource <> ${resource})
    GROUP BY queue ORDER BY min(id)`.execute(db);
  return r.rows.map((row) => ({ queue: row.queue, n: Number(row.n) }));
}

export interface Batch {
  metas: Uint8Array[];
  /** The key the client pulls with next (acknowledging this batch); null when the queue is empty. */
  nextKey: number | null;
}

export async function pull(db: Db, appKey: string, who: { username: string; resource: string }, queue: string, key: bigint | null, limit: number): Promise<Batch> {
  if (key !== null && key > 0n) await ackQueue(db, who.username, queue, Number(key) - 1);
  const entries = await readQueue(db, who.username, queue, 0, limit);
  const last = entries.at(-1);
  if (!last) return { metas: [], nextKey: null };
  const rows = new Map((await findMessages(db, entries.flatMap((e) => (e.message_id === null ? [] : [Number(e.message_id)])))).map((r) => [r.id, r]));
  const metas: Uint8Array[] = [];
  for (const e of entries) {
    if (e.skip_resource === who.resource) continue;
    if (e.message_id !== null) {
      const row = rows.get(Number(e.message_id));
      // A message recalled before this device got it is not delivered (its RECALL follows in the queue).
      if (!row || row.recalled_at) continue;
      const body = row.body_pb ? new Uint8Array(row.body_pb) : encodeMessageBody(appKey, row.payload);
      metas.push(encodeMeta(appKey, { id: row.id, from: row.from_user, fromResource: row.from_resource, to: row.to_target, chatType: row.chat_type, timestamp: row.created_ms, body }));
    } else if (e.notice) {
      const meta = encodeNotice(appKey, e.notice, Number(e.id));
      if (meta) metas.push(meta);
    }
  }
  return { metas, nextKey: Number(last.id) + 1 };
}
