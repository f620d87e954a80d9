import { IM_MUC_DOMAIN, IM_USER_DOMAIN } from "@tessera/contracts";
import { sql } from "kysely";
import type { Executor } from "../../db/tx";

/** Sync-queue names, as the protocol's JIDs. */
export const userQueue = (username: string) => `${username}@${IM_USER_DOMAIN}`;
export const mucQueue = (mucId: string | number) => `${mucId}@${IM_MUC_DOMAIN}`;

/**
 * The per-recipient sync queue. Entries are appended in the transaction of the change they announce and
 * read back in id order per (user, queue); the gateway removes them once a device acknowledges them.
 */
/** A device not seen for this many days no longer holds queue entries back (it reads history instead). */
export const DEVICE_DAYS = 7;

/**
 * Of these senders, those with a device other than the sending one among `devices` (the senders' devices
 * seen within DEVICE_DAYS): only they need a copy of their own message in their sync queue.
 */
export function sendersWithOtherDevices(
  senders: readonly { username: string; resource: string | null }[],
  devices: readonly { username: string; resource: string }[],
): Set<string> {
  // A user's devices by name first: a batch has a hundred senders and as many devices.
  const byUser = new Map<string, string[]>();
  for (const d of devices) {
    const list = byUser.get(d.username);
    if (list) list.push(d.resource);
    else byUser.set(d.username, [d.resource]);
  }
  const out = new Set<string>();
  for (const s of senders) if (byUser.get(s.username)?.some((r) => r !== s.resource)) out.add(s.username);
  return out;
}

export async function enqueueNotices(
  db: Executor,
  rows: readonly {
    username: string;
    queue: string;
    notice: Record<string, unknown>;
    skipResource?: string | undefined;
  }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("im_inbox")
    .values(
      rows.map((r) => ({
        username: r.username,
        queue: r.queue,
        notice: JSON.stringify(r.notice),
        skip_resource: r.skipResource ?? null,
        created_at: now,
      })),
    )
    .execute();
}

export interface InboxEntry {
  id: number;
  queue: string;
  message_id: number | null;
  notice: Record<string, unknown> | null;
  skip_resource: string | null;
}

/** Queues with pending entries for a user, and how many each holds. */
export async function pendingQueues(db: Executor, username: string): Promise<{ queue: string; n: number }[]> {
  const rows = await db
    .selectFrom("im_inbox")
    .select(["queue", (eb) => eb.fn.countAll<number>().as("n")])
    .where("username", "=", username)
    .groupBy("queue")
    .execute();
  return rows.map((r) => ({ queue: r.queue, n: Number(r.n) }));
}

/** The entries of one queue after `afterId`, oldest first. */
export async function readQueue(
  db: Executor,
  username: string,
  queue: string,
  afterId: number,
  limit: number,
): Promise<InboxEntry[]> {
  return db
    .selectFrom("im_inbox")
    .select(["id", "queue", "message_id", "notice", "skip_resource"])
    .where("username", "=", username)
    .where("queue", "=", queue)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Removes entries queued before `before` that a device has read (or that copy a user's own send to its
 * other devices): a device that has not come back within DEVICE_DAYS reads them from history instead, so
 * they do not pile up forever. Entries no device has read yet stay until one does. The devices' marks on
 * the removed entries go with them (the queue has no foreign keys: see migration 0083), and so do marks
 * left on entries removed meanwhile (an acknowledgement racing the removal of its entry).
 */
export async function purgeReadEntries(db: Executor, before: Date): Promise<void> {
  await sql`
    WITH gone AS (
      DELETE FROM im_inbox i
      WHERE i.created_at < ${before} AND (i.skip_resource IS NOT NULL OR EXISTS (SELECT 1 FROM im_inbox_acks a WHERE a.inbox_id = i.id))
      RETURNING i.id)
    DELETE FROM im_inbox_acks a
    WHERE a.inbox_id IN (SELECT id FROM gone) OR NOT EXISTS (SELECT 1 FROM im_inbox i WHERE i.id = a.inbox_id)`.execute(
    db,
  );
}
