import { sql } from "kysely";
import { withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import { platformDay, type Clock } from "../../platform/clock";
import { oncePer, type Job } from "../../platform/jobs";
import { expireUnredeemedCards } from "../supply";
import { postRefund } from "./refund-money";
import * as ordersRepo from "./orders.repo";
import * as refundsRepo from "./refunds.repo";

/**
 * Pays back whoever the purchaser handed expired codes on to (the mall's customers: mall's
 * refundExpiredCodes), in the transaction that refunds the purchaser. `refundedTo` is the purchaser's
 * account the codes' price just went back to: what the purchaser's income no longer holds is paid from it.
 */
export type ExpiredCodesRefund = (
  tx: Tx,
  cardIds: number[],
  now: Date,
  refundedTo: { merchantId: number; kind: "sup" | "rebate" },
) => Promise<void>;

/**
 * Thrown by an ExpiredCodesRefund that finds what it must pay back busy (a mall order being refunded at this
 * moment, which locks it before the purchase orders, the other way round): the order's expiry rolls back and
 * waits for a later run, rather than the two transactions waiting on each other.
 */
export class RetryLater extends Error {}

/** What the job needs: the database, the clock and the handed-on codes' refund. */
export interface VoucherExpiryDeps {
  db: Db;
  clock: Clock;
  handedOn: ExpiredCodesRefund;
}

/** Orders taken per look-up; each order is refunded in its own transaction. */
const CHUNK = 200;
/** How often the job looks whether a new platform day has begun. */
const CHECK_INTERVAL_MS = 60_000;

/**
 * Orders of store vouchers (paid into the order escrow until redeemed) holding sold codes that expired
 * before `today` unredeemed, after `afterId`, in id order. Orders with a refund still open are left for a
 * later day: the supplier's decision on it must find the codes it was asked for.
 */
async function ordersWithExpiredVouchers(db: Db, today: string, afterId: number): Promise<number[]> {
  const r = await sql<{ id: string }>`
    SELECT DISTINCT o.id FROM supply_cards c
    JOIN purchase_orders o ON o.id = CASE WHEN c.order_id ~ '^[0-9]+$' THEN c.order_id::bigint END
    WHERE c.state = 'sold' AND c.redeemed_at IS NULL AND c.expires_on IS NOT NULL AND c.expires_on < ${today}::date
      AND o.held_until_redeemed AND o.state = 'success' AND o.id > ${afterId}
      AND NOT EXISTS (SELECT 1 FROM refund_orders f WHERE f.order_id = o.id AND f.state IN ('processing', 'abnormal'))
    ORDER BY o.id
    LIMIT ${CHUNK}`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

/**
 * Refunds one order's expired unredeemed vouchers: the codes become 'expired', a refund row (cause
 * 'expiry', already successful: the platform holds the money, no supplier decides) records them, and
 * their price moves from the escrow back to the account that paid, once; codes the purchaser handed on to
 * its mall's customers pay those customers back in the same transaction (issue 37). Returns how many codes.
 */
async function refundOrder(deps: VoucherExpiryDeps, orderId: number, today: string, now: Date): Promise<number> {
  return withTx(deps.db, async (tx) => {
    const o = await ordersRepo.lockOrder(tx, orderId);
    // A refund asked for since the look-up waits for the supplier's decision, under the order's lock.
    if (!o || o.state !== "success" || !o.held_until_redeemed || (await refundsRepo.hasOpenRefund(tx, o.id))) return 0;
    const expired = await expireUnredeemedCards(
      tx,
      { goodsId: o.goods_id, orderId: String(o.id), buyerMerchantId: o.purchaser_merchant_id, today },
      now,
    );
    if (expired.length === 0) return 0;
    const amount = o.unit_price * expired.length;
    const id = await refundsRepo.insertRefund(tx, {
      orderId: o.id,
      purchaserId: o.purchaser_merchant_id,
      supplierId: o.supplier_merchant_id,
      quantity: expired.length,
      amount,
      currency: o.currency,
      reason: "",
      state: "success",
      requestedBy: null,
      at: now,
      cause: "expiry",
    });
    await postRefund(tx, o, { id, amount, reason: "" }, null);
    await deps.handedOn(tx, expired, now, { merchantId: o.purchaser_merchant_id, kind: o.paid_from });
    await audit(tx, {
      actorUserId: null,
      action: "refund.expiry",
      subjectType: "refund_order",
      subjectId: id,
      detail: { orderId: o.id, cards: expired },
    });
    return expired.length;
  });
}

/**
 * Refunds every store voucher that expired unredeemed (its expiry day is before today's platform day).
 * Idempotent: a refunded code is 'expired' and never found again; two processes running it at once lock
 * the same order in turn, and the second finds nothing left. Returns how many codes were refunded.
 */
export async function refundExpiredVouchers(deps: VoucherExpiryDeps): Promise<number> {
  const now = deps.clock.now();
  const today = platformDay(now);
  let total = 0;
  let afterId = 0;
  for (;;) {
    const orders = await ordersWithExpiredVouchers(deps.db, today, afterId);
    for (const id of orders) {
      total += await refundOrder(deps, id, today, now).catch((err: unknown) => {
        if (err instanceof RetryLater) return 0;
        throw err;
      });
    }
    if (orders.length < CHUNK) return total;
    afterId = orders[orders.length - 1] ?? afterId;
  }
}

/** Once per platform day (and once at start), like the card-expiry job, it refunds the day's expired vouchers. */
export function voucherExpiryJob(deps: VoucherExpiryDeps): Job {
  return {
    name: "voucher expiry refunds",
    everyMs: CHECK_INTERVAL_MS,
    firstAfterMs: 0,
    run: oncePer(
      () => platformDay(deps.clock.now()),
      async () => {
        const n = await refundExpiredVouchers(deps);
        return n > 0 ? `${n} expired voucher(s) refunded` : undefined;
      },
    ),
  };
}
