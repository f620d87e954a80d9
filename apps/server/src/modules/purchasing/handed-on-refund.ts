import type { Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import { voidHandedOnCodes } from "../supply";
import { postRefund } from "./refund-money";
import * as ordersRepo from "./orders.repo";
import * as refundsRepo from "./refunds.repo";

/**
 * Takes back codes a purchaser handed on to its own customer when that sale is refunded (the mall's
 * refund, issue 37): in the caller's transaction, the codes' purchase orders are locked first (the order
 * before its codes, as the voucher-expiry job and the supplier's refund decision lock them, so they never
 * wait on each other crosswise), then the codes (`FOR UPDATE`, the redemption's lock). A code already
 * redeemed at a store refuses the whole take-back (`redeemed` names them; nothing changed). Otherwise
 * every sold code becomes void, and the store vouchers among them, whose price still waits in the order
 * escrow, are refunded to the purchaser out of the escrow: a refund row per purchase order (already
 * successful, as for expired vouchers: the platform holds the money, no supplier decides), its money
 * keyed by the row. Card secrets were paid to the supplier at sale and stay paid: their codes are voided
 * only, since the customer has seen them.
 */
export async function takeBackHandedOnCodes(
  tx: Tx,
  req: { purchaserId: number; cardIds: number[]; reason: string; actorUserId: number | null },
  now: Date,
): Promise<{ redeemed: number[]; voided: number[]; refundIds: number[] }> {
  if (req.cardIds.length === 0) return { redeemed: [], voided: [], refundIds: [] };
  const owners = await refundsRepo.ordersOfCards(tx, req.purchaserId, req.cardIds);
  const orderIds = [
    ...new Set(owners.flatMap((r) => (r.order_id !== null && /^[0-9]+$/.test(r.order_id) ? [Number(r.order_id)] : []))),
  ].sort((a, b) => a - b);
  const orders = new Map<string, ordersRepo.OrderRow>();
  for (const id of orderIds) {
    const o = await ordersRepo.lockOrder(tx, id);
    if (o) orders.set(String(o.id), o);
  }
  const { redeemed, voided } = await voidHandedOnCodes(tx, req.cardIds, now);
  if (redeemed.length > 0) return { redeemed, voided: [], refundIds: [] };
  const perOrder = new Map<string, number[]>();
  for (const c of voided) {
    if (c.orderId !== null && c.buyerMerchantId === req.purchaserId) {
      perOrder.set(c.orderId, [...(perOrder.get(c.orderId) ?? []), c.id]);
    }
  }
  const refundIds: number[] = [];
  for (const [orderId, cards] of perOrder) {
    const o = orders.get(orderId);
    if (!o || !o.held_until_redeemed || o.state !== "success") continue;
    const amount = o.unit_price * cards.length;
    const id = await refundsRepo.insertRefund(tx, {
      orderId: o.id,
      purchaserId: o.purchaser_merchant_id,
      supplierId: o.supplier_merchant_id,
      quantity: cards.length,
      amount,
      currency: o.currency,
      reason: req.reason.slice(0, 200),
      state: "success",
      requestedBy: req.actorUserId,
      at: now,
    });
    await postRefund(tx, o, { id, amount, reason: req.reason.slice(0, 200) }, req.actorUserId);
    await audit(tx, {
      actorUserId: req.actorUserId,
      action: "refund.handedOn",
      subjectType: "refund_order",
      subjectId: id,
      detail: { orderId: o.id, cards },
    });
    refundIds.push(id);
  }
  return { redeemed: [], voided: voided.map((c) => c.id), refundIds };
}
