import { CODE } from "@tessera/contracts";
import type { Tx } from "../../db/tx";
import { platformDay } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { lockGoodsForStock, sellStock, type LowStock } from "../catalog";
import * as repo from "./repo";

export interface AllocateRequest {
  goodsId: number;
  quantity: number;
  orderId: string;
  /** The purchaser: the only party that may later reveal these codes. */
  buyerMerchantId: number;
  /**
   * The goods as the caller read it just before its transaction (an order checks it anyway). Saves a
   * read inside the transaction; availability is still checked there, when the counters move.
   */
  goods?: { merchantId: number; name: string; perOrderMax: number; cardStock: boolean };
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
  const taken = await takeCards(tx, req, now);
  return { cardIds: taken.cardIds, lowStock: await taken.settleStock() };
}

/**
 * allocateCards in two steps, for an order that keeps its contended rows for last: the codes are taken
 * now, and `settleStock()` moves the goods' counters (a row every order of the goods updates) when the
 * caller is ready, just before its commit.
 */
export async function takeCards(tx: Tx, req: AllocateRequest, now: Date): Promise<{ cardIds: number[]; settleStock(): Promise<LowStock | null> }> {
  if (!Number.isSafeInteger(req.quantity) || req.quantity < 1) throw new AppError(CODE.INVALID_PARAMETER, "validation.invalidParameter", { field: "quantity" }, "quantity");
  const goods = req.goods ?? (await availableGoods(tx, req.goodsId));
  if (!goods?.cardStock) throw new AppError(CODE.CONFLICT, "supply.goodsNotAvailable");
  if (req.quantity > goods.perOrderMax) throw new AppError(CODE.INVALID_PARAMETER, "catalog.perOrderInvalid", {}, "quantity");
  const ids = await repo.takeAvailable(tx, req.goodsId, req.quantity, platformDay(now), { orderId: req.orderId, buyerMerchantId: req.buyerMerchantId, at: now });
  if (ids.length < req.quantity) throw new AppError(CODE.CONFLICT, "supply.outOfStock");
  return {
    cardIds: ids,
    async settleStock() {
      const sold = await sellStock(tx, { id: req.goodsId, merchantId: goods.merchantId, name: goods.name }, ids.length, now);
      if (!sold) throw new AppError(CODE.CONFLICT, "supply.goodsNotAvailable");
      return sold.lowStock;
    },
  };
}

/** The goods as allocation needs it, read in the transaction; undefined unless it is available. */
async function availableGoods(tx: Tx, goodsId: number) {
  const goods = await lockGoodsForStock(tx, goodsId, false);
  return goods?.state === "available" ? goods : undefined;
}
