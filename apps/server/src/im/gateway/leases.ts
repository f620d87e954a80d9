import { sql } from "kysely";
import type { Db } from "../../db/tx";

/**
 * Which devices are connected, across every server process sharing the database. A process takes a
 * lease on each device it connects (online_node, online_until), renews all of its leases every
 * RENEW_MS, and gives a lease back when the socket closes. A process that dies stops renewing, so its
 * leases lapse after LEASE_MS by themselves: no device stays "connected" forever.
 */
export const LEASE_MS = 180_000;
export const RENEW_MS = 60_000;

/** Devices of `username` connected anywhere now, other than `resource`. */
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

/**
 * Gives leases back, except those another process has taken since (a newer login elsewhere). Returns
 * the devices whose lease this process held.
 */
export async function dropLeases(
  db: Db,
  node: string,
  devices: readonly { username: string; resource: string }[],
): Promise<{ username: string; resource: string }[]> {
  if (devices.length === 0) return [];
  const r = await sql<{ username: string; resource: string }>`
    UPDATE im_devices d SET online_node = NULL, online_until = NULL
    FROM unnest(${devices.map((d) => d.username)}::text[], ${devices.map((d) => d.resource)}::text[]) AS x(u, r)
    WHERE d.username = x.u AND d.resource = x.r AND d.online_node = ${node}
    RETURNING d.username, d.resource`.execute(db);
  return r.rows;
}

/** Renews every lease this process holds. */
export async function renewLeases(db: Db, node: string, now: Date): Promise<void> {
  await db
    .updateTable("im_devices")
    .set({ online_until: new Date(now.getTime() + LEASE_MS), last_seen_at: now })
    .where("online_node", "=", node)
    .execute();
}

/** At shutdown: every lease this process held (its node id is random, so no later process reuses it). */
export async function dropAllLeases(db: Db, node: string): Promise<void> {
  await sql`UPDATE im_devices SET online_node = NULL, online_until = NULL WHERE online_node = ${node}`.execute(db);
}
