import { sql } from "kysely";
import type { Executor } from "../../db/tx";

/**
 * The platform fees a merchant paid, net of fees given back, in one currency: the sum of the entries on
 * the platform's `fees` account in the transactions that also moved one of the merchant's accounts
 * (top-up fees, collection fees and their refunds, mall SMS packages). Every transaction that touches
 * the fees account moves one merchant's money only, so the fee is that merchant's. For the invoices
 * module: fees are invoiceable as services.
 */
export async function feesPaidBy(db: Executor, merchantId: number, currency: string): Promise<number> {
  const r = await sql<{ amount: string }>`
    WITH mine AS (
      SELECT DISTINCT e.transaction_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE a.merchant_id = ${merchantId} AND a.currency = ${currency}
    )
    SELECT COALESCE(SUM(f.amount), 0)::text AS amount
    FROM mine JOIN ledger_entries f ON f.transaction_id = mine.transaction_id JOIN ledger_accounts fa ON fa.id = f.account_id
    WHERE fa.merchant_id IS NULL AND fa.kind = 'fees' AND fa.currency = ${currency}`.execute(db);
  return Number(r.rows[0]?.amount ?? 0);
}
