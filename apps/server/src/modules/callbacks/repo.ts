import { sql, type RawBuilder } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the order-result callbacks (the open API's outbox). Each read names the merchant it is for. */

export interface NewCallback {
  merchantId: number;
  eventId: string;
  orderId: number;
  url: string;
  payload: string;
  nextAttemptAt: Date;
}

export async function insertCallback(tx: Executor, c: NewCallback): Promise<void> {
  await tx
    .insertInto("openapi_callbacks")
    .values({
      merchant_id: c.merchantId,
      event_id: c.eventId,
      order_id: c.orderId,
      url: c.url,
      payload: c.payload,
      next_attempt_at: c.nextAttemptAt,
    })
    .execute();
}

/**
 * The same insert as one statement for the caller to run inside its own: writes the callback when the
 * URL expression is not null and `onlyIf` (a query) returns a row.
 */
export function insertCallbackIf(
  c: Omit<NewCallback, "url"> & { url: RawBuilder<string | null>; onlyIf: RawBuilder<unknown> },
): RawBuilder<unknown> {
  return sql`
      INSERT INTO openapi_callbacks (merchant_id, event_id, order_id, url, payload, next_attempt_at)
      SELECT ${c.merchantId}::bigint, ${c.eventId}, ${c.orderId}::bigint, u.url, ${c.payload}, ${c.nextAttemptAt}::timestamptz
      FROM (SELECT ${c.url} AS url) u
      WHERE u.url IS NOT NULL AND EXISTS (${c.onlyIf})`;
}

/** Pending deliveries that are due, locked (others skip them), oldest first. */
export function lockDueCallbacks(tx: Executor, now: Date, limit: number) {
  return tx
    .selectFrom("openapi_callbacks")
    .selectAll()
    .where("state", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at")
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function postponeCallbacks(tx: Executor, ids: number[], until: Date): Promise<void> {
  await tx.updateTable("openapi_callbacks").set({ next_attempt_at: until }).where("id", "in", ids).execute();
}

export async function markDelivered(
  db: Executor,
  id: number,
  d: { attempts: number; status: number | null; at: Date },
): Promise<void> {
  await db
    .updateTable("openapi_callbacks")
    .set({ state: "delivered", attempts: d.attempts, last_status: d.status, last_error: null, delivered_at: d.at })
    .where("id", "=", id)
    .execute();
}

export async function markAttemptFailed(
  db: Executor,
  id: number,
  f: { state: "failed" | "pending"; attempts: number; status: number | null; error: string; nextAttemptAt: Date },
): Promise<void> {
  await db
    .updateTable("openapi_callbacks")
    .set({
      state: f.state,
      attempts: f.attempts,
      last_status: f.status,
      last_error: f.error,
      next_attempt_at: f.nextAttemptAt,
    })
    .where("id", "=", id)
    .execute();
}

export async function callbackPage(
  db: Executor,
  merchantId: number,
  f: { state?: "pending" | "delivered" | "failed" | undefined; offset: number; limit: number },
) {
  let base = db.selectFrom("openapi_callbacks").where("merchant_id", "=", merchantId);
  if (f.state) base = base.where("state", "=", f.state);
  return paginate(base.selectAll().orderBy("id", "desc"), base, f);
}

/** Puts a merchant's delivery back in the queue, due now; false when it is not the merchant's. */
export async function replayCallback(db: Executor, merchantId: number, id: number, now: Date): Promise<boolean> {
  const updated = await db
    .updateTable("openapi_callbacks")
    .set({ state: "pending", next_attempt_at: now })
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}
