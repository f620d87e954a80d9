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
  /** Messages already stored under the sends' (sender, client id): these sends are resends. */
  resends: { id: number; seq: number; createdMs: number; from: string; clientId: string }[];
}

/**
 * What the checks of a list of sends read, in one round trip (a send waits for each): the senders'
 * recent devices, which one-to-one peers exist, which of those peers blocked their senders, and which
 * sends were stored before (a client resending after a lost ack).
 */
export async function readSendLookups(
  db: Executor,
  q: { senders: string[]; peers: string[]; chatSenders: string[]; clientIds: { from: string; clientId: string }[]; now: Date },
): Promise<SendLookupRows> {
  const since = new Date(q.now.getTime() - DEVICE_DAYS * 86_400_000);
  const r = await sql<{ devices: [string, string][]; users: string[]; blocks: [string, string][]; resends: [number, number, number, string, string][] }>`
    SELECT
      (SELECT coalesce(json_agg(json_build_array(username, resource)), '[]'::json) FROM im_devices
        WHERE username = ANY(${q.senders}::text[]) AND last_seen_at >= ${since}) AS devices,
      (SELECT coalesce(json_agg(username), '[]'::json) FROM im_users WHERE username = ANY(${q.peers}::text[])) AS users,
      (SELECT coalesce(json_agg(json_build_array(owner, blocked)), '[]'::json) FROM im_user_blocks
        WHERE owner = ANY(${q.peers}::text[]) AND blocked = ANY(${q.chatSenders}::text[])) AS blocks,
      (SELECT coalesce(json_agg(json_build_array(id, seq, created_ms, from_user, client_id)), '[]'::json) FROM im_messages
        WHERE (from_user, client_id) IN (SELECT * FROM unnest(${q.clientIds.map((c) => c.from)}::text[], ${q.clientIds.map((c) => c.clientId)}::text[]))) AS resends`.execute(db);
  const row = r.rows[0];
  return {
    devices: (row?.devices ?? []).map(([username, resource]) => ({ username, resource })),
    users: new Set(row?.users ?? []),
    blocks: new Set((row?.blocks ?? []).map(([owner, blocked]) => `${owner}\0${blocked}`)),
    resends: (row?.resends ?? []).map(([id, seq, createdMs, from, clientId]) => ({ id: Number(id), seq: Number(seq), createdMs: Number(createdMs), from, clientId })),
  };
}
