import { sql } from "kysely";
import type { Executor } from "../../db/tx";
import { DEVICE_DAYS } from "./inbox";

export interface SendLookupRows {
  /** The senders' devices seen within DEVICE_DAYS. */
  devices: { username: string; resource: string }[];
  /** One-to-one peers that exist. */
  users: Set<string>;
  /** `${owner}\0${blocked}` for peers that blocked a sender. */
  blocks: Set<string>;
}

/**
 * What the checks of a list of sends read, in one round trip (a send waits for each): the senders'
 * recent devices, which one-to-one peers exist, and which of those peers blocked their senders.
 */
export async function readSendLookups(db: Executor, q: { senders: string[]; peers: string[]; chatSenders: string[]; now: Date }): Promise<SendLookupRows> {
  const since = new Date(q.now.getTime() - DEVICE_DAYS * 86_400_000);
  const r = await sql<{ devices: [string, string][]; users: string[]; blocks: [string, string][] }>`
    SELECT
      (SELECT coalesce(json_agg(json_build_array(username, resource)), '[]'::json) FROM im_devices
        WHERE username = ANY(${q.senders}::text[]) AND last_seen_at >= ${since}) AS devices,
      (SELECT coalesce(json_agg(username), '[]'::json) FROM im_users WHERE username = ANY(${q.peers}::text[])) AS users,
      (SELECT coalesce(json_agg(json_build_array(owner, blocked)), '[]'::json) FROM im_user_blocks
        WHERE owner = ANY(${q.peers}::text[]) AND blocked = ANY(${q.chatSenders}::text[])) AS blocks`.execute(db);
  const row = r.rows[0];
  return {
    devices: (row?.devices ?? []).map(([username, resource]) => ({ username, resource })),
    users: new Set(row?.users ?? []),
    blocks: new Set((row?.blocks ?? []).map(([owner, blocked]) => `${owner}\0${blocked}`)),
  };
}
