import type { ImMessagePayload } from "@tessera/contracts";
import { sql, type RawBuilder } from "kysely";
import type { Db } from "../../db/tx";

/**
 * What the gateway's sync reads of a device's queues (gateway/sync.ts says how they are pulled and
 * acknowledged): queue entries owed to the device, and the one-to-one messages owed from its user's
 * conversations (migration 0089).
 */

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

/** Pending queue entries per queue for a device (entries its own sends left for its other devices excluded). */
export async function pendingEntryCounts(
  db: Db,
  username: string,
  resource: string,
): Promise<{ queue: string; n: string | number; first: string | number }[]> {
  const r = await sql<{ queue: string; n: string | number; first: string | number }>`
      SELECT queue, count(*) AS n, min(id) AS first FROM im_inbox
      WHERE username = ${username} AND (skip_resource IS NULL OR skip_resource <> ${resource})
        AND NOT EXISTS (SELECT 1 FROM im_inbox_acks a WHERE a.inbox_id = im_inbox.id AND a.resource = ${resource})
        AND (${owedToDevice(username, resource)})
      GROUP BY queue`.execute(db);
  return r.rows;
}

/** The one-to-one messages owed to a device, counted per conversation (by peer) where any are. */
export async function owedChatCounts(
  db: Db,
  username: string,
  resource: string,
  recentMs: number,
): Promise<{ peer: string; n: string | number; first: string | number }[]> {
  const r = await sql<{ peer: string; n: string | number; first: string | number }>`
      SELECT cv.peer, k.n, k.first FROM im_conversations cv
      CROSS JOIN LATERAL (SELECT count(*) AS n, min(m.id) AS first FROM ${owedChatMessages(username, resource, sql`cv.conv_key`, recentMs)}) k
      WHERE cv.username = ${username} AND cv.chat_type = 'chat' AND k.n > 0`.execute(db);
  return r.rows;
}

/**
 * Up to `cap` entries of one queue owed to a device, in id order, with their messages (only the columns
 * a meta needs: the JSON form only for messages stored without the client's protobuf bytes).
 */
export async function queuedEntries(db: Db, who: { username: string; resource: string }, queue: string, cap: number) {
  return (
    db
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
      .where((eb) =>
        eb.or([eb("im_inbox.skip_resource", "is", null), eb("im_inbox.skip_resource", "<>", who.resource)]),
      )
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
      .execute()
  );
}

export type SyncRow = Awaited<ReturnType<typeof queuedEntries>>[number];

/** Up to `cap` of the one-to-one messages of conversation `conv` owed to a device, in seq order, shaped as entries. */
export async function owedChatMessageRows(
  db: Db,
  who: { username: string; resource: string },
  conv: string,
  recentMs: number,
  cap: number,
): Promise<(SyncRow & { seq: number })[]> {
  const r = await sql<SyncRow & { seq: number }>`
    SELECT m.id, m.id AS message_id, NULL::jsonb AS notice, m.from_user, m.from_resource, m.to_target, m.chat_type, m.created_ms, m.recalled_at, m.body_pb,
      CASE WHEN m.body_pb IS NULL THEN m.payload END AS payload, m.seq
    FROM ${owedChatMessages(who.username, who.resource, sql`${conv}`, recentMs)}
    ORDER BY m.seq LIMIT ${cap}`.execute(db);
  return r.rows;
}
