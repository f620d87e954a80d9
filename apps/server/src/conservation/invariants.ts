import { sql } from "kysely";
import type { Executor } from "../db/tx";
import { checkInvariants } from "../modules/ledger";
import { invariantProblems } from "../modules/onecard";
import type { World } from "./world";

/**
 * What must hold after every step of a conservation run (issue 37, point 8). Each check returns the
 * violations it found, described for a person; an empty list means the books are sound.
 *
 * The platform's pooled accounts (the order escrow, the sandbox's) are shared by every merchant in the
 * database, and on PostgreSQL a worker's database keeps what earlier test files left. So those are checked
 * as a difference: at the start of a run `baseline` records, per account, the ledger balance less what the
 * business rows say it should hold; after every step that difference must not have moved. On a fresh
 * embedded database it is zero, and it is asserted so there (`expectZeroOffsets`).
 */

type Row = Record<string, unknown>;
const rows = async <T extends Row>(db: Executor, q: ReturnType<typeof sql<T>>): Promise<T[]> =>
  (await q.execute(db)).rows;
const n = (v: unknown) => Number(v ?? 0);

/**
 * What each pooled platform account should hold, from the business rows alone, per currency. Found by
 * grepping every posting to `order_escrow` / `sandbox_*` (purchasing, stores' settlement, onecard, takeout,
 * collection, mall, commerce):
 * - order_escrow: store vouchers (goods paid on redemption) sold and not yet refunded, voided, expired or
 *   settled (a redeemed voucher waits until its settlement document); direct top-up orders still
 *   processing; one-card cards sold and not yet activated or returned. Commerce's physical-goods orders
 *   also pass through it, but the runs place none: their part is covered by the offset (zero on a fresh
 *   database, and nothing in a run moves it).
 * - sandbox_escrow: sandbox takeout orders paid and not yet completed or cancelled, less what was refunded.
 * - sandbox_fees: fees of sandbox payer-page payments, less the fee shares their refunds gave back.
 * - sandbox_income (per merchant, the run's merchants): sandbox mall wallet orders not refunded, completed
 *   sandbox takeout orders, sandbox payer-page payments net of fee and refunds.
 */
async function derivedPools(db: Executor): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const add = (key: string, v: unknown) => out.set(key, (out.get(key) ?? 0) + n(v));
  for (const r of await rows<{ currency: string; v: string }>(
    db,
    sql`SELECT o.currency, SUM(CASE
          WHEN c.redeemed_at IS NULL THEN o.unit_price
          WHEN NOT EXISTS (SELECT 1 FROM store_redemptions r WHERE r.source = 'coupon' AND r.source_id = c.id AND r.doc_id IS NOT NULL) THEN o.unit_price
          ELSE 0 END)::text AS v
        FROM purchase_orders o JOIN supply_cards c ON c.order_id = o.id::text AND c.buyer_merchant_id = o.purchaser_merchant_id
        WHERE o.held_until_redeemed AND o.state = 'success' AND c.state = 'sold'
        GROUP BY o.currency`,
  )) {
    add(`order_escrow:${r.currency}`, r.v);
  }
  for (const r of await rows<{ currency: string; v: string }>(
    db,
    sql`SELECT currency, SUM(amount)::text AS v FROM purchase_orders WHERE state = 'processing' GROUP BY currency`,
  )) {
    add(`order_escrow:${r.currency}`, r.v);
  }
  for (const r of await rows<{ currency: string; v: string }>(
    db,
    sql`SELECT currency, SUM(COALESCE(sale_price, 0))::text AS v FROM onecard_cards WHERE state = 'sold' GROUP BY currency`,
  )) {
    add(`order_escrow:${r.currency}`, r.v);
  }
  for (const r of await rows<{ currency: string; v: string }>(
    db,
    sql`SELECT currency, SUM(total - refunded)::text AS v FROM takeout_orders WHERE sandbox
      AND state IN ('to_be_accepted', 'accepted', 'delivering') GROUP BY currency`,
  )) {
    add(`sandbox_escrow:${r.currency}`, r.v);
  }
  for (const r of await rows<{ currency: string; v: string }>(
    db,
    sql`SELECT currency, SUM(fee - fee_refunded)::text AS v FROM pay_orders WHERE sandbox AND state = 'SUCCESS' GROUP BY currency`,
  )) {
    add(`sandbox_fees:${r.currency}`, r.v);
  }
  return out;
}

async function platformBalances(db: Executor): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const r of await rows<{ kind: string; currency: string; balance: string }>(
    db,
    sql`SELECT kind, currency, balance::text AS balance FROM ledger_accounts WHERE merchant_id IS NULL
      AND kind IN ('order_escrow', 'sandbox_escrow', 'sandbox_fees')`,
  )) {
    out.set(`${r.kind}:${r.currency}`, n(r.balance));
  }
  return out;
}

export interface Baseline {
  /** Per pooled account: ledger balance less the business rows' figure, at the start. */
  offsets: Map<string, number>;
  /** Ledger transactions after this id are the run's (the structural checks read only those). */
  lastTransactionId: number;
  /** Every account's balance at the start: what the run's entries must have moved it from. */
  balances: Map<string, number>;
}

async function offsetsNow(db: Executor): Promise<Map<string, number>> {
  const [derived, ledger] = await Promise.all([derivedPools(db), platformBalances(db)]);
  const out = new Map<string, number>();
  for (const key of new Set([...derived.keys(), ...ledger.keys()])) {
    out.set(key, (ledger.get(key) ?? 0) - (derived.get(key) ?? 0));
  }
  return out;
}

export async function baseline(db: Executor): Promise<Baseline> {
  const last = await rows<{ id: string | null }>(db, sql`SELECT MAX(id)::text AS id FROM ledger_transactions`);
  const balances = new Map(
    (await rows<{ id: string; balance: string }>(db, sql`SELECT id::text, balance::text FROM ledger_accounts`)).map(
      (r) => [r.id, n(r.balance)],
    ),
  );
  return { offsets: await offsetsNow(db), lastTransactionId: n(last[0]?.id), balances };
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
 * entry, so a run makes them at its start and end; after each step `invariantViolations` makes the same
 * checks over what the run wrote.
 */
export async function wholeDatabaseViolations(db: Executor): Promise<string[]> {
  return [
    ...(await checkInvariants(db)).map((p) => `ledger: ${p}`),
    ...(await invariantProblems(db)).map((p) => `onecard: ${p}`),
  ];
}

/** Every check, in one list. */
export async function invariantViolations(w: World, b: Baseline): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const problems: string[] = [];
  problems.push(...(await ledgerProblems(w, b)));
  problems.push(...(await escrowProblems(w, b)));
  problems.push(...(await floorProblems(db)));
  problems.push(...(await sandboxProblems(w, b)));
  problems.push(...(await payoutProblems(w, b)));
  problems.push(...(await codeProblems(w)));
  problems.push(...(await cardProblems(w)));
  return problems;
}

/**
 * The ledger balances, over the run's transactions: each sums to zero; every account moved from its balance
 * at the start by exactly the run's entries on it; each currency's balances sum to zero.
 */
async function ledgerProblems(w: World, b: Baseline): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const problems: string[] = [];
  for (const r of await rows<{ id: string; total: string }>(
    db,
    sql`SELECT transaction_id::text AS id, SUM(amount)::text AS total FROM ledger_entries
      WHERE transaction_id > ${b.lastTransactionId} GROUP BY transaction_id HAVING SUM(amount) <> 0`,
  )) {
    problems.push(`ledger: transaction ${r.id} sums to ${r.total}`);
  }
  const moved = new Map(
    (
      await rows<{ id: string; s: string }>(
        db,
        sql`SELECT account_id::text AS id, SUM(amount)::text AS s FROM ledger_entries WHERE transaction_id > ${b.lastTransactionId} GROUP BY account_id`,
      )
    ).map((r) => [r.id, n(r.s)]),
  );
  for (const r of await rows<{ id: string; balance: string }>(
    db,
    sql`SELECT id::text, balance::text FROM ledger_accounts`,
  )) {
    const expected = (b.balances.get(r.id) ?? 0) + (moved.get(r.id) ?? 0);
    if (n(r.balance) !== expected) {
      problems.push(
        `ledger: account ${r.id} holds ${r.balance} but its balance at the start and the run's entries make ${expected}`,
      );
    }
  }
  for (const r of await rows<{ currency: string; s: string }>(
    db,
    sql`SELECT currency, SUM(balance)::text AS s FROM ledger_accounts GROUP BY currency HAVING SUM(balance) <> 0`,
  )) {
    problems.push(`ledger: ${r.currency} balances sum to ${r.s}`);
  }
  return problems;
}

/** Each escrow equals the sum of what it still owes (see derivedPools), and each merchant's withdrawal hold its withdrawals in progress. */
async function escrowProblems(w: World, b: Baseline): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const problems: string[] = [];
  const now = await offsetsNow(db);
  for (const key of new Set([...now.keys(), ...b.offsets.keys()])) {
    const moved = (now.get(key) ?? 0) - (b.offsets.get(key) ?? 0);
    if (moved !== 0) problems.push(`escrow: ${key} differs by ${moved} from what it still owes`);
  }
  for (const r of await rows<{ merchant_id: string; held: string; owed: string }>(
    db,
    sql`SELECT m.id::text AS merchant_id,
          COALESCE((SELECT SUM(balance) FROM ledger_accounts a WHERE a.merchant_id = m.id AND a.kind = 'withdrawal_hold'), 0)::text AS held,
          COALESCE((SELECT SUM(amount) FROM withdrawals x WHERE x.merchant_id = m.id AND x.state IN ('under_review',
            'first_review_passed', 'bank_paying')), 0)::text AS owed
        FROM merchants m WHERE m.id IN (${sql.join(w.merchantIds)})`,
  )) {
    if (r.held !== r.owed) {
      problems.push(
        `escrow: merchant ${r.merchant_id}'s withdrawal hold is ${r.held} but its withdrawals in progress are ${r.owed}`,
      );
    }
  }
  return problems;
}

/** No balance below its floor: only the two clearing accounts (mirrors of money outside) may go negative; no card below zero or holding more than it has. */
async function floorProblems(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  for (const r of await rows<{ id: string; kind: string; balance: string }>(
    db,
    sql`SELECT id::text, kind, balance::text FROM ledger_accounts WHERE balance < 0 AND NOT allow_negative`,
  )) {
    problems.push(`floor: account ${r.id} (${r.kind}) is ${r.balance}`);
  }
  for (const r of await rows<{ id: string; kind: string }>(
    db,
    sql`SELECT id::text, kind FROM ledger_accounts WHERE allow_negative AND kind NOT IN ('bank_clearing', 'sandbox_clearing')`,
  )) {
    problems.push(`floor: account ${r.id} (${r.kind}) may go negative`);
  }
  for (const r of await rows<{ id: string }>(
    db,
    sql`SELECT id::text FROM onecard_cards WHERE balance < 0 OR held < 0 OR held > balance`,
  )) {
    problems.push(`floor: card ${r.id} is below zero or holds more than it has`);
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
  const db = w.t.ctx.database.db;
  const problems: string[] = [];
  for (const r of await rows<{ id: string; kind: string }>(
    db,
    sql`SELECT t.id::text, t.kind FROM ledger_transactions t
        JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.id > ${b.lastTransactionId}
        GROUP BY t.id, t.kind
        HAVING bool_or(a.kind LIKE 'sandbox%') AND (bool_or(a.kind NOT LIKE 'sandbox%')
          OR bool_or(t.subject_type NOT IN ('mall_order', 'takeout_order', 'pay_order', 'pay_refund')))
            OR (bool_or(t.subject_type IN ('mall_order', 'takeout_order', 'pay_order', 'pay_refund')) AND bool_or(a.kind NOT LIKE 'sandbox%'))`,
  )) {
    problems.push(`sandbox: transaction ${r.id} (${r.kind}) mixes test money with real money or comes from elsewhere`);
  }
  const notSandbox = await rows<{ what: string }>(
    db,
    sql`SELECT 'mall order ' || id AS what FROM mall_orders WHERE merchant_id IN (${sql.join(w.merchantIds)}) AND pay_method = 'wallet' AND NOT sandbox
        UNION ALL SELECT 'takeout order ' || id FROM takeout_orders WHERE merchant_id IN (${sql.join(w.merchantIds)}) AND paid_at IS NOT NULL AND NOT sandbox
        UNION ALL SELECT 'payer-page payment ' || id FROM pay_orders WHERE merchant_id IN (${sql.join(w.merchantIds)}) AND state = 'SUCCESS' AND NOT sandbox`,
  );
  for (const r of notSandbox) {
    problems.push(`sandbox: ${r.what} was paid through the local adapter but is not marked test money`);
  }
  const total = await rows<{ currency: string; s: string }>(
    db,
    sql`SELECT currency, SUM(balance)::text AS s FROM ledger_accounts WHERE kind LIKE 'sandbox%' GROUP BY currency HAVING SUM(balance) <> 0`,
  );
  for (const r of total) problems.push(`sandbox: ${r.currency} sandbox accounts sum to ${r.s}, not zero`);
  for (const r of await rows<{ id: string; held: string; owed: string }>(
    db,
    sql`SELECT m.id::text AS id,
          COALESCE((SELECT SUM(balance) FROM ledger_accounts a WHERE a.merchant_id = m.id AND a.kind = 'sandbox_income'), 0)::text AS held,
          (COALESCE((SELECT SUM(amount) FROM mall_orders o WHERE o.merchant_id = m.id AND o.sandbox AND o.state <> 'refunded'), 0)
           + COALESCE((SELECT SUM(total) FROM takeout_orders o WHERE o.merchant_id = m.id AND o.sandbox AND o.state = 'completed'), 0)
           + COALESCE((SELECT SUM(amount - fee - refunded + fee_refunded) FROM pay_orders o WHERE o.merchant_id = m.id
             AND o.sandbox AND o.state = 'SUCCESS'), 0))::text AS owed
        FROM merchants m WHERE m.id IN (${sql.join(w.merchantIds)})`,
  )) {
    if (r.held !== r.owed) {
      problems.push(`sandbox: merchant ${r.id}'s sandbox income is ${r.held} but its sandbox sales left it ${r.owed}`);
    }
  }
  return problems;
}

/**
 * Nothing is paid out that was not paid in: a payout (withdrawal_payout) moves only a merchant's withdrawal
 * hold to bank clearing; the run's merchants' finished withdrawals equal their payouts in the ledger; and
 * what left for the bank never exceeds the real money credited to the accounts withdrawals draw from
 * (income and reserve, releases of failed withdrawals not counted as new money).
 */
async function payoutProblems(w: World, b: Baseline): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const problems: string[] = [];
  for (const r of await rows<{ id: string }>(
    db,
    sql`SELECT t.id::text FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.id > ${b.lastTransactionId} AND t.kind = 'withdrawal_payout'
        GROUP BY t.id
        HAVING NOT bool_and((a.kind = 'withdrawal_hold' AND e.amount < 0) OR (a.kind = 'bank_clearing' AND a.merchant_id IS NULL AND e.amount > 0))`,
  )) {
    problems.push(`payout: transaction ${r.id} pays out from something other than a withdrawal hold`);
  }
  for (const r of await rows<{ id: string; paid: string; booked: string; credited: string }>(
    db,
    sql`SELECT m.id::text AS id,
          COALESCE((SELECT SUM(amount) FROM withdrawals x WHERE x.merchant_id = m.id AND x.state = 'success'), 0)::text AS paid,
          COALESCE((SELECT -SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
            JOIN ledger_transactions t ON t.id = e.transaction_id
                    WHERE a.merchant_id = m.id AND a.kind = 'withdrawal_hold' AND t.kind = 'withdrawal_payout'), 0)::text AS booked,
          COALESCE((SELECT SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
            JOIN ledger_transactions t ON t.id = e.transaction_id
                    WHERE a.merchant_id = m.id AND a.kind IN ('income', 'reserve') AND e.amount > 0 AND t.kind <> 'withdrawal_release'), 0)::text AS credited
        FROM merchants m WHERE m.id IN (${sql.join(w.merchantIds)})`,
  )) {
    if (r.paid !== r.booked) {
      problems.push(
        `payout: merchant ${r.id}'s finished withdrawals ${r.paid} differ from the payouts booked ${r.booked}`,
      );
    }
    if (n(r.paid) > n(r.credited)) {
      problems.push(`payout: merchant ${r.id} was paid out ${r.paid}, more than the ${r.credited} credited to it`);
    }
  }
  return problems;
}

/**
 * Every code is in exactly one state, and the counts agree: the goods' stock counters equal the codes in
 * each state; a redeemed code is sold and has exactly one redemption; a sold, void or expired code of an
 * order belongs to it; each order's codes are its quantity, and what its refunds took back is its void and
 * expired codes; a code delivered in a mall order not refunded was never voided (its customer holds it; a
 * store voucher may have expired unredeemed, refunded to the purchaser by the daily job), one in a refunded
 * mall order is no longer sold.
 */
async function codeProblems(w: World): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const goods = [w.goods.secret, w.goods.voucher];
  const problems: string[] = [];
  for (const r of await rows<{
    id: string;
    stock: number;
    sold: number;
    voided: number;
    expired: number;
    a: string;
    s: string;
    v: string;
    e: string;
  }>(
    db,
    sql`SELECT g.id::text, g.stock, g.sold, g.voided, g.expired,
          COUNT(*) FILTER (WHERE c.state = 'available')::text AS a, COUNT(*) FILTER (WHERE c.state = 'sold')::text AS s,
          COUNT(*) FILTER (WHERE c.state = 'void')::text AS v, COUNT(*) FILTER (WHERE c.state = 'expired')::text AS e
        FROM catalog_goods g LEFT JOIN supply_cards c ON c.goods_id = g.id
        WHERE g.id IN (${sql.join(goods)}) GROUP BY g.id, g.stock, g.sold, g.voided, g.expired`,
  )) {
    const counted = [n(r.a), n(r.s), n(r.v), n(r.e)].join("/");
    const counters = [r.stock, r.sold, r.voided, r.expired].map(n).join("/");
    if (counted !== counters) {
      problems.push(`codes: goods ${r.id} counts available/sold/void/expired ${counters} but its codes are ${counted}`);
    }
  }
  for (const r of await rows<{ id: string; why: string }>(
    db,
    sql`SELECT c.id::text, 'redeemed but ' || c.state AS why FROM supply_cards c
      WHERE c.goods_id IN (${sql.join(goods)}) AND c.redeemed_at IS NOT NULL AND c.state <> 'sold'
        UNION ALL
        SELECT c.id::text, 'redeemed ' || COUNT(r.id) || ' times, marked ' || (c.redeemed_at IS NOT NULL)
          FROM supply_cards c LEFT JOIN store_redemptions r ON r.source = 'coupon' AND r.source_id = c.id
          WHERE c.goods_id IN (${sql.join(goods)}) GROUP BY c.id, c.redeemed_at HAVING COUNT(r.id) <> (CASE WHEN c.redeemed_at IS NULL THEN 0 ELSE 1 END)
        UNION ALL
        SELECT c.id::text, c.state || ' without an order' FROM supply_cards c WHERE c.goods_id IN (${sql.join(goods)})
          AND c.state IN ('sold', 'void') AND (c.order_id IS NULL OR c.buyer_merchant_id IS NULL)
        UNION ALL
        SELECT c.id::text, 'available but bought' FROM supply_cards c WHERE c.goods_id IN (${sql.join(goods)})
          AND c.state = 'available' AND (c.order_id IS NOT NULL OR c.redeemed_at IS NOT NULL
          OR c.resold_at IS NOT NULL)
        UNION ALL
        SELECT c.id::text, 'delivered in live mall order ' || o.id || ' but ' || c.state FROM mall_deliveries d
          JOIN mall_orders o ON o.id = d.order_id JOIN supply_cards c ON c.id = d.card_id
          WHERE c.goods_id IN (${sql.join(goods)}) AND o.state <> 'refunded' AND c.state NOT IN ('sold', 'expired')
        UNION ALL
        SELECT c.id::text, 'delivered in refunded mall order ' || o.id || ' but still sold' FROM mall_deliveries d
          JOIN mall_orders o ON o.id = d.order_id JOIN supply_cards c ON c.id = d.card_id
          WHERE c.goods_id IN (${sql.join(goods)}) AND o.state = 'refunded' AND c.state = 'sold'`,
  )) {
    problems.push(`codes: code ${r.id} ${r.why}`);
  }
  for (const r of await rows<{
    id: string;
    quantity: number;
    codes: string;
    back: string;
    refunded: string;
    refund_amount: string;
    unit_price: number;
  }>(
    db,
    sql`SELECT o.id::text, o.quantity, o.unit_price,
          (SELECT COUNT(*) FROM supply_cards c WHERE c.order_id = o.id::text)::text AS codes,
          -- A card secret handed on to a mall customer and refunded there is voided with nothing refunded
          -- to the purchaser: it paid the supplier at sale and stays paid (purchasing/handed-on-refund.ts).
          (SELECT COUNT(*) FROM supply_cards c WHERE c.order_id = o.id::text AND c.state IN ('void', 'expired')
             AND NOT (c.state = 'void' AND c.resold_at IS NOT NULL AND NOT o.held_until_redeemed))::text AS back,
          COALESCE((SELECT SUM(quantity) FROM refund_orders f WHERE f.order_id = o.id AND f.state = 'success'), 0)::text AS refunded,
          COALESCE((SELECT SUM(amount) FROM refund_orders f WHERE f.order_id = o.id AND f.state = 'success'), 0)::text AS refund_amount
        FROM purchase_orders o WHERE o.goods_id IN (${sql.join(goods)}) AND o.state = 'success'`,
  )) {
    if (n(r.codes) !== r.quantity) problems.push(`codes: order ${r.id} of ${r.quantity} holds ${r.codes} codes`);
    if (r.back !== r.refunded) {
      problems.push(`codes: order ${r.id} refunded ${r.refunded} codes but ${r.back} are void or expired`);
    }
    if (n(r.refund_amount) !== n(r.refunded) * r.unit_price) {
      problems.push(`codes: order ${r.id} refunded ${r.refund_amount} for ${r.refunded} codes of ${r.unit_price}`);
    }
  }
  return problems;
}

/** Every one-card card of the run is in exactly one state, with the fields that state implies. */
async function cardProblems(w: World): Promise<string[]> {
  const db = w.t.ctx.database.db;
  const problems: string[] = [];
  for (const r of await rows<{ id: string; state: string }>(
    db,
    sql`SELECT c.id::text, c.state FROM onecard_cards c WHERE c.product_id = ${Number(w.cardProductId)} AND NOT (
          (c.state = 'issued' AND c.owner_id IS NULL AND c.sale_id IS NULL AND c.activation_id IS NULL AND c.balance = 0)
       OR (c.state = 'sold' AND c.owner_id IS NOT NULL AND c.sale_id IS NOT NULL AND c.activation_id IS NULL AND c.return_id IS NULL AND c.balance = 0)
       OR (c.state = 'activated' AND c.sale_id IS NOT NULL AND c.activation_id IS NOT NULL AND c.return_id IS NULL)
       OR (c.state = 'returned' AND c.sale_id IS NOT NULL AND c.return_id IS NOT NULL AND c.activation_id IS NULL AND c.balance = 0))`,
  )) {
    problems.push(`cards: card ${r.id} is ${r.state} with fields of another state`);
  }
  const act = await rows<{ id: string; amount: string; cards: string }>(
    db,
    sql`SELECT a.id::text, a.amount::text, (SELECT COALESCE(SUM(sale_price), 0) FROM onecard_cards c WHERE c.activation_id = a.id)::text AS cards
        FROM onecard_activations a WHERE a.purchaser_id IN (${sql.join(w.merchantIds)})`,
  );
  for (const r of act) {
    if (r.amount !== r.cards) problems.push(`cards: activation ${r.id} moved ${r.amount} for cards sold at ${r.cards}`);
  }
  // The run's cards: balances equal their moves, what they hold equals their open holds, each sale has its cards.
  for (const r of await rows<{ id: string; why: string }>(
    db,
    sql`SELECT c.id::text, 'holds ' || c.balance || ' but its moves sum to ' || COALESCE((SELECT SUM(v.amount)
      FROM onecard_moves v WHERE v.card_id = c.id), 0) AS why
          FROM onecard_cards c WHERE c.product_id = ${Number(w.cardProductId)}
            AND c.balance <> COALESCE((SELECT SUM(v.amount) FROM onecard_moves v WHERE v.card_id = c.id), 0)
        UNION ALL
        SELECT c.id::text, 'held differs from its open holds' FROM onecard_cards c
          WHERE c.product_id = ${Number(w.cardProductId)} AND c.held <> COALESCE((SELECT SUM(h.amount)
            FROM onecard_holds h WHERE h.card_id = c.id AND h.state = 'held'), 0)
        UNION ALL
        SELECT 'sale ' || s.id, 'has ' || (SELECT COUNT(*) FROM onecard_cards c WHERE c.sale_id = s.id) || ' cards for ' || s.quantity FROM onecard_sales s
          WHERE s.product_id = ${Number(w.cardProductId)} AND s.quantity <> (SELECT COUNT(*) FROM onecard_cards c WHERE c.sale_id = s.id)`,
  )) {
    problems.push(`cards: card ${r.id} ${r.why}`);
  }
  return problems;
}

/**
 * A fingerprint of the run's money and goods: balances, transaction count, every code's, card's and
 * order's state. A refused operation must leave it as it was.
 */
export async function fingerprint(w: World): Promise<string> {
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
          (SELECT md5(string_agg(id || ':' || state, ',' ORDER BY id)) FROM mall_orders WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || refunded, ',' ORDER BY id)) FROM takeout_orders WHERE merchant_id IN (${ids})),
          (SELECT md5(string_agg(id || ':' || state || ':' || refunded, ',' ORDER BY id)) FROM pay_orders WHERE merchant_id IN (${ids})),
          (SELECT COUNT(*) FROM store_redemptions WHERE brander_id IN (${ids}))
        ) AS f`,
  );
  return r[0]?.f ?? "";
}
