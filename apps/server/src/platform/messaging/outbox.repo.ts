import { sql } from "kysely";
import type { OutboxQuery } from "@tessera/contracts";
import { withTx, type Executor } from "../../db/tx";
import { pageWindow, paginate } from "../../db/paginate";

export interface OutboxRow {
  id: number;
  channel: "email" | "sms";
  recipient: string;
  subject: string;
  body: string;
  created_at: Date;
}

export interface OutboxAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** How an attachment shows at the end of the outbox body: `📎 invoice-1.pdf (application/pdf, 12,345 bytes)`. */
export function attachmentLine(a: { filename: string; contentType: string; size: number }): string {
  return `📎 ${a.filename} (${a.contentType}, ${a.size.toLocaleString("en-US")} bytes)`;
}

/**
 * Keeps a message the local adapters "sent". A mail's attachments are kept whole (table
 * dev_outbox_attachments, migration 0116) and listed by name and size at the end of its body, which the
 * dev mailbox and `GET /api/dev/outbox` show.
 */
export async function recordOutbox(
  db: Executor,
  row: {
    channel: "email" | "sms";
    recipient: string;
    subject: string;
    body: string;
    attachments?: readonly OutboxAttachment[];
  },
): Promise<void> {
  const attachments = row.attachments ?? [];
  const body =
    attachments.length === 0
      ? row.body
      : [row.body, "", ...attachments.map((a) => attachmentLine({ ...a, size: a.content.length }))].join("\n");
  const values = { channel: row.channel, recipient: row.recipient, subject: row.subject, body };
  if (attachments.length === 0) {
    await db.insertInto("dev_outbox").values(values).execute();
    return;
  }
  const keep = async (tx: Executor) => {
    const { id } = await tx.insertInto("dev_outbox").values(values).returning("id").executeTakeFirstOrThrow();
    for (const a of attachments) {
      await sql`INSERT INTO dev_outbox_attachments (outbox_id, filename, content_type, size, content) VALUES (${id},
        ${a.filename}, ${a.contentType}, ${a.content.length}, ${a.content})`.execute(tx);
    }
  };
  // The mail and its attachments are kept together.
  if (db.isTransaction) await keep(db);
  else await withTx(db, keep);
}

/** The attachments kept with an outbox mail, in the order they were attached. */
export async function outboxAttachments(
  db: Executor,
  outboxId: number,
): Promise<(OutboxAttachment & { size: number })[]> {
  const r = await sql<{ filename: string; content_type: string; size: number; content: Uint8Array }>`
    SELECT filename, content_type, size, content FROM dev_outbox_attachments WHERE outbox_id = ${outboxId} ORDER BY id`.execute(
    db,
  );
  return r.rows.map((x) => ({
    filename: x.filename,
    contentType: x.content_type,
    size: Number(x.size),
    content: Buffer.from(x.content),
  }));
}

type Filters = Omit<OutboxQuery, "page" | "pageSize">;

function filtered(db: Executor, f: Filters) {
  let q = db.selectFrom("dev_outbox");
  if (f.to) q = q.where("recipient", "=", f.to.toLowerCase());
  if (f.channel) q = q.where("channel", "=", f.channel);
  if (f.from) q = q.where("created_at", ">=", new Date(f.from));
  if (f.until) q = q.where("created_at", "<=", new Date(f.until));
  return q;
}

/** Newest first. */
export async function listOutbox(db: Executor, query: OutboxQuery): Promise<{ rows: OutboxRow[]; total: number }> {
  return paginate(filtered(db, query).selectAll().orderBy("id", "desc"), filtered(db, query), pageWindow(query));
}
