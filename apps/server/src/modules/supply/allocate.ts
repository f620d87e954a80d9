import { CODE } from "@tessera/contracts";
import { sql, type RawBuilder } from "kysely";
import type { Tx } from "../../db/tx";
import { platformDay } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import { lockGoodsForStock, saleOutcome, sellStock, sellStockCte, type LowStock } from "../catalog";
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
export async function takeCards(
  tx: Tx,
  req: AllocateRequest,
  now: Date,
): Promise<{ cardIds: number[]; settleStock(): Promise<LowStock | null> }> {
  const goods = req.goods ?? (await availableGoods(tx, req.goodsId));
  checkRequest(req, goods);
  const ids = await repo.takeAvailable(tx, req.goodsId, req.quantity, platformDay(now), {
    orderId: req.orderId,
    buyerMerchantId: req.buyerMerchantId,
    at: now,
  });
  if (ids.length < req.quantity) throw new AppError(CODE.CONFLICT, "supply.outOfStock");
  return {
    cardIds: ids,
    async settleStock() {
      const sold = await sellStock(
        tx,
        { id: req.goodsId, merchantId: goods.merchantId, name: goods.name },
        ids.length,
        now,
      );
      if (!sold) throw new AppError(CODE.CONFLICT, "supply.goodsNotAvailable");
      return sold.lowStock;
    },
  };
}

/**
 * allocateCards as part of a caller's one statement (an order's), for a caller that read the goods
 * already: `ctes(onlyIf)` take the codes (only when `onlyIf`, a query, returns a row) and move the
 * goods' counters by what was taken; `refusal` names why the statement must be refused (fewer codes
 * than asked: supply.outOfStock; the goods no longer available: supply.goodsNotAvailable) or is NULL;
 * `result` reads the part back for `outcome`. Its CTEs are named `cards_*`.
 */
export function allocationPart(
  req: AllocateRequest & { goods: NonNullable<AllocateRequest["goods"]> },
  now: Date,
): {
  ctes(onlyIf: RawBuilder<unknown>): RawBuilder<unknown>;
  refusal: RawBuilder<string | null>;
  result: RawBuilder<unknown>;
  outcome(value: unknown): Allocation;
} {
  const goods = req.goods;
  checkRequest(req, goods);
  const taken = sql<number>`(SELECT count(*) FROM cards_taken)::integer`;
  const stock = sellStockCte("cards_stock", req.goodsId, taken, now);
  return {
    ctes: (onlyIf) =>
      sql`${repo.takeAvailableCtes("cards_taken", req.goodsId, req.quantity, platformDay(now), { orderId: req.orderId, buyerMerchantId: req.buyerMerchantId, at: now }, onlyIf)},
        ${stock.cte}`,
    refusal: sql<
      string | null
    >`CASE WHEN ${taken} < ${req.quantity}::integer THEN 'supply.outOfStock' WHEN NOT EXISTS (SELECT 1 FROM cards_stock) THEN 'supply.goodsNotAvailable' END`,
    result: sql`json_build_array((SELECT coalesce(json_agg(id ORDER BY id), '[]'::json) FROM cards_taken), ${stock.result})`,
    outcome(value) {
      const [ids, counters] = value as [number[], unknown];
      const sold = saleOutcome({ id: req.goodsId, merchantId: goods.merchantId, name: goods.name }, counters);
      // The statement refuses itself short of either; reaching here without them is a bug.
      if (ids.length < req.quantity || !sold) throw new Error("allocation: the statement should have refused");
      return { cardIds: ids.map(Number), lowStock: sold.lowStock };
    },
  };
}

/** The rules of every allocation: a quantity of at least one, within the goods' limit, of a goods sold from stock. */
function checkRequest<G extends { perOrderMax: number; cardStock: boolean }>(
  req: AllocateRequest,
  goods: G | undefined,
): asserts goods is G {
  if (!Number.isSafeInteger(req.quantity) || req.quantity < 1) {
    throw new AppError(CODE.INVALID_PARAMETER, "validation.invalidParameter", { field: "quantity" }, "quantity");
  }
  if (!goods?.cardStock) throw new AppError(CODE.CONFLICT, "supply.goodsNotAvailable");
  if (req.quantity > goods.perOrderMax) {
    throw new AppError(CODE.INVALID_PARAMETER, "order.overPerOrderMax", { max: goods.perOrderMax }, "quantity");
  }
}

/** The goods as allocation needs it, read in the transaction; undefined unless it is available. */
async function availableGoods(tx: Tx, goodsId: number) {
  const goods = await lockGoodsForStock(tx, goodsId, false);
  return goods?.state === "available" ? goods : undefined;
}
