import { sql } from "kysely";
import { textArray } from "../../db/arrays";
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
 *
 * Each list drives its lookups element by element (a LATERAL subquery with LIMIT or OFFSET is never
 * flattened into a join), so every lookup is an index probe whatever the plan. The statement is prepared once per
 * connection and its generic plan is kept: written as joins or `= ANY`, a plan made while the tables
 * were small (a new database; PostgreSQL without autovacuum and the embedded database never refresh
 * it) scanned the whole of im_messages for every batch of sends.
 */
export async function readSendLookups(
  db: Executor,
  q: { senders: string[]; peers: string[]; chatSenders: string[]; clientIds: { from: string; clientId: string }[]; now: Date },
): Promise<SendLookupRows> {
  const since = new Date(q.now.getTime() - DEVICE_DAYS * 86_400_000);
  const r = await sql<{ devices: [string, string][]; users: string[]; blocks: [string, string][]; resends: [number, number, number, string, string][] }>`
    SELECT
      (SELECT coalesce(json_agg(json_build_array(d.username, d.resource)), '[]'::json) FROM unnest(${textArray(q.senders)}::text[]) AS s(u)
        CROSS JOIN LATERAL (SELECT username, resource FROM im_devices WHERE username = s.u AND last_seen_at >= ${since} OFFSET 0) d) AS devices,
      (SELECT coalesce(json_agg(u.username), '[]'::json) FROM unnest(${textArray(q.peers)}::text[]) AS p(u)
        CROSS JOIN LATERAL (SELECT username FROM im_users WHERE username = p.u LIMIT 1) u) AS users,
      (SELECT coalesce(json_agg(json_build_array(b.owner, b.blocked)), '[]'::json) FROM unnest(${textArray(q.peers)}::text[]) AS p(u)
        CROSS JOIN LATERAL (SELECT owner, blocked FROM im_user_blocks WHERE owner = p.u OFFSET 0) b
        WHERE b.blocked = ANY(${textArray(q.chatSenders)}::text[])) AS blocks,
      (SELECT coalesce(json_agg(json_build_array(m.id, m.seq, m.created_ms, m.from_user, m.client_id)), '[]'::json)
        FROM unnest(${textArray(q.clientIds.map((c) => c.from))}::text[], ${textArray(q.clientIds.map((c) => c.clientId))}::text[]) AS c(from_user, client_id)
        CROSS JOIN LATERAL (SELECT id, seq, created_ms, from_user, client_id FROM im_messages
          WHERE from_user = c.from_user AND client_id = c.client_id LIMIT 1) m) AS resends`.execute(db);
  const row = r.rows[0];
  return {
    devices: (row?.devices ?? []).map(([username, resource]) => ({ username, resource })),
    users: new Set(row?.users ?? []),
    blocks: new Set((row?.blocks ?? []).map(([owner, blocked]) => `${owner}\0${blocked}`)),
    resends: (row?.resends ?? []).map(([id, seq, createdMs, from, clientId]) => ({ id: Number(id), seq: Number(seq), createdMs: Number(createdMs), from, clientId })),
  };
}
