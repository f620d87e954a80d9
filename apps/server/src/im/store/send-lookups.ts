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
 * flattened into a join), so every lookup is an index probe whatever the plan: written as joins or
 * `= ANY`, a plan made while the tables were small (a new database; PostgreSQL without autovacuum and the
 * embedded database never refresh it) scanned the whole of im_messages for every batch of sends. The
 * statement is the function im_send_lookups (migration 0090), whose generic plan is made once per
 * connection: as a prepared statement PostgreSQL planned it anew for every batch.
 */
export async function readSendLookups(
  db: Executor,
  q: {
    senders: string[];
    peers: string[];
    chatSenders: string[];
    clientIds: { from: string; clientId: string }[];
    now: Date;
  },
): Promise<SendLookupRows> {
  const since = new Date(q.now.getTime() - DEVICE_DAYS * 86_400_000);
  const r = await sql<{
    devices: [string, string][];
    users: string[];
    blocks: [string, string][];
    resends: [number, number, number, string, string][];
  }>`
    SELECT * FROM im_send_lookups(${textArray(q.senders)}::text[], ${textArray(q.peers)}::text[], ${textArray(q.chatSenders)}::text[],
      ${textArray(q.clientIds.map((c) => c.from))}::text[], ${textArray(q.clientIds.map((c) => c.clientId))}::text[], ${since}::timestamptz)`.execute(
    db,
  );
  const row = r.rows[0];
  return {
    devices: (row?.devices ?? []).map(([username, resource]) => ({ username, resource })),
    users: new Set(row?.users ?? []),
    blocks: new Set((row?.blocks ?? []).map(([owner, blocked]) => `${owner}\0${blocked}`)),
    resends: (row?.resends ?? []).map(([id, seq, createdMs, from, clientId]) => ({
      id: Number(id),
      seq: Number(seq),
      createdMs: Number(createdMs),
      from,
      clientId,
    })),
  };
}
