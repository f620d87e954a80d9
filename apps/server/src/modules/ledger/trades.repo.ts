import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * Trade facts: what merchants bought from and sold to each other, read from the ledger entries on their own
 * accounts (the same entries their fund sheets list), never from the modules' order tables. One place
 * decides what counts as a trade, so the provider's charts (LinkData, PurchaseInformation, settlements) and
 * the invoiceable amount cannot disagree with the books.
 *
 * A trade is a ledger transaction whose subject is one of TRADE_SUBJECTS. On a merchant's account, an entry
 * that takes money out of a trade (or brings a refund back) is the buying side; one that brings a trade's
 * money in (or gives a refund back) is the selling side. Customer sales (mall, takeout, payment collection)
 * are not trades between merchants and are not here.
 */
export const TRADE_CATEGORIES = ["goods", "cards", "physical", "sms"] as const;
export type TradeCategory = (typeof TRADE_CATEGORIES)[number];

/** Ledger subject types of trades and their refunds, by what was traded. */
export const TRADE_SUBJECTS: Record<string, TradeCategory> = {
  purchase_order: "goods", // digital goods: direct top-up, card secrets, coupons (purchasing)
  refund_order: "goods",
  onecard_sale: "cards", // stored-value cards bought from a brand (paid into escrow) ...
  onecard_activation: "cards", // ... and the brand paid when the buyer activates them
  onecard_return: "cards",
  commerce_order: "physical", // physical goods: paid into escrow, settled to the brand on completion
  commerce_aftersale: "physical",
  mall_sms_package: "sms", // SMS packages bought from the platform
};

export type TradeSide = "buy" | "sell";

export interface TradeFactFilter {
  /** Merchants whose buying side counts (a provider's vendors; a purchaser's own spend). */
  buyers: readonly number[];
  /** Merchants whose selling side counts (a provider's brands). */
  sellers: readonly number[];
  currency?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const categoryOf = sql<TradeCategory>`CASE t.subject_type ${sql.join(
  Object.entries(TRADE_SUBJECTS).map(([subject, category]) => sql`WHEN ${subject} THEN ${category}`),
  sql` `,
)} END`;

/**
 * The derived table of trade facts, one row per ledger entry of a counted merchant in a trade:
 * merchant_id, side ('buy' | 'sell'), refund (the entry gives or takes back a refund), category, subject_type,
 * subject_id, amount (positive: what was paid, or refunded), at.
 */
export function tradeFactsSql(f: TradeFactFilter): RawBuilder<unknown> {
  const ids = [...new Set([...f.buyers, ...f.sellers])];
  const parts: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`a.merchant_id = ANY(${ids}::bigint[])`,
    sql<SqlBool>`t.subject_type IN (${sql.join(Object.keys(TRADE_SUBJECTS))})`,
  ];
  if (f.currency) parts.push(sql<SqlBool>`t.currency = ${f.currency}`);
  if (f.from) parts.push(sql<SqlBool>`e.created_at >= ${f.from}`);
  if (f.to) parts.push(sql<SqlBool>`e.created_at < ${f.to}`);
  const where = sql.join(parts, sql` AND `);
  // A trade takes money out of the buyer (negative entry); a refund brings it back (positive).
  return sql`
    SELECT x.* FROM (
      SELECT a.merchant_id,
             CASE WHEN (t.kind = 'refund') = (e.amount > 0) THEN 'buy' ELSE 'sell' END AS side,
             t.kind = 'refund' AS refund,
             ${categoryOf} AS category, t.subject_type, t.subject_id, abs(e.amount) AS amount, e.created_at AS at, t.currency
      FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE ${where} AND e.amount <> 0
    ) x
    WHERE (x.side = 'buy' AND x.merchant_id = ANY(${[...f.buyers]}::bigint[]))
       OR (x.side = 'sell' AND x.merchant_id = ANY(${[...f.sellers]}::bigint[]))`;
}

const day = sql`to_char(at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD')`;
const month = sql`to_char(at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM')`;

export interface TradeDay {
  day: string;
  /** Trades paid that day (each counted once, whichever served side it was seen on). */
  trades: number;
  amount: number;
  refunds: number;
  /** Distinct buying merchants among the counted ones. */
  buyers: number;
}

/**
 * Per platform day: trades, their amount, refunds and buyers. A trade seen on both sides (a served buyer and
 * a served seller) counts once, at the larger of the two sides' amounts: the buyer's payment and the seller's
 * income of one subject are the same money.
 */
export async function tradesByDay(db: Executor, f: TradeFactFilter): Promise<TradeDay[]> {
  const r = await sql<{ day: string; trades: string; amount: string; refunds: string; buyers: string }>`
    WITH f AS (${tradeFactsSql(f)}),
    subjects AS (
      SELECT subject_type, subject_id, refund, MIN(at) AS at,
             GREATEST(SUM(amount) FILTER (WHERE side = 'buy'), SUM(amount) FILTER (WHERE side = 'sell')) AS amount
      FROM f GROUP BY subject_type, subject_id, refund
    ),
    buyers AS (SELECT ${day} AS day, COUNT(DISTINCT merchant_id) AS n FROM f WHERE side = 'buy' AND NOT refund GROUP BY 1)
    SELECT s.day, s.trades::text, s.amount::text, s.refunds::text, COALESCE(b.n, 0)::text AS buyers
    FROM (
      SELECT ${day} AS day, COUNT(*) FILTER (WHERE NOT refund AND subject_type <> 'onecard_activation') AS trades,
             COALESCE(SUM(amount) FILTER (WHERE NOT refund), 0) AS amount, COALESCE(SUM(amount) FILTER (WHERE refund), 0) AS refunds
      FROM subjects GROUP BY 1
    ) s LEFT JOIN buyers b ON b.day = s.day
    ORDER BY s.day`.execute(db);
  return r.rows.map((x) => ({
    day: x.day,
    trades: Number(x.trades),
    amount: Number(x.amount),
    refunds: Number(x.refunds),
    buyers: Number(x.buyers),
  }));
}

export interface MerchantTrades {
  merchantId: number;
  side: TradeSide;
  category: TradeCategory;
  currency: string;
  /** A platform month (YYYY-MM) when asked per month. */
  month?: string;
  trades: number;
  amount: number;
  refunds: number;
}

/** Per counted merchant, side and category (and platform month when `perMonth`): trades, amount, refunds. */
export async function tradesByMerchant(
  db: Executor,
  f: TradeFactFilter,
  opts: { perMonth?: boolean } = {},
): Promise<MerchantTrades[]> {
  const monthCol = opts.perMonth ? sql`${month}` : sql`''`;
  const r = await sql<{
    merchant_id: number;
    side: TradeSide;
    category: TradeCategory;
    currency: string;
    month: string;
    trades: string;
    amount: string;
    refunds: string;
  }>`
    SELECT merchant_id, side, category, currency, ${monthCol} AS month,
           COUNT(DISTINCT (subject_type, subject_id)) FILTER (WHERE NOT refund)::text AS trades,
           COALESCE(SUM(amount) FILTER (WHERE NOT refund), 0)::text AS amount,
           COALESCE(SUM(amount) FILTER (WHERE refund), 0)::text AS refunds
    FROM (${tradeFactsSql(f)}) f
    GROUP BY merchant_id, side, category, currency, 5
    ORDER BY 5 DESC, merchant_id, side, category`.execute(db);
  return r.rows.map((x) => ({
    merchantId: Number(x.merchant_id),
    side: x.side,
    category: x.category,
    currency: x.currency,
    ...(opts.perMonth ? { month: x.month } : {}),
    trades: Number(x.trades),
    amount: Number(x.amount),
    refunds: Number(x.refunds),
  }));
}
