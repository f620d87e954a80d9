import { randomUUID } from "node:crypto";
import { CODE, type CallbackDelivery, type Page, type PurchaseOrder } from "@tessera/contracts";
import type { RawBuilder } from "kysely";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { outboundPost, type OutboundPost } from "../../platform/http/ssrf";
import type { OrderResult } from "../purchasing";
import { sign } from "../openapi";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

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
    await repo.insertCallback(tx, {
      merchantId,
      eventId,
      orderId: Number(order.id),
      url: target.url,
      payload: resultPayload(eventId, order),
      nextAttemptAt: this.deps.clock.now(),
    });
  }

  /**
   * enqueue as a statement for the caller to run inside its own (an order's insert, so the order costs
   * no round trip of its own for the callback): writes the callback when the merchant has a callback URL
   * and `onlyIf` (a query) returns a row.
   */
  enqueueStatement(merchantId: number, order: OrderResult, onlyIf: RawBuilder<unknown>): RawBuilder<unknown> {
    const eventId = randomUUID();
    return repo.insertCallbackIf({
      merchantId,
      eventId,
      orderId: Number(order.id),
      url: this.deps.callbackUrlOf(merchantId),
      payload: resultPayload(eventId, order),
      nextAttemptAt: this.deps.clock.now(),
      onlyIf,
    });
  }

  /** Sends what is due; returns how many deliveries were attempted. Safe on several processes at once. */
  async dispatchDue(limit = 20): Promise<number> {
    const now = this.deps.clock.now();
    const due = await withTx(this.deps.db, async (tx) => {
      const rows = await repo.lockDueCallbacks(tx, now, limit);
      if (rows.length > 0) {
        await repo.postponeCallbacks(
          tx,
          rows.map((r) => r.id),
          new Date(now.getTime() + LEASE_MS),
        );
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
      await repo.markDelivered(this.deps.db, row.id, { attempts: attempt, status, at: now });
      return;
    }
    const wait = CALLBACK_BACKOFF_SECONDS[attempt - 1];
    await repo.markAttemptFailed(this.deps.db, row.id, {
      state: wait === undefined ? "failed" : "pending",
      attempts: attempt,
      status,
      error,
      nextAttemptAt: new Date(now.getTime() + (wait ?? 0) * 1000),
    });
  }

  async log(
    merchantId: number,
    q: { page: number; pageSize: number; state?: "pending" | "delivered" | "failed" | undefined },
  ): Promise<Page<CallbackDelivery>> {
    const { rows, total } = await repo.callbackPage(this.deps.db, merchantId, {
      state: q.state,
      ...pageWindow(q),
    });
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
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  /** Sends a delivery again now, with the same event id (receivers deduplicate on it). */
  async replay(merchantId: number, id: number): Promise<void> {
    const updated = await repo.replayCallback(this.deps.db, merchantId, id, this.deps.clock.now());
    if (!updated) throw new AppError(CODE.NOT_FOUND, "error.notFound");
  }
}
