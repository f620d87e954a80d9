import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import { withPayload, type MessageRow } from "./messages";

/** Pinned messages of a conversation, shared by its participants (one-to-one: both; group: members). */

export async function pinCount(db: Executor, convKey: string): Promise<number> {
  const r = await db
    .selectFrom("im_pinned_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("conv_key", "=", convKey)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function isPinned(db: Executor, convKey: string, messageId: number): Promise<boolean> {
  const r = await db
    .selectFrom("im_pinned_messages")
    .select("message_id")
    .where("conv_key", "=", convKey)
    .where("message_id", "=", messageId)
    .executeTakeFirst();
  return r !== undefined;
}

/** Pins a message; false when it was pinned already (the pin keeps its first time and operator). */
export async function pin(tx: Tx, convKey: string, messageId: number, by: string, ms: number): Promise<boolean> {
  const r = await tx
    .insertInto("im_pinned_messages")
    .values({ conv_key: convKey, message_id: messageId, pinned_by: by, pinned_ms: ms })
    .onConflict((oc) => oc.columns(["conv_key", "message_id"]).doNothing())
    .returning("message_id")
    .executeTakeFirst();
  return r !== undefined;
}

export async function unpin(tx: Tx, convKey: string, messageId: number): Promise<boolean> {
  const r = await tx
    .deleteFrom("im_pinned_messages")
    .where("conv_key", "=", convKey)
    .where("message_id", "=", messageId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Pins newest first after the keyset cursor (pinned_ms, message_id), with their messages. */
export async function pinPage(
  db: Executor,
  convKey: string,
  after: { ms: number; id: number } | null,
  limit: number,
): Promise<{ pinned_by: string; pinned_ms: number; message: MessageRow }[]> {
  let q = db
    .selectFrom("im_pinned_messages as p")
    .innerJoin("im_messages as m", "m.id", "p.message_id")
    .selectAll("m")
    .select(["p.pinned_by", "p.pinned_ms"])
    .where("p.conv_key", "=", convKey)
    .where("m.recalled_at", "is", null);
  if (after) q = q.where(sql<boolean>`(p.pinned_ms, p.message_id) < (${after.ms}, ${after.id})`);
  const rows = await q.orderBy("p.pinned_ms", "desc").orderBy("p.message_id", "desc").limit(limit).execute();
  return rows.map(({ pinned_by, pinned_ms, ...message }) => ({ pinned_by, pinned_ms, message: withPayload(message) }));
}
