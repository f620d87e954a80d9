import type { Tx } from "../../db/tx";
import { adjustStock, lockGoodsForStock } from "../catalog";

/**
 * Takes back `quantity` codes of an order its buyer has returned (a refund the supplier accepted): they
 * become void, never to be sold again, since the buyer has seen them. Codes already redeemed at a store
 * cannot be returned. Returns the voided ids; fewer than asked when the order has fewer such codes left.
 */
export async function voidRefundedCards(tx: Tx, req: { goodsId: number; orderId: string; buyerMerchantId: number; quantity: number }, now: Date): Promise<number[]> {
  const rows = await tx
    .selectFrom("supply_cards")
    .select("id")
    .where("order_id", "=", req.orderId)
    .where("buyer_merchant_id", "=", req.buyerMerchantId)
    .where("state", "=", "sold")
    .where("redeemed_at", "is", null)
    .orderBy("id")
    .limit(req.quantity)
    .forUpdate()
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length < req.quantity) return ids;
  await tx.updateTable("supply_cards").set({ state: "void", voided_at: now }).where("id", "in", ids).execute();
  const goods = await lockGoodsForStock(tx, req.goodsId);
  if (goods) await adjustStock(tx, goods, { sold: -ids.length, voided: ids.length }, now);
  return ids;
}

/**
 * An order's sold codes that expired before `today` without being redeemed (store vouchers refunded by the
 * expiry job): locked, moved to 'expired' with the goods' counters (sold down, expired up). Returns their ids.
 */
export async function expireUnredeemedCards(tx: Tx, req: { goodsId: number; orderId: string; buyerMerchantId: number; today: string }, now: Date): Promise<number[]> {
  const rows = await tx
    .selectFrom("supply_cards")
    .select("id")
    .where("order_id", "=", req.orderId)
    .where("buyer_merchant_id", "=", req.buyerMerchantId)
    .where("state", "=", "sold")
    .where("redeemed_at", "is", null)
    .where("expires_on", "<", req.today)
    .orderBy("id")
    .forUpdate()
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return ids;
  await tx.updateTable("supply_cards").set({ state: "expired", expired_at: now }).where("id", "in", ids).execute();
  const goods = await lockGoodsForStock(tx, req.goodsId);
  if (goods) await adjustStock(tx, goods, { sold: -ids.length, expired: ids.length }, now);
  return ids;
}
