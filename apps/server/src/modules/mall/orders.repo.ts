import { sql } from "kysely";
import { pageWindow, paginate } from "../../db/paginate";
import type { Executor, Tx } from "../../db/tx";
import type { MallOrder } from "@tessera/contracts";

/** The SQL of orders after the checkout: lists, the card bag's codes, refunds, the mall's members. */

/** The codes delivered to a customer, in any mall, not refunded: the latest 500. */
export async function customerCodeRows(db: Executor, customerId: number) {
  return db
    .selectFrom("mall_deliveries as d")
    .innerJoin("mall_orders as o", "o.id", "d.order_id")
    .select(["d.id", "d.order_id", "d.name", "d.card_id", "d.expires_at", "o.order_no", "o.app_id", "o.created_at"])
    .where("o.customer_id", "=", customerId)
    .where("o.state", "!=", "refunded")
    .where("d.kind", "=", "code")
    .where("d.state", "=", "success")
    .orderBy("d.id", "desc")
    .limit(500)
    .execute();
}

/** A page of a customer's orders in the merchant's mall, newest first, and how many there are. */
export async function customerOrdersPage(
  db: Executor,
  merchantId: number,
  customerId: number,
  q: { page: number; pageSize: number },
) {
  const base = db.selectFrom("mall_orders").where("customer_id", "=", customerId).where("merchant_id", "=", merchantId);
  return paginate(base.selectAll().orderBy("id", "desc"), base, pageWindow(q));
}

/** A page of the merchant's orders, newest first, and how many match (`customerId`: one customer's). */
export async function ordersPage(
  db: Executor,
  merchantId: number,
  q: {
    page: number;
    pageSize: number;
    state?: MallOrder["state"] | undefined;
    orderNo?: string | undefined;
    customerId?: number | undefined;
  },
) {
  let base = db.selectFrom("mall_orders").where("merchant_id", "=", merchantId);
  if (q.state) base = base.where("state", "=", q.state);
  if (q.orderNo) base = base.where("order_no", "=", q.orderNo);
  if (q.customerId !== undefined) base = base.where("customer_id", "=", q.customerId);
  return paginate(base.selectAll().orderBy("id", "desc"), base, pageWindow(q));
}

/* ---------- refunds ---------- */

/** The merchant's order, locked for its refund. */
export async function lockOrder(tx: Tx, merchantId: number, id: number) {
  return tx
    .selectFrom("mall_orders")
    .selectAll()
    .where("id", "=", id)
    .where("merchant_id", "=", merchantId)
    .forUpdate()
    .executeTakeFirst();
}

/** The cards an order delivered as codes. */
export async function deliveredCodes(tx: Tx, orderId: number) {
  return tx
    .selectFrom("mall_deliveries")
    .select("card_id")
    .where("order_id", "=", orderId)
    .where("kind", "=", "code")
    .execute();
}

export async function markRefunded(
  tx: Tx,
  orderId: number,
  r: { reason: string; requestKey: string | null; now: Date },
): Promise<void> {
  await tx
    .updateTable("mall_orders")
    .set((eb) => ({
      state: "refunded",
      refund_reason: r.reason,
      refund_key: r.requestKey,
      refunded_at: r.now,
      refunded: eb.ref("amount"),
    }))
    .where("id", "=", orderId)
    .execute();
}

export async function orderRow(db: Executor, id: number) {
  return db.selectFrom("mall_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/* ---------- members (MallMember / ShopMember) ---------- */

/**
 * A page of the customers who came to the merchant's mall (latest seen first), each with its order count
 * and what it spent (refunds excepted), and how many match (`customerId`: one customer's).
 */
export async function membersPage(
  db: Executor,
  merchantId: number,
  q: { page: number; pageSize: number; customerId?: number | undefined },
) {
  let base = db.selectFrom("mall_members as m").where("m.merchant_id", "=", merchantId);
  if (q.customerId !== undefined) base = base.where("m.customer_id", "=", q.customerId);
  return paginate(
    base
      .select(["m.customer_id", "m.first_seen_at", "m.last_seen_at"])
      .select((eb) => [
        eb
          .selectFrom("mall_orders as o")
          .select((e) => e.fn.countAll<string>().as("n"))
          .whereRef("o.customer_id", "=", "m.customer_id")
          .where("o.merchant_id", "=", merchantId)
          .as("orders"),
        eb
          .selectFrom("mall_orders as o")
          .select((e) => e.fn.coalesce(e.fn.sum<string>("o.amount"), sql<string>`0`).as("s"))
          .whereRef("o.customer_id", "=", "m.customer_id")
          .where("o.merchant_id", "=", merchantId)
          .where("o.state", "!=", "refunded")
          .as("spent"),
      ])
      .orderBy("m.last_seen_at", "desc")
      .orderBy("m.customer_id", "desc"),
    base,
    pageWindow(q),
  );
}

/* ---------- codes that expired unused (issue 37) ---------- */

/** The orders that delivered any of `cardIds` as codes not yet paid back, in id order. */
export async function ordersOfUnpaidCodes(tx: Tx, cardIds: number[]): Promise<number[]> {
  const r = await tx
    .selectFrom("mall_deliveries")
    .select("order_id")
    .distinct()
    .where("card_id", "in", cardIds)
    .where("kind", "=", "code")
    .where("refunded_at", "is", null)
    .orderBy("order_id")
    .execute();
  return r.map((x) => x.order_id);
}

/**
 * Any merchant's order, locked (the expiry job acts for the platform), or undefined while another
 * transaction holds it (a refund of it in progress).
 */
export async function lockAnyOrderNow(tx: Tx, id: number) {
  return tx.selectFrom("mall_orders").selectAll().where("id", "=", id).forUpdate().skipLocked().executeTakeFirst();
}

/** The order's deliveries of `cardIds` not yet paid back, and how many codes the order delivered. */
export async function unpaidCodesOfOrder(tx: Tx, orderId: number, cardIds: number[]) {
  const [codes, all] = await Promise.all([
    tx
      .selectFrom("mall_deliveries")
      .select(["id", "price"])
      .where("order_id", "=", orderId)
      .where("card_id", "in", cardIds)
      .where("kind", "=", "code")
      .where("refunded_at", "is", null)
      .orderBy("id")
      .execute(),
    tx
      .selectFrom("mall_deliveries")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("order_id", "=", orderId)
      .executeTakeFirstOrThrow(),
  ]);
  return { codes, units: Number(all.n) };
}

/** The deliveries' price went back to the customer; the order records it, and is refunded once nothing is left. */
export async function markCodesPaidBack(
  tx: Tx,
  orderId: number,
  deliveryIds: number[],
  r: { amount: number; whole: boolean; now: Date },
): Promise<void> {
  await tx.updateTable("mall_deliveries").set({ refunded_at: r.now }).where("id", "in", deliveryIds).execute();
  await tx
    .updateTable("mall_orders")
    .set((eb) => ({
      refunded: eb("refunded", "+", r.amount),
      ...(r.whole && { state: "refunded" as const, refund_reason: "expired", refunded_at: r.now }),
    }))
    .where("id", "=", orderId)
    .execute();
}
