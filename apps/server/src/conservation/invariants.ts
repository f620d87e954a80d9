import { sql } from "kysely";
import type { Executor } from "../db/tx";
import { checkInvariants } from "../modules/ledger";
import { invariantProblems } from "../modules/onecard";
import { commerceProblems } from "./invariants-commerce";
import type { World } from "./world";

/**
 * What must hold in a conservation run (issue 37, point 8). Each check returns the violations it found,
 * described for a person; an empty list means the books are sound.
 *
 * What is checked when (the step count a CI run affords depends on it; run.ts decides):
 * - after every step, `stepViolations`, one statement: each currency's balances sum to zero; no account
 *   below its floor and no card below zero or holding more than it has; every ledger transaction written
 *   since the last step sums to zero; every account those entries touched moved by exactly them;
 * - after a step that changed something, the families about its operation's own objects (run.ts's
 *   TOUCHES: a card operation the cards, a withdrawal or review the payouts, physical goods the commerce
 *   family, a settlement or card redemption the stores);
 * - every family (ledger, escrow, sandbox, payout, codes, cards, stores, commerce), each one statement,
 *   every FULL_EVERY steps, after the daily jobs and at the end of each run; the ledger's and onecard's
 *   whole-database checks at the start and end of each run.
 * A violation the scoped checks miss is found by the next full check: the sequence printed is the run up
 * to there, and shrinking makes it short.
 *
 * The platform's pooled accounts (the order escrow, the sandbox's) are shared by every merchant in the
 * database, and on PostgreSQL a worker's database keeps what earlier test files left. So those are checked
 * as a difference: at the start of a run `baseline` records, per account, the ledger balance less what the
 * business rows say it should hold; after every check that difference must not have moved. On a fresh
 * embedded database it is zero, and it is asserted so there (`offsetProblems`).
 */

type Row = Record<string, unknown>;
export const rows = async <T extends Row>(db: Executor, q: ReturnType<typeof sql<T>>): Promise<T[]> =>
  (await q.execute(db)).rows;
const n = (v: unknown) => Number(v ?? 0);

/** The families of checks `invariantViolations` runs (each described at its function). */
export type Family = "ledger" | "escrow" | "sandbox" | "payout" | "codes" | "cards" | "stores" | "commerce";
export const FAMILIES: readonly Family[] = [
  "ledger",
  "escrow",
  "sandbox",
  "payout",
  "codes",
  "cards",
  "stores",
  "commerce",
];

/**
 * Per pooled platform account and currency: its ledger balance less what it should hold from the business
 * rows alone, in one statement. What each should hold, found by grepping every posting to `order_escrow` /
 * `sandbox_*` (purchasing, stores' settlement, onecard, takeout, collection, mall, commerce):
 * - order_escrow: store vouchers (goods paid on redemption) sold and not yet refunded, voided, expired or
 *   settled (a redeemed voucher waits until its settlement document); direct top-up orders still
 *   processing; one-card cards sold and not yet activated or returned; physical-goods (commerce) orders
 *   paid and not yet completed or closed, less what their after-sales cases refunded.
 * - sandbox_escrow: sandbox takeout orders paid and not yet completed or cancelled, less what was refunded.
 * - sandbox_fees: fees of sandbox payer-page payments, less the fee shares their refunds gave back.
 * (sandbox_income, per merchant, is sandboxProblems'.)
 */
async function offsetsNow(
  db: Executor,
  merchantIds: readonly number[],
): Promise<{ offsets: Map<string, number>; problems: string[] }> {
  const offsets = new Map<string, number>();
  const problems: string[] = [];
  for (const r of await rows<{ k: string | null; v: string | null; p: string | null }>(
    db,
    sql`SELECT k, SUM(v)::text AS v, NULL AS p FROM (
          SELECT kind || ':' || currency AS k, balance AS v FROM ledger_accounts WHERE merchant_id IS NULL
            AND kind IN ('order_escrow', 'sandbox_escrow', 'sandbox_fees')
          UNION ALL
          SELECT 'order_escrow:' || o.currency, -(CASE
              WHEN c.redeemed_at IS NULL THEN o.unit_price
              WHEN NOT EXISTS (SELECT 1 FROM store_redemptions r WHERE r.source = 'coupon' AND r.source_id = c.id AND r.doc_id IS NOT NULL) THEN o.unit_price
              ELSE 0 END)
            FROM purchase_orders o JOIN supply_cards c ON c.order_id = o.id::text AND c.buyer_merchant_id = o.purchaser_merchant_id
            WHERE o.held_until_redeemed AND o.state = 'success' AND c.state = 'sold'
          UNION ALL
          SELECT 'order_escrow:' || currency, -amount FROM purchase_orders WHERE state = 'processing'
          UNION ALL
          SELECT 'order_escrow:' || currency, -COALESCE(sale_price, 0) FROM onecard_cards WHERE state = 'sold'
          UNION ALL
          SELECT 'order_escrow:' || currency, -(pay_amount - refunded_amount) FROM commerce_orders
            WHERE state IN ('to_ship', 'shipped', 'received')
          UNION ALL
          SELECT 'sandbox_escrow:' || currency, -(total - refunded) FROM takeout_orders WHERE sandbox
            AND state IN ('to_be_accepted', 'accepted', 'delivering')
          UNION ALL
          SELECT 'sandbox_fees:' || currency, -(fee - fee_refunded) FROM pay_orders WHERE sandbox AND state = 'SUCCESS'
        ) x GROUP BY k
        UNION ALL
        SELECT NULL, NULL, 'escrow: merchant ' || id || ': withdrawal hold ' || held || ' but withdrawals in progress ' || owed FROM (
          SELECT m.id,
            COALESCE((SELECT SUM(balance) FROM ledger_accounts a WHERE a.merchant_id = m.id AND a.kind = 'withdrawal_hold'), 0) AS held,
            COALESCE((SELECT SUM(amount) FROM withdrawals x WHERE x.merchant_id = m.id AND x.state IN ('under_review',
              'first_review_passed', 'bank_paying')), 0) AS owed
          FROM merchants m WHERE m.id IN (${sql.join(merchantIds.length > 0 ? merchantIds : [0])})) x WHERE held <> owed`,
  )) {
    if (r.p !== null) problems.push(r.p);
    else if (r.k !== null) offsets.set(r.k, n(r.v));
  }
  return { offsets, problems };
}

export interface Baseline {
  /** Per pooled account: ledger balance less the business rows' figure, at the start. */
  offsets: Map<string, number>;
  /** Ledger transactions after this id are the run's (the structural checks read only those). */
  lastTransactionId: number;
  /** Every account's balance at the start: what the run's entries must have moved it from. */
  balances: Map<string, number>;
  /** The step check's cursor: the last transaction it saw, and the balances of the accounts as it saw them. */
  seen: { transactionId: number; balances: Map<string, number> };
}

export async function baseline(db: Executor): Promise<Baseline> {
  const last = await rows<{ id: string | null }>(db, sql`SELECT MAX(id)::text AS id FROM ledger_transactions`);
  const balances = new Map(
    (await rows<{ id: string; balance: string }>(db, sql`SELECT id::text, balance::text FROM ledger_accounts`)).map(
      (r) => [r.id, n(r.balance)],
    ),
  );
  const lastTransactionId = n(last[0]?.id);
  return {
    offsets: (await offsetsNow(db, [])).offsets,
    lastTransactionId,
    balances,
    seen: { transactionId: lastTransactionId, balances: new Map(balances) },
  };
}

/** On a fresh database every pooled account must equal what the business rows owe, exactly. */
export function offsetProblems(b: Baseline): string[] {
  return [...b.offsets]
    .filter(([, v]) => v !== 0)
    .map(([k, v]) => `${k} differs from what it owes by ${v} before the run`);
}

/**
 * The ledger's and the cards' own whole-database checks (ledger checkInvariants: every transaction sums to
 * zero, balances equal their entries, each currency sums to zero, no merchant account negative; onecard's
 * invariantProblems: cards' balances equal their moves, sales equal their cards and money). They read every
 * entry, so a run makes them at its start and end; in between the families below make the same checks over
 * what the run wrote.
 */
export async function wholeDatabaseViolations(db: Executor): Promise<string[]> {
  return [
    ...(await checkInvariants(db)).map((p) => `ledger: ${p}`),
    ...(await invariantProblems(db)).map((p) => `onecard: ${p}`),
  ];
}

/**
 * The checks made after every step, whatever it was: the ledger balances per currency, no balance below
 * its floor, and the step's own ledger writes (the transactions since the last call sum to zero; each
 * account they touched moved by exactly its entries). Advances `b.seen`.
 */
export async function stepViolations(w: World, b: Baseline): Promise<string[]> {
  const started = performance.now();
  try {
    return await stepViolationsNow(w, b);
  } finally {
    checkTimes.set("step", (checkTimes.get("step") ?? 0) + performance.now() - started);
  }
}

async function stepViolationsNow(w: World, b: Baseline): Promise<string[]> {
  const since = b.seen.transactionId;
  const problems: string[] = [];
  let last = since;
  for (const r of await rows<{ p: string | null; id: string | null; balance: string; moved: string; last: string }>(
    w.t.ctx.database.db,
    sql`SELECT 'ledger: ' || currency || ' balances sum to ' || SUM(balance) AS p, NULL AS id, '0' AS balance,
            '0' AS moved, '0' AS last
          FROM ledger_accounts GROUP BY currency HAVING SUM(balance) <> 0
        UNION ALL
        SELECT 'floor: account ' || id || ' (' || kind || ') is ' || balance, NULL, '0', '0', '0' FROM ledger_accounts
          WHERE balance < 0 AND NOT allow_negative
        UNION ALL
        SELECT 'floor: card ' || id || ' is below zero or holds more than it has', NULL, '0', '0', '0' FROM onecard_cards
          WHERE balance < 0 OR held < 0 OR held > balance
        UNION ALL
        SELECT 'ledger: transaction ' || transaction_id || ' sums to ' || SUM(amount), NULL, '0', '0', '0' FROM ledger_entries
          WHERE transaction_id > ${since} GROUP BY transaction_id HAVING SUM(amount) <> 0
        UNION ALL
        SELECT NULL, a.id::text, a.balance::text, SUM(e.amount)::text, MAX(e.transaction_id)::text
          FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
          WHERE e.transaction_id > ${since} GROUP BY a.id, a.balance`,
  )) {
    if (r.p !== null) {
      problems.push(r.p);
      continue;
    }
    if (r.id === null) continue;
    const expected = (b.seen.balances.get(r.id) ?? 0) + n(r.moved);
    if (n(r.balance) !== expected) {
      problems.push(`ledger: account ${r.id} holds ${r.balance} but was ${expected - n(r.moved)} and moved ${r.moved}`);
    }
    b.seen.balances.set(r.id, n(r.balance));
    last = Math.max(last, n(r.last));
  }
  b.seen.transactionId = last;
  return problems;
}

/** CONSERVATION_TIMING=1: milliseconds spent per family of checks (run.ts prints them). */
export const checkTimes = new Map<string, number>();

const checks: Record<Family, (w: World, b: Baseline) => Promise<string[]>> = {
  ledger: (w, b) => ledgerProblems(w, b),
  escrow: (w, b) => escrowProblems(w, b),
  sandbox: (w, b) => sandboxProblems(w, b),
  payout: (w, b) => payoutProblems(w, b),
  codes: (w) => codeProblems(w),
  cards: (w) => cardProblems(w),
  stores: (w) => storeProblems(w),
  commerce: (w) => commerceProblems(w),
};

/** The checks of `families` (every family unless told), in one list, after the step checks. */
export async function invariantViolations(
  w: World,
  b: Baseline,
  families: Iterable<Family> = FAMILIES,
): Promise<string[]> {
  const problems = await stepViolations(w, b);
  for (const f of new Set(families)) {
    const started = performance.now();
    problems.push(...(await checks[f](w, b)));
    checkTimes.set(f, (checkTimes.get(f) ?? 0) + performance.now() - started);
    checkTimes.set(`${f}#`, (checkTimes.get(`${f}#`) ?? 0) + 1);
  }
  return problems;
}

/** Runs a statement whose rows are problems described for a person (`p`). */
async function problemsOf(db: Executor, q: ReturnType<typeof sql<{ p: string }>>): Promise<string[]> {
  return (await rows(db, q)).map((r) => r.p);
}

/**
 * The ledger balances, over the run's transactions: each sums to zero; every account moved from its balance
 * at the start by exactly the run's entries on it; only the two clearing accounts (mirrors of money
 * outside) may go negative. (Each currency summing to zero is a step check.) One statement: the problems it
 * sees alone, and each account's balance less the run's entries, compared here with the start.
 */
async function ledgerProblems(w: World, b: Baseline): Promise<string[]> {
  const problems: string[] = [];
  for (const r of await rows<{ p: string | null; id: string | null; start: string | null }>(
    w.t.ctx.database.db,
    sql`SELECT 'ledger: transaction ' || transaction_id || ' sums to ' || SUM(amount) AS p, NULL AS id, NULL AS start
          FROM ledger_entries WHERE transaction_id > ${b.lastTransactionId} GROUP BY transaction_id HAVING SUM(amount) <> 0
        UNION ALL
        SELECT 'floor: account ' || id || ' (' || kind || ') may go negative', NULL, NULL FROM ledger_accounts
          WHERE allow_negative AND kind NOT IN ('bank_clearing', 'sandbox_clearing')
        UNION ALL
        SELECT NULL, a.id::text, (a.balance - COALESCE(m.s, 0))::text FROM ledger_accounts a
          LEFT JOIN (SELECT account_id, SUM(amount) AS s FROM ledger_entries WHERE transaction_id > ${b.lastTransactionId}
            GROUP BY account_id) m ON m.account_id = a.id`,
  )) {
    if (r.p !== null) problems.push(r.p);
    else if (r.id !== null && n(r.start) !== (b.balances.get(r.id) ?? 0)) {
      problems.push(
        `ledger: account ${r.id} holds what its balance at the start (${b.balances.get(r.id) ?? 0}) and the run's ` +
          `entries do not make (they make it start at ${r.start})`,
      );
    }
  }
  return problems;
}

/**
 * Each escrow equals the sum of what it still owes (see offsetsNow), and each merchant's withdrawal hold
 * its withdrawals in progress.
 */
async function escrowProblems(w: World, b: Baseline): Promise<string[]> {
  const now = await offsetsNow(w.t.ctx.database.db, w.merchantIds);
  const problems = now.problems;
  for (const key of new Set([...now.offsets.keys(), ...b.offsets.keys()])) {
    const moved = (now.offsets.get(key) ?? 0) - (b.offsets.get(key) ?? 0);
    if (moved !== 0) problems.push(`escrow: ${key} differs by ${moved} from what it still owes`);
  }
  return problems;
}

/**
 * Sandbox money stays in the sandbox: no ledger transaction of the run mixes sandbox accounts with real
 * ones (so test money can never reach income, a withdrawal hold or bank clearing); every customer payment
 * the local adapter took is marked sandbox and moved only sandbox accounts; the sandbox accounts sum to zero
 * among themselves; each merchant's sandbox income is what its sandbox sales left it.
 */
async function sandboxProblems(w: World, b: Baseline): Promise<string[]> {
  const ids = sql.join(w.merchantIds);
  return problemsOf(
    w.t.ctx.database.db,
    sql`SELECT 'sandbox: transaction ' || t.id || ' (' || t.kind || ') mixes test money with real money or comes from elsewhere' AS p
        FROM ledger_transactions t
        JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.id > ${b.lastTransactionId}
        GROUP BY t.id, t.kind
        HAVING bool_or(a.kind LIKE 'sandbox%') AND (bool_or(a.kind NOT LIKE 'sandbox%')
          OR bool_or(t.subject_type NOT IN ('mall_order', 'takeout_order', 'pay_order', 'pay_refund')))
            OR (bool_or(t.subject_type IN ('mall_order', 'takeout_order', 'pay_order', 'pay_refund')) AND bool_or(a.kind NOT LIKE 'sandbox%'))
        UNION ALL
        SELECT 'sandbox: ' || what || ' was paid through the local adapter but is not marked test money' FROM (
          SELECT 'mall order ' || id AS what FROM mall_orders WHERE merchant_id IN (${ids}) AND pay_method = 'wallet' AND NOT sandbox
          UNION ALL SELECT 'takeout order ' || id FROM takeout_orders WHERE merchant_id IN (${ids}) AND paid_at IS NOT NULL AND NOT sandbox
          UNION ALL SELECT 'payer-page payment ' || id FROM pay_orders WHERE merchant_id IN (${ids}) AND state = 'SUCCESS' AND NOT sandbox) x
        UNION ALL
        SELECT 'sandbox: ' || currency || ' sandbox accounts sum to ' || SUM(balance) || ', not zero' FROM ledger_accounts
          WHERE kind LIKE 'sandbox%' GROUP BY currency HAVING SUM(balance) <> 0
        UNION ALL
        SELECT 'sandbox: merchant ' || id || ' has sandbox income ' || held || ' but its sandbox sales left it ' || owed FROM (
          SELECT m.id,
            COALESCE((SELECT SUM(balance) FROM ledger_accounts a WHERE a.merchant_id = m.id AND a.kind = 'sandbox_income'), 0) AS held,
            COALESCE((SELECT SUM(amount - refunded) FROM mall_orders o WHERE o.merchant_id = m.id AND o.sandbox AND o.state <> 'refunded'), 0)
             + COALESCE((SELECT SUM(total) FROM takeout_orders o WHERE o.merchant_id = m.id AND o.sandbox AND o.state = 'completed'), 0)
             + COALESCE((SELECT SUM(amount - fee - refunded + fee_refunded) FROM pay_orders o WHERE o.merchant_id = m.id
               AND o.sandbox AND o.state = 'SUCCESS'), 0) AS owed
          FROM merchants m WHERE m.id IN (${ids})) x WHERE held <> owed`,
  );
}

/**
 * Nothing is paid out that was not paid in: a payout (withdrawal_payout) moves only a merchant's withdrawal
 * hold to bank clearing; the run's merchants' finished withdrawals equal their payouts in the ledger; and
 * what left for the bank never exceeds the real money credited to the accounts withdrawals draw from
 * (income and reserve, releases of failed withdrawals not counted as new money).
 */
async function payoutProblems(w: World, b: Baseline): Promise<string[]> {
  return problemsOf(
    w.t.ctx.database.db,
    sql`SELECT 'payout: transaction ' || t.id || ' pays out from something other than a withdrawal hold' AS p
        FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.id > ${b.lastTransactionId} AND t.kind = 'withdrawal_payout'
        GROUP BY t.id
        HAVING NOT bool_and((a.kind = 'withdrawal_hold' AND e.amount < 0) OR (a.kind = 'bank_clearing' AND a.merchant_id IS NULL AND e.amount > 0))
        UNION ALL
        SELECT CASE WHEN paid <> booked
            THEN 'payout: merchant ' || id || ': finished withdrawals ' || paid || ' differ from the payouts booked ' || booked
            ELSE 'payout: merchant ' || id || ' was paid out ' || paid || ', more than the ' || credited || ' credited to it' END
        FROM (SELECT m.id,
          COALESCE((SELECT SUM(amount) FROM withdrawals x WHERE x.merchant_id = m.id AND x.state = 'success'), 0) AS paid,
          COALESCE((SELECT -SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
            JOIN ledger_transactions t ON t.id = e.transaction_id
                    WHERE a.merchant_id = m.id AND a.kind = 'withdrawal_hold' AND t.kind = 'withdrawal_payout'), 0) AS booked,
          COALESCE((SELECT SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
            JOIN ledger_transactions t ON t.id = e.transaction_id
                    WHERE a.merchant_id = m.id AND a.kind IN ('income', 'reserve') AND e.amount > 0 AND t.kind <> 'withdrawal_release'), 0) AS credited
        FROM merchants m WHERE m.id IN (${sql.join(w.merchantIds)})) x WHERE paid <> booked OR paid > credited`,
  );
}

/**
 * Every code is in exactly one state, and the counts agree: the goods' stock counters equal the codes in
 * each state; a redeemed code is sold and has exactly one redemption; a sold, void or expired code of an
 * order belongs to it; each order's codes are its quantity, and what its refunds took back is its void and
 * expired codes, at the order's unit price; a code delivered in a mall order not refunded was never voided
 * (its customer holds it; a store voucher may have expired unredeemed, refunded by the daily job to the
 * purchaser and, for what the unit cost, to the customer), one in a refunded mall order is no longer sold; a
 * mall order paid back what its paid-back units cost (all of it once refunded), never more than it was paid.
 */
async function codeProblems(w: World): Promise<string[]> {
  const goods = sql.join([w.goods.secret, w.goods.voucher]);
  return problemsOf(
    w.t.ctx.database.db,
    sql`SELECT 'codes: goods ' || id || ' counts available/sold/void/expired ' || stock || '/' || sold || '/' || voided
            || '/' || expired || ' but its codes are ' || a || '/' || s || '/' || v || '/' || e AS p
        FROM (SELECT g.id, g.stock, g.sold, g.voided, g.expired,
          COUNT(c.id) FILTER (WHERE c.state = 'available') AS a, COUNT(c.id) FILTER (WHERE c.state = 'sold') AS s,
          COUNT(c.id) FILTER (WHERE c.state = 'void') AS v, COUNT(c.id) FILTER (WHERE c.state = 'expired') AS e
          FROM catalog_goods g LEFT JOIN supply_cards c ON c.goods_id = g.id
          WHERE g.id IN (${goods}) GROUP BY g.id, g.stock, g.sold, g.voided, g.expired) x
        WHERE stock <> a OR sold <> s OR voided <> v OR expired <> e
        UNION ALL
        SELECT 'codes: code ' || c.id || ' redeemed but ' || c.state FROM supply_cards c
          WHERE c.goods_id IN (${goods}) AND c.redeemed_at IS NOT NULL AND c.state <> 'sold'
        UNION ALL
        SELECT 'codes: code ' || c.id || ' redeemed ' || COUNT(r.id) || ' times, marked ' || (c.redeemed_at IS NOT NULL)
          FROM supply_cards c LEFT JOIN store_redemptions r ON r.source = 'coupon' AND r.source_id = c.id
          WHERE c.goods_id IN (${goods}) GROUP BY c.id, c.redeemed_at
          HAVING COUNT(r.id) <> (CASE WHEN c.redeemed_at IS NULL THEN 0 ELSE 1 END)
        UNION ALL
        SELECT 'codes: code ' || c.id || ' ' || c.state || ' without an order' FROM supply_cards c
          WHERE c.goods_id IN (${goods}) AND c.state IN ('sold', 'void') AND (c.order_id IS NULL OR c.buyer_merchant_id IS NULL)
        UNION ALL
        SELECT 'codes: code ' || c.id || ' available but bought' FROM supply_cards c WHERE c.goods_id IN (${goods})
          AND c.state = 'available' AND (c.order_id IS NOT NULL OR c.redeemed_at IS NOT NULL OR c.resold_at IS NOT NULL)
        UNION ALL
        SELECT 'codes: code ' || c.id || ' delivered in live mall order ' || o.id || ' but ' || c.state FROM mall_deliveries d
          JOIN mall_orders o ON o.id = d.order_id JOIN supply_cards c ON c.id = d.card_id
          WHERE c.goods_id IN (${goods}) AND o.state <> 'refunded' AND c.state NOT IN ('sold', 'expired')
        UNION ALL
        SELECT 'codes: code ' || c.id || ' delivered in refunded mall order ' || o.id || ' but still sold' FROM mall_deliveries d
          JOIN mall_orders o ON o.id = d.order_id JOIN supply_cards c ON c.id = d.card_id
          WHERE c.goods_id IN (${goods}) AND o.state = 'refunded' AND c.state = 'sold'
        UNION ALL
        SELECT 'codes: code ' || c.id || ' expired unused in mall order ' || o.id || ' but its customer was not paid back'
          FROM mall_deliveries d JOIN mall_orders o ON o.id = d.order_id JOIN supply_cards c ON c.id = d.card_id
          WHERE c.goods_id IN (${goods}) AND o.state <> 'refunded' AND c.state = 'expired' AND d.refunded_at IS NULL
        UNION ALL
        SELECT 'codes: mall order ' || o.id || ' (' || o.state || ') paid back ' || o.refunded || ' of ' || o.amount
            || ' but the units it paid back cost ' || COALESCE(SUM(d.price) FILTER (WHERE d.refunded_at IS NOT NULL), 0)
          FROM mall_orders o JOIN mall_deliveries d ON d.order_id = o.id
          WHERE o.merchant_id IN (${sql.join(w.merchantIds)})
          GROUP BY o.id, o.state, o.refunded, o.amount
          HAVING o.refunded > o.amount OR (o.state = 'refunded' AND o.refunded <> o.amount)
            OR (o.state <> 'refunded' AND o.refunded <> COALESCE(SUM(d.price) FILTER (WHERE d.refunded_at IS NOT NULL), 0))
        UNION ALL
        SELECT CASE
            WHEN codes <> quantity THEN 'codes: order ' || id || ' of ' || quantity || ' holds ' || codes || ' codes'
            WHEN back <> refunded THEN 'codes: order ' || id || ' refunded ' || refunded || ' codes but ' || back || ' are void or expired'
            ELSE 'codes: order ' || id || ' refunded ' || refund_amount || ' for ' || refunded || ' codes of ' || unit_price END
        FROM (SELECT o.id, o.quantity, o.unit_price,
          (SELECT COUNT(*) FROM supply_cards c WHERE c.order_id = o.id::text) AS codes,
          -- A card secret handed on to a mall customer and refunded there is voided with nothing refunded
          -- to the purchaser: it paid the supplier at sale and stays paid (purchasing/handed-on-refund.ts).
          (SELECT COUNT(*) FROM supply_cards c WHERE c.order_id = o.id::text AND c.state IN ('void', 'expired')
             AND NOT (c.state = 'void' AND c.resold_at IS NOT NULL AND NOT o.held_until_redeemed)) AS back,
          COALESCE((SELECT SUM(quantity) FROM refund_orders f WHERE f.order_id = o.id AND f.state = 'success'), 0) AS refunded,
          COALESCE((SELECT SUM(amount) FROM refund_orders f WHERE f.order_id = o.id AND f.state = 'success'), 0) AS refund_amount
        FROM purchase_orders o WHERE o.goods_id IN (${goods}) AND o.state = 'success') x
        WHERE codes <> quantity OR back <> refunded OR refund_amount <> refunded * unit_price`,
  );
}

/**
 * Every one-card card of the run is in exactly one state, with the fields that state implies; each
 * activation moved the sale price of its cards; a card's balance equals the sum of its moves, what it holds
 * its open holds; each sale has its cards.
 */
async function cardProblems(w: World): Promise<string[]> {
  const product = Number(w.cardProductId);
  return problemsOf(
    w.t.ctx.database.db,
    sql`SELECT 'cards: card ' || c.id || ' is ' || c.state || ' with fields of another state' AS p
        FROM onecard_cards c WHERE c.product_id = ${product} AND NOT (
          (c.state = 'issued' AND c.owner_id IS NULL AND c.sale_id IS NULL AND c.activation_id IS NULL AND c.balance = 0)
       OR (c.state = 'sold' AND c.owner_id IS NOT NULL AND c.sale_id IS NOT NULL AND c.activation_id IS NULL AND c.return_id IS NULL AND c.balance = 0)
       OR (c.state = 'activated' AND c.sale_id IS NOT NULL AND c.activation_id IS NOT NULL AND c.return_id IS NULL)
       OR (c.state = 'returned' AND c.sale_id IS NOT NULL AND c.return_id IS NOT NULL AND c.activation_id IS NULL AND c.balance = 0))
        UNION ALL
        SELECT 'cards: activation ' || a.id || ' moved ' || a.amount || ' for cards sold at '
            || (SELECT COALESCE(SUM(sale_price), 0) FROM onecard_cards c WHERE c.activation_id = a.id)
          FROM onecard_activations a WHERE a.purchaser_id IN (${sql.join(w.merchantIds)})
            AND a.amount <> (SELECT COALESCE(SUM(sale_price), 0) FROM onecard_cards c WHERE c.activation_id = a.id)
        UNION ALL
        SELECT 'cards: card ' || c.id || ' holds ' || c.balance || ' but its moves sum to '
            || (SELECT COALESCE(SUM(v.amount), 0) FROM onecard_moves v WHERE v.card_id = c.id)
          FROM onecard_cards c WHERE c.product_id = ${product}
            AND c.balance <> (SELECT COALESCE(SUM(v.amount), 0) FROM onecard_moves v WHERE v.card_id = c.id)
        UNION ALL
        SELECT 'cards: card ' || c.id || ' holds ' || c.held || ' but its open holds differ' FROM onecard_cards c
          WHERE c.product_id = ${product}
            AND c.held <> (SELECT COALESCE(SUM(h.amount), 0) FROM onecard_holds h WHERE h.card_id = c.id AND h.state = 'held')
        UNION ALL
        SELECT 'cards: sale ' || s.id || ' has ' || (SELECT COUNT(*) FROM onecard_cards c WHERE c.sale_id = s.id)
            || ' cards for ' || s.quantity FROM onecard_sales s
          WHERE s.product_id = ${product} AND s.quantity <> (SELECT COUNT(*) FROM onecard_cards c WHERE c.sale_id = s.id)`,
  );
}

/**
 * Write-off at the brand's stores: a settlement document settles exactly the money its redemptions left
 * waiting in the escrow (store vouchers' prices), and the ledger moved exactly that to the brand; a card
 * redemption leaves nothing waiting (the card's money was paid to the brand at activation) and took exactly
 * its value off the card, once.
 */
async function storeProblems(w: World): Promise<string[]> {
  const brand = Number(w.supplier.merchantId);
  return problemsOf(
    w.t.ctx.database.db,
    sql`SELECT 'stores: settlement document ' || d.id || ' settles ' || d.amount || ' but its redemptions held '
            || COALESCE(h.s, 0) || ' and the ledger paid the brand ' || COALESCE(l.s, 0) AS p
        FROM store_settlement_docs d
        LEFT JOIN (SELECT doc_id, SUM(held_amount) AS s FROM store_redemptions WHERE brander_id = ${brand}
          GROUP BY doc_id) h ON h.doc_id = d.id
        LEFT JOIN (SELECT t.subject_id, SUM(e.amount) AS s FROM ledger_transactions t
          JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
          WHERE t.subject_type = 'store_settlement_doc' AND a.kind = 'income' AND a.merchant_id = ${brand}
          GROUP BY t.subject_id) l ON l.subject_id = d.id::text
        WHERE d.brander_id = ${brand} AND (d.amount <> COALESCE(h.s, 0) OR d.amount <> COALESCE(l.s, 0))
        UNION ALL
        SELECT 'stores: card redemption ' || r.id || ' of ' || r.value || ' holds ' || r.held_amount || ' in the escrow'
          FROM store_redemptions r WHERE r.brander_id = ${brand} AND r.source = 'onecard' AND r.held_amount <> 0
        UNION ALL
        SELECT 'stores: card redemption ' || r.id || ' of ' || r.value || ' took ' || COALESCE(-m.amount, 0) || ' off card ' || r.source_id
          FROM store_redemptions r
          LEFT JOIN onecard_moves m ON m.card_id = r.source_id AND m.request_key = 'store:' || r.brander_id || ':' || r.request_key
          WHERE r.brander_id = ${brand} AND r.source = 'onecard' AND (m.id IS NULL OR m.amount <> -r.value OR m.kind <> 'redeem')`,
  );
}

/**
 * A fingerprint of the run's money and goods: balances, transaction count, every code's, card's and
 * order's state. A refused operation must leave it as it was.
 */
export async function fingerprint(w: World): Promise<string> {
  const started = performance.now();
  try {
    return await fingerprintNow(w);
  } finally {
    checkTimes.set("fingerprint", (checkTimes.get("fingerprint") ?? 0) + performance.now() - started);
  }
}

async function fingerprintNow(w: World): Promise<string> {
  const db = w.t.ctx.database.db;
  const ids = sql.join(w.merchantIds);
  const r = await rows<{ f: string }>(
    db,
    sql`SELECT concat_ws('|',
          -- A refused post rolls its transaction row back: the highest id stays (an index read, not a count).
          (SELECT MAX(id) FROM ledger_transactions),
          (SELECT md5(string_agg(id || ':' || balance, ',' ORDER BY id)) FROM ledger_accounts WHERE merchant_id IS NULL OR merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || (redeemed_at IS NULL), ',' ORDER BY id)) FROM supply_cards WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || stock || ':' || sold || ':' || voided || ':' || expired, ','
            ORDER BY id)) FROM catalog_goods WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || balance || ':' || COALESCE(owner_id,
            0) || ':' || COALESCE(gift_id, 0), ',' ORDER BY id)) FROM onecard_cards WHERE brander_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state, ',' ORDER BY id)) FROM withdrawals WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || refunded, ',' ORDER BY id)) FROM mall_orders WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || refunded, ',' ORDER BY id)) FROM takeout_orders WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || refunded, ',' ORDER BY id)) FROM pay_orders WHERE merchant_id IN (${ids})),
          (SELECT COUNT(*) FROM store_redemptions WHERE brander_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || refunded_amount, ',' ORDER BY id)) FROM commerce_orders
            WHERE brand_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state, ',' ORDER BY id)) FROM commerce_aftersales WHERE brand_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || stock || ':' || sold, ',' ORDER BY id)) FROM commerce_skus
            WHERE merchant_id IN (${ids}))
        ) AS f`,
  );
  return r[0]?.f ?? "";
}
