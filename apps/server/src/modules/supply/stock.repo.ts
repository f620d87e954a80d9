import { sql, type RawBuilder } from "kysely";
import type { Executor, Tx } from "../../db/tx";

/**
 * A buyer's own stock of codes: the codes of a goods it bought (sold to it, not redeemed at a store) that
 * it has not handed on to an end customer yet (`resold_at`, set when a reselling module such as the
 * mini-program mall takes them). Read through the partial index of held codes, so neither call reads
 * the codes already handed on.
 */
const held = sql`c.state = 'sold' AND c.redeemed_at IS NULL AND c.resold_at IS NULL`;

/** How many codes of each goods the buyer holds. */
export async function buyerStock(db: Executor, buyerId: number, goodsIds: number[]): Promise<Map<number, number>> {
  if (goodsIds.length === 0) return new Map();
  const rows = await sql<{ goods_id: number; n: string }>`
    SELECT c.goods_id, COUNT(*)::text AS n FROM supply_cards c
    WHERE c.buyer_merchant_id = ${buyerId} AND c.goods_id IN (${sql.join(goodsIds)}) AND ${held}
    GROUP BY c.goods_id`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.goods_id), Number(r.n)]));
}

/** How many codes of each goods the buyer holds, counted up to what is needed of each (a checkout's question). */
export async function buyerStockUpTo(
  db: Executor,
  buyerId: number,
  needs: Map<number, number>,
  available: RawBuilder<unknown> = sql`TRUE`,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const [goodsId, need] of needs) {
    const r = await sql<{ n: string }>`
      SELECT COUNT(*)::text AS n FROM (
        SELECT 1 FROM supply_cards c WHERE c.buyer_merchant_id = ${buyerId} AND c.goods_id = ${goodsId} AND ${held} AND (${available}) LIMIT ${need}
      ) s`.execute(db);
    out.set(goodsId, Number(r.rows[0]?.n ?? 0));
  }
  return out;
}

/**
 * Takes up to `n` held codes of a goods and marks them handed on, in the caller's transaction (concurrent
 * takers skip the locked ones); the caller records them (a unique card id there makes a code handed on
 * once even so). `fromOrders`: purchase orders the caller placed for this (their codes are taken first,
 * so concurrent takers do not leave it short of what it just bought); beyond them, only codes that meet
 * `available` (the caller's rule for codes another taker holds for itself, as buyerStockUpTo counted them).
 * Returns each code's sealed credentials, masked number and expiry day (as sealedCodes does), in card id order.
 */
export async function takeBuyerCodes(
  tx: Tx,
  buyerId: number,
  goodsId: number,
  n: number,
  now: Date,
  fromOrders: string[] = [],
  available: RawBuilder<unknown> = sql`TRUE`,
): Promise<SealedCode[]> {
  const take = async (count: number, only: RawBuilder<unknown>) =>
    (
      await sql<SealedCode>`
        UPDATE supply_cards SET resold_at = ${now}
        WHERE id IN (
          SELECT c.id FROM supply_cards c
          WHERE c.buyer_merchant_id = ${buyerId} AND c.goods_id = ${goodsId} AND ${held} AND ${only}
          ORDER BY c.id
          LIMIT ${count}
          FOR UPDATE OF c SKIP LOCKED
        )
        RETURNING id, sealed, number_mask, to_char(expires_on, 'YYYY-MM-DD') AS expires_on`.execute(tx)
    ).rows.map((r) => ({ ...r, id: Number(r.id) }));
  const mine = fromOrders.length > 0 ? await take(n, sql`c.order_id IN (${sql.join(fromOrders)})`) : [];
  // The codes just taken are handed on already (this transaction sees its own update): not held any more.
  const rest = mine.length < n ? await take(n - mine.length, sql`(${available})`) : [];
  return [...mine, ...rest].sort((a, b) => a.id - b.id);
}

/** A code's sealed credentials, masked number and expiry day (YYYY-MM-DD). */
export interface SealedCode {
  id: number;
  sealed: string;
  number_mask: string;
  expires_on: string | null;
}

/** A delivered code as its buyer sees it: the credentials, and whether a store has redeemed it. */
export interface DeliveredCode extends SealedCode {
  redeemed_at: Date | null;
}

/** The sealed credentials, masked number, expiry day and redemption of codes (for their buyer to reveal). */
export function sealedCodes(db: Executor, cardIds: number[]): Promise<DeliveredCode[]> {
  if (cardIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("supply_cards")
    .select([
      "id",
      "sealed",
      "number_mask",
      sql<string | null>`to_char(expires_on, 'YYYY-MM-DD')`.as("expires_on"),
      "redeemed_at",
    ])
    .where("id", "in", cardIds)
    .execute();
}
