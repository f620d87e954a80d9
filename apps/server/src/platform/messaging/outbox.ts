import type { OutboxQuery } from "@tessera/contracts";
import type { Executor } from "../../db/tx";

export interface OutboxRow {
  id: number;
  channel: "email" | "sms";
  recipient: string;
  subject: string;
  body: string;
  created_at: Date;
}

export async function recordOutbox(
  db: Executor,
  row: { channel: "email" | "sms"; recipient: string; subject: string; body: string },
): Promise<void> {
  await db.insertInto("dev_outbox").values(row).execute();
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
  const [rows, count] = await Promise.all([
    filtered(db, query)
      .selectAll()
      .orderBy("id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filtered(db, query).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
