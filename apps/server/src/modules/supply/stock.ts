import { sql } from "kysely";
import type { Executor, Tx } from "../../db/tx";

/**
 * A buyer's own stock of codes: the codes of a goods it bought (sold to it, not redeemed at a store) that
 * a reselling module (the mini-program mall) has not handed on yet. That module names the table and
 * column where it records the codes it used (`used`); those are left out.
 */
export interface UsedCodes {
  /** A table of the reselling module, e.g. "mall_deliveries". */
  table: string;
  /** Its column holding a supply card id, e.g. "card_id". */
  column: string;
}

const notUsed = (used: UsedCodes) => sql`NOT EXISTS (SELECT 1 FROM ${sql.table(used.table)} u WHERE u.${sql.ref(used.column)} = c.id)`;

/** How many unused codes of each goods the buyer holds. */
export async function buyerStock(db: Executor, buyerId: number, goodsIds: number[], used: UsedCodes): Promise<Map<number, number>> {
  if (goodsIds.length === 0) return new Map();
  const rows = await sql<{ goods_id: number; n: string }>`
    SELECT c.goods_id, COUNT(*)::text AS n FROM supply_cards c
    WHERE c.buyer_merchant_id = ${buyerId} AND c.goods_id IN (${sql.join(goodsIds)}) AND c.state = 'sold' AND c.redeemed_at IS NULL
      AND ${notUsed(used)}
    GROUP BY c.goods_id`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.goods_id), Number(r.n)]));
}

/**
 * Takes up to `n` unused codes of a goods the buyer holds, locked in the caller's transaction (concurrent
 * takers skip them); the caller records them in its `used` table (a unique card id there makes a code
 * handed on once even so).
 */
export async function takeBuyerCodes(tx: Tx, buyerId: number, goodsId: number, n: number, used: UsedCodes): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    SELECT c.id FROM supply_cards c
    WHERE c.buyer_merchant_id = ${buyerId} AND c.goods_id = ${goodsId} AND c.state = 'sold' AND c.redeemed_at IS NULL
      AND ${notUsed(used)}
    ORDER BY c.id
    LIMIT ${n}
    FOR UPDATE OF c SKIP LOCKED`.execute(tx);
  return rows.rows.map((r) => Number(r.id));
}

/** The sealed credentials, masked number and expiry day of codes (for their buyer to reveal). */
export function sealedCodes(db: Executor, cardIds: number[]) {
  if (cardIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("supply_cards")
    .select(["id", "sealed", "number_mask", sql<string | null>`to_char(expires_on, 'YYYY-MM-DD')`.as("expires_on")])
    .where("id", "in", cardIds)
    .execute();
}
