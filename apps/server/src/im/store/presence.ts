import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";

/** Presence per device (resource) and the subscriptions that expire. */

export async function publish(
  tx: Tx,
  username: string,
  resource: string,
  ext: string,
  status: number,
  now: Date,
): Promise<void> {
  await tx
    .insertInto("im_presence")
    .values({ username, resource, ext, status, updated_at: now })
    .onConflict((oc) => oc.columns(["username", "resource"]).doUpdateSet({ ext, status, updated_at: now }))
    .execute();
}

/**
 * Devices came online (1) or went offline (0): their status changes, their published descriptions stay.
 * Returns each device's description and the users subscribed to its user now, in one round trip.
 * One entry per device (the caller keeps the latest).
 */
export async function setDeviceStatuses(
  db: Executor,
  devices: readonly { username: string; resource: string; status: number }[],
  now: Date,
): Promise<{ username: string; resource: string; status: number; ext: string; subscribers: string[] }[]> {
  if (devices.length === 0) return [];
  const r = await sql<{
    username: string;
    resource: string;
    status: number;
    ext: string;
    subscribers: string[] | null;
  }>`
    WITH up AS (
      INSERT INTO im_presence (username, resource, ext, status, updated_at)
      SELECT u, r, '', s, ${now} FROM unnest(${devices.map((d) => d.username)}::text[], ${devices.map((d) => d.resource)}::text[], ${devices.map((d) => d.status)}::int[]) AS x(u, r, s)
      ON CONFLICT (username, resource) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
      RETURNING username, resource, status, ext)
    SELECT up.username, up.resource, up.status, up.ext,
      (SELECT array_agg(s.subscriber) FROM im_presence_subs s WHERE s.target = up.username AND s.expires_at > ${now}) AS subscribers
    FROM up`.execute(db);
  return r.rows.map((row) => ({ ...row, status: Number(row.status), subscribers: row.subscribers ?? [] }));
}

export async function presenceOf(
  db: Executor,
  usernames: readonly string[],
): Promise<{ username: string; resource: string; ext: string; status: number; updated_at: Date }[]> {
  if (usernames.length === 0) return [];
  return db
    .selectFrom("im_presence")
    .select(["username", "resource", "ext", "status", "updated_at"])
    .where("username", "in", [...new Set(usernames)])
    .orderBy("updated_at")
    .execute();
}

export async function subscribe(
  tx: Tx,
  subscriber: string,
  targets: readonly string[],
  expiresAt: Date,
  now: Date,
): Promise<void> {
  if (targets.length === 0) return;
  await tx
    .insertInto("im_presence_subs")
    .values(targets.map((target) => ({ subscriber, target, expires_at: expiresAt, created_at: now })))
    .onConflict((oc) => oc.columns(["subscriber", "target"]).doUpdateSet({ expires_at: expiresAt }))
    .execute();
}

export async function unsubscribe(tx: Tx, subscriber: string, targets: readonly string[]): Promise<void> {
  if (targets.length === 0) return;
  await tx
    .deleteFrom("im_presence_subs")
    .where("subscriber", "=", subscriber)
    .where("target", "in", [...targets])
    .execute();
}

export async function liveSubscriptions(
  db: Executor,
  subscriber: string,
  now: Date,
  offset: number,
  limit: number,
): Promise<{ target: string; expires_at: Date }[]> {
  return db
    .selectFrom("im_presence_subs")
    .select(["target", "expires_at"])
    .where("subscriber", "=", subscriber)
    .where("expires_at", ">", now)
    .orderBy("created_at")
    .orderBy("target")
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function liveSubscriptionCount(db: Executor, subscriber: string, now: Date): Promise<number> {
  const r = await db
    .selectFrom("im_presence_subs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("subscriber", "=", subscriber)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Who is subscribed to `target` now (they hear its changes). */
export async function subscribersOf(db: Executor, target: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("im_presence_subs")
    .select("subscriber")
    .where("target", "=", target)
    .where("expires_at", ">", now)
    .execute();
  return rows.map((r) => r.subscriber);
}
