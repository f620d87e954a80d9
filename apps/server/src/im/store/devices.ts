import { sql } from "kysely";
import type { Db } from "../../db/tx";

/**
 * A user's devices (im_devices): recorded at login, and the leases the gateway's processes take on the
 * devices they connect (gateway/leases.ts says how the leases work).
 */

/**
 * Records a device at login with its lease: the newest entry at its first login is the last id the
 * queue's sequence handed out (messages and entries share it, migration 0089; gateway/sync.ts).
 */
export async function recordDevice(
  db: Db,
  username: string,
  resource: string,
  now: Date,
  lease: { online_node: string; online_until: Date },
): Promise<void> {
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

/** Devices of `username` whose lease runs past `now`, other than `resource`. */
export async function otherLiveDevices(db: Db, username: string, resource: string, now: Date): Promise<number> {
  const r = await db
    .selectFrom("im_devices")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("username", "=", username)
    .where("resource", "<>", resource)
    .where("online_until", ">", now)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Clears the leases of these devices that `node` still holds; returns those devices. */
export async function dropLeases(
  db: Db,
  node: string,
  devices: readonly { username: string; resource: string }[],
): Promise<{ username: string; resource: string }[]> {
  const r = await sql<{ username: string; resource: string }>`
    UPDATE im_devices d SET online_node = NULL, online_until = NULL
    FROM unnest(${devices.map((d) => d.username)}::text[], ${devices.map((d) => d.resource)}::text[]) AS x(u, r)
    WHERE d.username = x.u AND d.resource = x.r AND d.online_node = ${node}
    RETURNING d.username, d.resource`.execute(db);
  return r.rows;
}

/** Extends every lease `node` holds to `until`. */
export async function renewLeases(db: Db, node: string, until: Date, now: Date): Promise<void> {
  await db
    .updateTable("im_devices")
    .set({ online_until: until, last_seen_at: now })
    .where("online_node", "=", node)
    .execute();
}

/** Clears every lease `node` holds. */
export async function dropAllLeases(db: Db, node: string): Promise<void> {
  await sql`UPDATE im_devices SET online_node = NULL, online_until = NULL WHERE online_node = ${node}`.execute(db);
}
