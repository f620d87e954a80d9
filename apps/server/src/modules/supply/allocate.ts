import { CODE } from "@tessera/contracts";
import type { Tx } from "../../db/tx";
import { platformDay } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { adjustStock, lockGoodsForStock, type LowStock } from "../catalog";
import * as repo from "./repo";

export interface AllocateRequest {
  goodsId: number;
  quantity: number;
  orderId: string;
  /** The purchaser: the only party that may later reveal these codes. */
  buyerMerchantId: number;
}

export interface Allocation {
  cardIds: number[];
  /** Set when this sale took the goods below its low-stock threshold: notify after commit. */
  lowStock: LowStock | null;
}

/**
 * Gives `quantity` codes of a goods to one order, inside the order's transaction. Codes are taken with
 * FOR UPDATE SKIP LOCKED, so concurrent orders take different codes without waiting on each other; a
 * code taken by a transaction that commits is sold exactly once. Fewer codes than asked → "insufficient
 * stock" and nothing is taken. The goods' counters move in the same transaction.
 */
export async function allocateCards(tx: Tx, req: AllocateRequest, now: Date): Promise<Allocation> {
  if (!Number.isSafeInteger(req.quantity) || req.quantity < 1) throw new AppError(CODE.INVALID_PARAMETER, "validation.invalidParameter", { field: "quantity" }, "quantity");
  const goods = await lockGoodsForStock(tx, req.goodsId, false);
  if (!goods || goods.state !== "available" || !goods.cardStock) throw new AppError(CODE.CONFLICT, "supply.goodsNotAvailable");
  if (req.quantity > goods.perOrderMax) throw new AppError(CODE.INVALID_PARAMETER, "catalog.perOrderInvalid", {}, "quantity");
  const ids = await repo.pickAvailable(tx, req.goodsId, req.quantity, platformDay(now));
  if (ids.length < req.quantity) throw new AppError(CODE.CONFLICT, "supply.outOfStock");
  await repo.markSold(tx, ids, { orderId: req.orderId, buyerMerchantId: req.buyerMerchantId, at: now });
  const lowStock = await adjustStock(tx, goods, { stock: -ids.length, sold: ids.length }, now);
  return { cardIds: ids, lowStock };
}
