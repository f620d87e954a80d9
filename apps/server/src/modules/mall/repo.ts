import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";

/**
 * The mall's SQL. Reads of other modules' rows that no service offers yet are kept here, named and few:
 * the merchant's currency and version (merchants), the customer's phone (onecard customers), a card's
 * owner and brand (onecard cards), and the codes a merchant bought (supply cards, the merchant's stock).
 */

export function merchantOf(db: Executor, merchantId: number) {
  return db.selectFrom("merchants").select(["id", "currency", "version"]).where("id", "=", merchantId).executeTakeFirst();
}

export function cardOwner(db: Executor, cardId: number) {
  return db.selectFrom("onecard_cards").select(["id", "customer_id", "brander_id", "currency", "balance", "held"]).where("id", "=", cardId).executeTakeFirst();
}

export function customerCards(db: Executor, customerId: number, branderId: number) {
  return db
    .selectFrom("onecard_cards")
    .select(["id", "balance", "held", "currency", "sealed"])
    .where("customer_id", "=", customerId)
    .where("brander_id", "=", branderId)
    .where("state", "=", "activated")
    .orderBy("id")
    .execute();
}

export function phonesOf(db: Executor, customerIds: number[]) {
  if (customerIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("onecard_customers").select(["id", "phone"]).where("id", "in", [...new Set(customerIds)]).execute();
}

/** Codes of a goods the merchant bought and the mall has not sold: its own stock. */
export async function ownStock(db: Executor, merchantId: number, goodsIds: number[]): Promise<Map<number, number>> {
  if (goodsIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("supply_cards as c")
    .select(["c.goods_id", (eb) => eb.fn.countAll<string>().as("n")])
    .where("c.buyer_merchant_id", "=", merchantId)
    .where("c.goods_id", "in", goodsIds)
    .where("c.state", "=", "sold")
    .where("c.redeemed_at", "is", null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("mall_deliveries as d").select("d.id").whereRef("d.card_id", "=", "c.id"))))
    .groupBy("c.goods_id")
    .execute();
  return new Map(rows.map((r) => [r.goods_id, Number(r.n)]));
}

/**
 * Takes up to `n` codes of the merchant's stock for an order, locked (others skip them) in the order's
 * transaction; the unique card id of mall_deliveries makes a code sold once even so.
 */
export async function takeOwnCodes(tx: Tx, merchantId: number, goodsId: number, n: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    SELECT c.id FROM supply_cards c
    WHERE c.buyer_merchant_id = ${merchantId} AND c.goods_id = ${goodsId} AND c.state = 'sold' AND c.redeemed_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM mall_deliveries d WHERE d.card_id = c.id)
    ORDER BY c.id
    LIMIT ${n}
    FOR UPDATE OF c SKIP LOCKED`.execute(tx);
  return rows.rows.map((r) => Number(r.id));
}

export function sealedCodes(db: Executor, cardIds: number[]) {
  if (cardIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("supply_cards").select(["id", "sealed", "number_mask", sql<string | null>`to_char(expires_on, 'YYYY-MM-DD')`.as("expires_on")]).where("id", "in", cardIds).execute();
}

export async function touchMember(db: Executor, merchantId: number, customerId: number, now: Date): Promise<void> {
  await db
    .insertInto("mall_members")
    .values({ merchant_id: merchantId, customer_id: customerId, first_seen_at: now, last_seen_at: now })
    .onConflict((oc) => oc.columns(["merchant_id", "customer_id"]).doUpdateSet({ last_seen_at: now }))
    .execute();
}

/**
 * One SMS of the merchant's packages, the soonest to expire first; undefined when none remain. Each
 * candidate is taken with a conditional update (waiting for a concurrent send's lock, never skipping
 * it), so parallel sends share one package until it is empty.
 */
export async function takeSms(tx: Tx, merchantId: number, now: Date): Promise<number | undefined> {
  const live = await tx
    .selectFrom("mall_sms_packages")
    .select("id")
    .where("merchant_id", "=", merchantId)
    .where("remaining", ">", 0)
    .where("expires_at", ">", now)
    .orderBy("expires_at")
    .orderBy("id")
    .limit(20)
    .execute();
  for (const p of live) {
    const r = await tx.updateTable("mall_sms_packages").set((eb) => ({ remaining: eb("remaining", "-", 1) })).where("id", "=", p.id).where("remaining", ">", 0).returning("id").executeTakeFirst();
    if (r) return r.id;
  }
  return undefined;
}
