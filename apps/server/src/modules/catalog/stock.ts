import { isCardBusinessType, type BusinessType } from "@tessera/contracts";
import type { RawBuilder } from "kysely";
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
  return lowStockAfter(tx, goods, notifiedOf(await repo.adjustCounters(tx, goods.id, delta)), now);
}

/**
 * Codes leaving with a sale: moves the counters like adjustStock, but only while the goods is still
 * available, so a sale needs no separate read of the goods inside its transaction. Undefined when the
 * goods was disabled or voided meanwhile (nothing changed).
 */
export async function sellStock(
  tx: Executor,
  goods: { id: number; merchantId: number; name: string },
  quantity: number,
  now: Date,
): Promise<{ lowStock: LowStock | null } | undefined> {
  const after = await repo.adjustCounters(tx, goods.id, { stock: -quantity, sold: quantity }, { onlyAvailable: true });
  return after ? { lowStock: await lowStockAfter(tx, goods, notifiedOf(after), now) } : undefined;
}

/**
 * sellStock as a CTE named `name` in a caller's statement (an order's one statement): moves the
 * counters by `sold` (an expression over the caller's CTEs: the codes the statement took) while the
 * goods is available and `sold` is above zero, and sets or clears the low-stock flag as sellStock
 * would, in the same UPDATE. `result` reads it back for saleOutcome (null when nothing moved).
 */
export function sellStockCte(
  name: string,
  goodsId: number,
  sold: RawBuilder<number>,
  now: Date,
): { cte: RawBuilder<unknown>; result: RawBuilder<unknown> } {
  return repo.sellCountersCte(name, goodsId, sold, now);
}

/**
 * What sellStockCte's result says, like sellStock's answer: undefined when the goods was not available
 * (nothing moved), else the low-stock notice this sale owes, if any: the sale that takes the stock from
 * the threshold or above to below it (sales of a goods are serialised by its row, so exactly one sale
 * per dip does; its UPDATE set the flag). Unlike sellStock it does not notify a sale below a threshold
 * raised meanwhile without a notice; the next dip does.
 */
export function saleOutcome(
  goods: { id: number; merchantId: number; name: string },
  result: unknown,
): { lowStock: LowStock | null } | undefined {
  if (!Array.isArray(result)) return undefined;
  const [stock, threshold, sold] = result as [number, number, number];
  const owed = threshold > 0 && stock < threshold && stock + sold >= threshold;
  return {
    lowStock: owed ? { goodsId: goods.id, merchantId: goods.merchantId, name: goods.name, stock, threshold } : null,
  };
}

async function lowStockAfter(
  tx: Executor,
  goods: { id: number; merchantId: number; name: string },
  after: { stock: number; low_stock_threshold: number; notified: boolean },
  now: Date,
): Promise<LowStock | null> {
  const threshold = after.low_stock_threshold;
  if (threshold > 0 && after.stock < threshold && !after.notified) {
    await repo.setLowStockNotified(tx, goods.id, now);
    return { goodsId: goods.id, merchantId: goods.merchantId, name: goods.name, stock: after.stock, threshold };
  }
  if (after.notified && after.stock >= threshold) await repo.setLowStockNotified(tx, goods.id, null);
  return null;
}

function notifiedOf(c: { stock: number; low_stock_threshold: number; low_stock_notified_at: Date | null }) {
  return { stock: c.stock, low_stock_threshold: c.low_stock_threshold, notified: c.low_stock_notified_at !== null };
}

/**
 * goodsMatching: a keyword condition on another module's goods id column (name contains, or code/id
 * equals); ownGoodsChoices: a merchant's own goods as id and name, for another module's picker or
 * ownership check.
 */
export { goodsMatching, ownGoodsChoices } from "./repo";

/** Names of goods, for lists of other modules (import records, orders). */
export function goodsNames(db: Executor, ids: number[]): Promise<Map<number, string>> {
  return repo.goodsNames(db, ids);
}
