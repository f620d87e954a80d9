import { isCardBusinessType, type BusinessType } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import * as repo from "./repo";

/**
 * What the supply module may do to a goods: lock it while it changes stock, and move the counters in
 * the same transaction as the card rows they count, so stock always equals the available codes.
 */
export interface StockGoods {
  id: number;
  merchantId: number;
  name: string;
  state: "available" | "disabled" | "void";
  cardStock: boolean;
  stock: number;
  perOrderMax: number;
}

/**
 * The goods' stock view; with `lock`, the row is locked (FOR UPDATE) until the transaction ends.
 * Allocation reads without the lock so concurrent orders do not queue on the goods row before
 * picking their codes.
 */
export async function lockGoodsForStock(tx: Executor, goodsId: number, lock = true): Promise<StockGoods | undefined> {
  const row = lock ? await repo.lockGoods(tx, goodsId) : await repo.peekGoods(tx, goodsId);
  if (!row) return undefined;
  return {
    id: row.id,
    merchantId: row.merchant_id,
    name: row.name,
    state: row.state as StockGoods["state"],
    cardStock: isCardBusinessType(row.business_type as BusinessType),
    stock: row.stock,
    perOrderMax: row.per_order_max,
  };
}

export interface LowStock {
  goodsId: number;
  merchantId: number;
  name: string;
  stock: number;
  threshold: number;
}

/**
 * Moves the stock counters. Returns a low-stock notice when stock fell below the goods' threshold for
 * the first time since it was last above it (one notice per dip); rising above re-arms it.
 */
export async function adjustStock(
  tx: Executor,
  goods: { id: number; merchantId: number; name: string },
  delta: { stock?: number; sold?: number; voided?: number; expired?: number },
  now: Date,
): Promise<LowStock | null> {
  return lowStockAfter(tx, goods, await repo.adjustCounters(tx, goods.id, delta), now);
}

/**
 * Codes leaving with a sale: moves the counters like adjustStock, but only while the goods is still
 * available, so a sale needs no separate read of the goods inside its transaction. Undefined when the
 * goods was disabled or voided meanwhile (nothing changed).
 */
export async function sellStock(tx: Executor, goods: { id: number; merchantId: number; name: string }, quantity: number, now: Date): Promise<{ lowStock: LowStock | null } | undefined> {
  const after = await repo.adjustCounters(tx, goods.id, { stock: -quantity, sold: quantity }, { onlyAvailable: true });
  return after ? { lowStock: await lowStockAfter(tx, goods, after, now) } : undefined;
}

async function lowStockAfter(
  tx: Executor,
  goods: { id: number; merchantId: number; name: string },
  after: { stock: number; low_stock_threshold: number; low_stock_notified_at: Date | null },
  now: Date,
): Promise<LowStock | null> {
  const threshold = after.low_stock_threshold;
  if (threshold > 0 && after.stock < threshold && after.low_stock_notified_at === null) {
    await repo.setLowStockNotified(tx, goods.id, now);
    return { goodsId: goods.id, merchantId: goods.merchantId, name: goods.name, stock: after.stock, threshold };
  }
  if (after.low_stock_notified_at !== null && after.stock >= threshold) await repo.setLowStockNotified(tx, goods.id, null);
  return null;
}

/** A keyword condition on another module's goods id column (name contains, or code/id equals). */
export { goodsMatching } from "./repo";

/** Names of goods, for lists of other modules (import records, orders). */
export function goodsNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  return repo.goodsNames(db, ids);
}
