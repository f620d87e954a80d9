import type { Tx } from "../../db/tx";
import { adjustStock, lockGoodsForStock } from "../catalog";

interface OrderCodes {
  goodsId: number;
  orderId: string;
  buyerMerchantId: number;
}

/**
 * An order's sold codes not redeemed at a store, locked, in id order: at most `limit`, and only those that
 * expired before `expiredBefore` (a platform day) when it is given.
 */
function lockUnredeemed(
  tx: Tx,
  req: OrderCodes,
  only: { limit?: number; expiredBefore?: string; heldByBuyer?: boolean },
) {
  let q = tx
    .selectFrom("supply_cards")
    .select("id")
    .where("order_id", "=", req.orderId)
    .where("buyer_merchant_id", "=", req.buyerMerchantId)
    .where("state", "=", "sold")
    .where("redeemed_at", "is", null);
  if (only.expiredBefore !== undefined) q = q.where("expires_on", "<", only.expiredBefore);
  // A code its buyer handed on (the mall's delivery to a customer) is no longer the buyer's to return.
  if (only.heldByBuyer) q = q.where("resold_at", "is", null);
  if (only.limit !== undefined) q = q.limit(only.limit);
  return q.orderBy("id").forUpdate().execute();
}

/** Takes codes out of the sold count into `void` or `expired`, with the goods' counters, in the caller's transaction. */
async function retire(tx: Tx, goodsId: number, ids: number[], state: "void" | "expired", now: Date): Promise<void> {
  await tx
    .updateTable("supply_cards")
    .set(state === "void" ? { state, voided_at: now } : { state, expired_at: now })
    .where("id", "in", ids)
    .execute();
  const goods = await lockGoodsForStock(tx, goodsId);
  if (goods) {
    await adjustStock(
      tx,
      goods,
      state === "void" ? { sold: -ids.length, voided: ids.length } : { sold: -ids.length, expired: ids.length },
      now,
    );
  }
}

/**
 * Takes back `quantity` codes of an order its buyer has returned (a refund the supplier accepted): they
 * become void, never to be sold again, since the buyer has seen them. Codes already redeemed at a store
 * cannot be returned, nor codes the buyer handed on to its own customer (a mall order: the customer holds
 * it; only that sale's refund takes it back, issue 37). Returns the voided ids; fewer than asked when the
 * order has fewer such codes left.
 */
export async function voidRefundedCards(tx: Tx, req: OrderCodes & { quantity: number }, now: Date): Promise<number[]> {
  const ids = (await lockUnredeemed(tx, req, { limit: req.quantity, heldByBuyer: true })).map((r) => r.id);
  if (ids.length < req.quantity) return ids;
  await retire(tx, req.goodsId, ids, "void", now);
  return ids;
}

/**
 * An order's sold codes that expired before `today` without being redeemed (store vouchers refunded by the
 * expiry job): locked, moved to 'expired' with the goods' counters (sold down, expired up). Returns their ids.
 */
export async function expireUnredeemedCards(tx: Tx, req: OrderCodes & { today: string }, now: Date): Promise<number[]> {
  const ids = (await lockUnredeemed(tx, req, { expiredBefore: req.today })).map((r) => r.id);
  if (ids.length > 0) await retire(tx, req.goodsId, ids, "expired", now);
  return ids;
}

export interface VoidedCode {
  id: number;
  goodsId: number;
  orderId: string | null;
  buyerMerchantId: number | null;
}

/**
 * Voids codes handed on to someone else whose sale is refunded (a mall order refunded to its customer), in
 * the caller's transaction: every code is locked `FOR UPDATE` in id order, the lock a store redemption
 * takes too (`redeemSupplyCard`), so a redemption racing the refund either finishes first (the refund sees
 * the code redeemed and is refused: nothing changes) or waits and then finds the code void. Codes no
 * longer sold (already void, expired, returned) stay as they are. Returns the redeemed ids (then nothing
 * was voided) or the codes voided.
 */
export async function voidHandedOnCodes(
  tx: Tx,
  cardIds: number[],
  now: Date,
): Promise<{ redeemed: number[]; voided: VoidedCode[] }> {
  if (cardIds.length === 0) return { redeemed: [], voided: [] };
  const rows = await tx
    .selectFrom("supply_cards")
    .select(["id", "goods_id", "state", "order_id", "buyer_merchant_id", "redeemed_at"])
    .where("id", "in", [...new Set(cardIds)])
    .orderBy("id")
    .forUpdate()
    .execute();
  const redeemed = rows.filter((r) => r.redeemed_at !== null).map((r) => Number(r.id));
  if (redeemed.length > 0) return { redeemed, voided: [] };
  const sold = rows.filter((r) => r.state === "sold");
  const byGoods = new Map<number, number[]>();
  for (const r of sold) byGoods.set(Number(r.goods_id), [...(byGoods.get(Number(r.goods_id)) ?? []), Number(r.id)]);
  for (const [goodsId, ids] of [...byGoods].sort((a, b) => a[0] - b[0])) await retire(tx, goodsId, ids, "void", now);
  return {
    redeemed: [],
    voided: sold.map((r) => ({
      id: Number(r.id),
      goodsId: Number(r.goods_id),
      orderId: r.order_id,
      buyerMerchantId: r.buyer_merchant_id === null ? null : Number(r.buyer_merchant_id),
    })),
  };
}
