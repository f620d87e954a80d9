import type { Db } from "../../db/tx";
import * as devices from "../store/devices";

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
  return devices.otherLiveDevices(db, username, resource, now);
}

/**
 * Gives leases back, except those another process has taken since (a newer login elsewhere). Returns
 * the devices whose lease this process held.
 */
export async function dropLeases(
  db: Db,
  node: string,
  held: readonly { username: string; resource: string }[],
): Promise<{ username: string; resource: string }[]> {
  if (held.length === 0) return [];
  return devices.dropLeases(db, node, held);
}

/** Renews every lease this process holds. */
export async function renewLeases(db: Db, node: string, now: Date): Promise<void> {
  await devices.renewLeases(db, node, new Date(now.getTime() + LEASE_MS), now);
}

/** At shutdown: every lease this process held (its node id is random, so no later process reuses it). */
export async function dropAllLeases(db: Db, node: string): Promise<void> {
  await devices.dropAllLeases(db, node);
}
