import { randomUUID } from "node:crypto";
import { CODE, type CallbackDelivery, type Page, type PurchaseOrder } from "@tessera/contracts";
import { sql, type RawBuilder } from "kysely";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { outboundPost, type OutboundPost } from "../../platform/http/ssrf";
import type { OrderResult } from "../purchasing";
import { sign } from "../openapi";

/**
 * The published retry schedule (seconds after the previous attempt): an order result is retried until
 * the purchaser's server answers 2xx, eight times over about a day, then marked failed; it can be
 * replayed by hand from the delivery log at any time. Polling the order query stays available.
 */
export const CALLBACK_BACKOFF_SECONDS = [30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200] as const;
const SEND_TIMEOUT_MS = 10_000;
/** A delivery being sent is leased for this long, so another process does not send it too. */
const LEASE_MS = 60_000;

export interface CallbackDeps {
  db: Db;
  clock: Clock;
  /** The merchant's callback URL and signing secret, read in the caller's transaction. */
  targetOf: (db: Executor, merchantId: number) => Promise<{ url: string; secret: string } | undefined>;
  /** The merchant's callback URL as an SQL expression (null when none is set), for enqueueStatement. */
  callbackUrlOf: (merchantId: number) => RawBuilder<string | null>;
  /** Test servers on loopback: off in production, where private-network URLs are refused. */
  allowPrivateNetworks: boolean;
  /** How a callback is sent; default: platform/http/ssrf.ts's checked, pinned POST. */
  post?: OutboundPost;
}

function resultPayload(eventId: string, order: OrderResult): string {
  return JSON.stringify({
    eventId,
    type: "order.result",
    order: {
      id: order.id,
      orderNo: order.orderNo,
      goodsId: order.goodsId,
      quantity: order.quantity,
      amount: order.amount,
      state: order.state,
      upstreamChannelId: order.upstreamChannelId,
      failReason: order.failReason,
      refunded: order.refunded,
      finishedAt: order.finishedAt,
    },
  });
}

export class CallbackService {
  private readonly post: OutboundPost;
  constructor(private readonly deps: CallbackDeps) {
    this.post = deps.post ?? outboundPost({ allowPrivateNetworks: deps.allowPrivateNetworks });
  }

  /** Writes the order's result callback in the order's own transaction (nothing when no URL is set). */
  async enqueue(tx: Executor, merchantId: number, orderOf: () => Promise<PurchaseOrder>): Promise<void> {
    const target = await this.deps.targetOf(tx, merchantId);
    if (!target) return;
    const order = await orderOf();
    const eventId = randomUUID();
    await tx
      .insertInto("openapi_callbacks")
      .values({
        merchant_id: merchantId,
        event_id: eventId,
        order_id: Number(order.id),
        url: target.url,
        payload: resultPayload(eventId, order),
        next_attempt_at: this.deps.clock.now(),
      })
      .execute();
  }

  /**
   * enqueue as a statement for the caller to run inside its own (an order's insert, so the order costs
   * no round trip of its own for the callback): writes the callback when the merchant has a callback URL
   * and `onlyIf` (a query) returns a row.
   */
  enqueueStatement(merchantId: number, order: OrderResult, onlyIf: RawBuilder<unknown>): RawBuilder<unknown> {
    const eventId = randomUUID();
    return sql`
      INSERT INTO openapi_callbacks (merchant_id, event_id, order_id, url, payload, next_attempt_at)
      SELECT ${merchantId}::bigint, ${eventId}, ${Number(order.id)}::bigint, u.url, ${resultPayload(eventId, order)}, ${this.deps.clock.now()}::timestamptz
      FROM (SELECT ${this.deps.callbackUrlOf(merchantId)} AS url) u
      WHERE u.url IS NOT NULL AND EXISTS (${onlyIf})`;
  }

  /** Sends what is due; returns how many deliveries were attempted. Safe on several processes at once. */
  async dispatchDue(limit = 20): Promise<number> {
    const now = this.deps.clock.now();
    const due = await withTx(this.deps.db, async (tx) => {
      const rows = await tx
        .selectFrom("openapi_callbacks")
        .selectAll()
        .where("state", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .orderBy("next_attempt_at")
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length > 0) {
        await tx
          .updateTable("openapi_callbacks")
          .set({ next_attempt_at: new Date(now.getTime() + LEASE_MS) })
          .where(
            "id",
            "in",
            rows.map((r) => r.id),
          )
          .execute();
      }
      return rows;
    });
    for (const row of due) await this.deliver(row);
    return due.length;
  }

  private async deliver(row: {
    id: number;
    merchant_id: number;
    event_id: string;
    url: string;
    payload: string;
    attempts: number;
  }): Promise<void> {
    const attempt = row.attempts + 1;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const target = await this.deps.targetOf(this.deps.db, row.merchant_id);
      if (!target) throw new Error("the merchant has no API secret any more");
      const timestamp = String(Math.floor(this.deps.clock.now().getTime() / 1000));
      // Refuses private and reserved destinations, also when the name resolves to one (ssrf.ts).
      const res = await this.post(row.url, {
        headers: {
          "content-type": "application/json",
          "x-event-id": row.event_id,
          "x-timestamp": timestamp,
          // The receiver checks hex HMAC-SHA256(secret, timestamp + "\n" + body).
          "x-signature": sign(target.secret, `${timestamp}\n${row.payload}`),
        },
        body: row.payload,
        timeoutMs: SEND_TIMEOUT_MS,
      });
      status = res.status;
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      error = err instanceof Error ? err.message.slice(0, 300) : "send failed";
    }
    const now = this.deps.clock.now();
    if (error === null) {
      await this.deps.db
        .updateTable("openapi_callbacks")
        .set({ state: "delivered", attempts: attempt, last_status: status, last_error: null, delivered_at: now })
        .where("id", "=", row.id)
        .execute();
      return;
    }
    const wait = CALLBACK_BACKOFF_SECONDS[attempt - 1];
    await this.deps.db
      .updateTable("openapi_callbacks")
      .set({
        state: wait === undefined ? "failed" : "pending",
        attempts: attempt,
        last_status: status,
        last_error: error,
        next_attempt_at: new Date(now.getTime() + (wait ?? 0) * 1000),
      })
      .where("id", "=", row.id)
      .execute();
  }

  async log(
    merchantId: number,
    q: { page: number; pageSize: number; state?: "pending" | "delivered" | "failed" | undefined },
  ): Promise<Page<CallbackDelivery>> {
    let base = this.deps.db.selectFrom("openapi_callbacks").where("merchant_id", "=", merchantId);
    if (q.state) base = base.where("state", "=", q.state);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy("id", "desc")
        .offset((q.page - 1) * q.pageSize)
        .limit(q.pageSize)
        .execute(),
      base.select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
    ]);
    const list = rows.map((r) => ({
      id: String(r.id),
      eventId: r.event_id,
      orderId: String(r.order_id),
      url: r.url,
      state: r.state,
      attempts: r.attempts,
      nextAttemptAt: r.state === "pending" ? new Date(r.next_attempt_at).toISOString() : null,
      lastStatus: r.last_status,
      lastError: r.last_error,
      createdAt: new Date(r.created_at).toISOString(),
      deliveredAt: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
    }));
    return { list, total: Number(count.n), page: q.page, pageSize: q.pageSize };
  }

  /** Sends a delivery again now, with the same event id (receivers deduplicate on it). */
  async replay(merchantId: number, id: number): Promise<void> {
    const updated = await this.deps.db
      .updateTable("openapi_callbacks")
      .set({ state: "pending", next_attempt_at: this.deps.clock.now() })
      .where("id", "=", id)
      .where("merchant_id", "=", merchantId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new AppError(CODE.NOT_FOUND, "error.notFound");
  }
}
