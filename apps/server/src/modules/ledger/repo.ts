import { sql, type RawBuilder } from "kysely";
import type { Currency } from "@tessera/contracts";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import { PLATFORM_UTC_OFFSET } from "../../platform/clock";

export interface AccountKey {
  merchantId: number | null;
  kind: string;
  currency: Currency;
}

/** The account for a key, or undefined when it has not been used yet. */
export async function findAccount(tx: Executor, key: AccountKey): Promise<number | undefined> {
  let q = tx
    .selectFrom("ledger_accounts")
    .select("id")
    .where("kind", "=", key.kind)
    .where("currency", "=", key.currency);
  q = key.merchantId === null ? q.where("merchant_id", "is", null) : q.where("merchant_id", "=", key.merchantId);
  return (await q.executeTakeFirst())?.id;
}

/** The account for a key, created on first use. Platform accounts that mirror the outside may go negative. */
export async function ensureAccount(tx: Executor, key: AccountKey, allowNegative: boolean): Promise<number> {
  const existing = await findAccount(tx, key);
  if (existing !== undefined) return existing;
  await tx
    .insertInto("ledger_accounts")
    .values({ merchant_id: key.merchantId, kind: key.kind, currency: key.currency, allow_negative: allowNegative })
    .onConflict((oc) =>
      key.merchantId === null
        ? oc.columns(["kind", "currency"]).where("merchant_id", "is", null).doNothing()
        : oc.columns(["merchant_id", "kind", "currency"]).where("merchant_id", "is not", null).doNothing(),
    )
    .execute();
  const created = await findAccount(tx, key);
  if (created === undefined) throw new Error(`ledger: account ${JSON.stringify(key)} could not be created`);
  return created;
}

export interface NewTransaction {
  idempotencyKey: string;
  digest: string;
  kind: string;
  currency: Currency;
  reason: string;
  subjectType: string | null;
  subjectId: string | null;
  createdBy: number | null;
}

/**
 * Creates the transaction row (transactionId null when the idempotency key is already taken) and reads
 * the ids of the merchants' accounts it will post to, in one round trip. Accounts not used yet are
 * missing from the map, keyed `${merchantId}:${kind}`.
 */
export async function insertTransactionFindingAccounts(
  tx: Executor,
  t: NewTransaction,
  accounts: { merchantId: number; kind: string }[],
): Promise<{ transactionId: number | null; accountIds: Map<string, number> }> {
  const r = await sql<{ transaction_id: number | null; accounts: [number, number, string][] }>`
    WITH t AS (
      INSERT INTO ledger_transactions (idempotency_key, request_digest, kind, currency, reason, subject_type, subject_id, created_by)
      VALUES (${t.idempotencyKey}, ${t.digest}, ${t.kind}, ${t.currency}, ${t.reason}, ${t.subjectType}, ${t.subjectId}, ${t.createdBy})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id)
    SELECT (SELECT id FROM t) AS transaction_id,
      (SELECT coalesce(json_agg(json_build_array(a.id, a.merchant_id, a.kind)), '[]'::json)
       FROM ledger_accounts a
       JOIN unnest(${accounts.map((a) => a.merchantId)}::bigint[], ${accounts.map((a) => a.kind)}::text[]) AS k(merchant_id, kind)
         ON a.merchant_id = k.merchant_id AND a.kind = k.kind
       WHERE a.currency = ${t.currency}) AS accounts`.execute(tx);
  const row = r.rows[0];
  return {
    transactionId:
      row?.transaction_id === null || row?.transaction_id === undefined ? null : Number(row.transaction_id),
    accountIds: new Map((row?.accounts ?? []).map(([id, merchantId, kind]) => [`${merchantId}:${kind}`, Number(id)])),
  };
}

/**
 * Applies amounts to accounts' balances and writes the transaction's entries with the balances after
 * them, all in one statement: every round trip here is time the contended balance rows stay locked.
 * The balances move through ledger_apply_moves (migration 0086), as an order's do. Returns the balances after, by account; an account missing from the result was refused (its balance
 * may not go negative), and the caller must roll back.
 */
export async function applyWithEntries(
  tx: Executor,
  transactionId: number,
  moves: { accountId: number; amount: number }[],
): Promise<Map<number, number>> {
  const r = await sql<{ account_id: number; balance_after: number }>`
    WITH applied AS (
      SELECT * FROM ledger_apply_moves(${moves.map((m) => m.accountId)}::bigint[],
        ${moves.map((m) => m.amount)}::bigint[], ${moves.map((_, i) => i + 1)}::bigint[]))
    INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
    SELECT ${transactionId}, id, amount, balance FROM applied ORDER BY n
    RETURNING account_id, balance_after`.execute(tx);
  return new Map(r.rows.map((x) => [Number(x.account_id), Number(x.balance_after)]));
}

/**
 * A whole ledger transaction as CTEs of a statement (named `ledger_*`): resolves the accounts (merchant
 * ones by merchant and kind, platform ones by kind; all in the transaction's currency), and only when
 * every one exists and `onlyIf` (a query) returns a row, inserts the transaction row, moves the
 * balances in account-id order (so concurrent posts lock rows in the same order) and writes the entries
 * with the balances after them. `result` reads it back for readPosted; `refusal` names what went
 * wrong (ledger.notWritten: an account not used yet or the key taken; ledger.insufficientBalance) or
 * is NULL, for a statement that refuses itself.
 */
export function postCtes(
  t: NewTransaction,
  moves: { merchantId: number | null; kind: string; amount: number }[],
): {
  ctes: (onlyIf: RawBuilder<unknown>) => RawBuilder<unknown>;
  result: RawBuilder<unknown>;
  refusal: RawBuilder<string | null>;
} {
  return {
    // Checked by a statement that refuses itself: every account resolved and the key new, every
    // balance moved (none may go below zero).
    refusal: sql<string | null>`CASE WHEN NOT EXISTS (SELECT 1 FROM ledger_t) THEN 'ledger.notWritten'
      WHEN (SELECT count(*) FROM ledger_applied) < ${moves.length}::integer THEN 'ledger.insufficientBalance' END`,
    // The moves as a VALUES list, not unnest() of arrays: the statement is prepared, and its generic plan
    // then knows how many there are (it would assume ten), so it costs what the custom plans cost and
    // PostgreSQL keeps it instead of planning every post anew. Each account is found by its key.
    ctes: (onlyIf) => sql`ledger_k (merchant_id, kind, amount, n) AS (
      VALUES ${sql.join(moves.map((m, i) => sql`(${m.merchantId}::bigint, ${m.kind}::text, ${m.amount}::bigint, ${i + 1}::bigint)`))}),
    ledger_acc AS (
      SELECT a.id, k.amount, k.n FROM ledger_k k CROSS JOIN LATERAL (
        SELECT id FROM ledger_accounts a WHERE k.merchant_id IS NOT NULL AND a.merchant_id = k.merchant_id AND a.kind = k.kind AND a.currency = ${t.currency}
        UNION ALL
        SELECT id FROM ledger_accounts a WHERE k.merchant_id IS NULL AND a.merchant_id IS NULL AND a.kind = k.kind AND a.currency = ${t.currency}
        LIMIT 1) a),
    ledger_t AS (
      INSERT INTO ledger_transactions (idempotency_key, request_digest, kind, currency, reason, subject_type, subject_id, created_by)
      SELECT ${t.idempotencyKey}, ${t.digest}, ${t.kind}, ${t.currency}, ${t.reason}, ${t.subjectType}, ${t.subjectId}, ${t.createdBy}::bigint
      WHERE (SELECT count(*) FROM ledger_acc) = ${moves.length}::integer AND EXISTS (${onlyIf})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id),
    ledger_applied AS (
      -- ledger_apply_moves (migration 0086): the balance UPDATE as its own small statement, for the
      -- re-check after waiting for a contended balance row (a supplier's income).
      SELECT f.* FROM (SELECT array_agg(id) AS ids, array_agg(amount) AS amounts, array_agg(n) AS ns FROM ledger_acc WHERE EXISTS (SELECT 1 FROM ledger_t)) x,
        LATERAL ledger_apply_moves(x.ids, x.amounts, x.ns) f
      WHERE x.ids IS NOT NULL),
    ledger_written AS (
      INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
      SELECT ledger_t.id, ledger_applied.id, ledger_applied.amount, ledger_applied.balance FROM ledger_applied, ledger_t ORDER BY ledger_applied.n
      RETURNING account_id)`,
    result: sql`json_build_array((SELECT id FROM ledger_t), (SELECT json_agg(json_build_array(n, id, balance)) FROM ledger_applied))`,
  };
}

/**
 * postCtes' result: null when nothing was written (an account not used yet, the idempotency key taken,
 * or `onlyIf` empty); otherwise the transaction and, by index of the moves, each account and its
 * balance after. A move missing from the map was refused (its balance may not go negative) and the
 * caller must roll back.
 */
export function readPosted(
  value: unknown,
): { transactionId: number; applied: Map<number, { accountId: number; balanceAfter: number }> } | null {
  const [transactionId, applied] = value as [number | null, [number, number, number][] | null];
  if (transactionId === null) return null;
  // ORDINALITY counts from 1; moves are indexed from 0.
  return {
    transactionId: Number(transactionId),
    applied: new Map(
      (applied ?? []).map(([n, id, balance]) => [
        Number(n) - 1,
        { accountId: Number(id), balanceAfter: Number(balance) },
      ]),
    ),
  };
}

export function findTransactionByKey(tx: Executor, idempotencyKey: string) {
  return tx
    .selectFrom("ledger_transactions")
    .selectAll()
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
}

export function entriesOfTransaction(tx: Executor, transactionId: number) {
  return tx
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_accounts as a", "a.id", "e.account_id")
    .select([
      "e.account_id as accountId",
      "a.merchant_id as merchantId",
      "a.kind",
      "e.amount",
      "e.balance_after as balanceAfter",
    ])
    .where("e.transaction_id", "=", transactionId)
    .orderBy("e.id")
    .execute();
}

export function merchantBalances(db: Executor, merchantId: number, currency: Currency) {
  return db
    .selectFrom("ledger_accounts")
    .select(["kind", "balance"])
    .where("merchant_id", "=", merchantId)
    .where("currency", "=", currency)
    .execute();
}

/* ---------- invariants (tests and the reconciliation job) ---------- */

/** Transactions whose entries do not sum to zero. */
export function unbalancedTransactions(db: Executor) {
  return db
    .selectFrom("ledger_entries")
    .select(["transaction_id", (eb) => eb.fn.sum<string>("amount").as("total")])
    .groupBy("transaction_id")
    .having((eb) => eb.fn.sum("amount"), "<>", 0)
    .execute();
}

/** Accounts whose stored balance differs from the sum of their entries. */
export async function driftedAccounts(db: Executor) {
  const rows = await sql<{ id: number; balance: number; total: string }>`
    SELECT a.id, a.balance, COALESCE(SUM(e.amount), 0)::text AS total
    FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
    GROUP BY a.id, a.balance
    HAVING a.balance <> COALESCE(SUM(e.amount), 0)`.execute(db);
  return rows.rows;
}

/** The sum of every account's balance per currency; zero in a closed double-entry system. */
export async function totalsByCurrency(db: Executor) {
  const rows = await sql<{ currency: string; total: string }>`
    SELECT currency, SUM(balance)::text AS total FROM ledger_accounts GROUP BY currency`.execute(db);
  return rows.rows;
}

export async function negativeMerchantAccounts(db: Executor) {
  return db
    .selectFrom("ledger_accounts")
    .select(["id", "balance"])
    .where("allow_negative", "=", false)
    .where("balance", "<", 0)
    .execute();
}

/* ---------- fund-change lists ---------- */

export interface EntryFilter {
  merchantId: number;
  kind: string;
  currency: Currency;
  /** Inclusive calendar days (YYYY-MM-DD) in the platform's time zone. */
  from?: string | undefined;
  to?: string | undefined;
  type?: string | undefined;
  /** Bounds on the absolute amount, in minor units. */
  minAmount?: number | undefined;
  maxAmount?: number | undefined;
}

function filteredEntries(db: Executor, f: EntryFilter) {
  let q = db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_accounts as a", "a.id", "e.account_id")
    .innerJoin("ledger_transactions as t", "t.id", "e.transaction_id")
    .where("a.merchant_id", "=", f.merchantId)
    .where("a.kind", "=", f.kind)
    .where("a.currency", "=", f.currency);
  if (f.from) q = q.where("e.created_at", ">=", sql<Date>`${`${f.from}T00:00:00${PLATFORM_UTC_OFFSET}`}::timestamptz`);
  if (f.to) {
    q = q.where(
      "e.created_at",
      "<",
      sql<Date>`${`${f.to}T00:00:00${PLATFORM_UTC_OFFSET}`}::timestamptz + interval '1 day'`,
    );
  }
  if (f.type) q = q.where("t.kind", "=", f.type);
  if (f.minAmount !== undefined) q = q.where(sql<number>`abs(e.amount)`, ">=", f.minAmount);
  if (f.maxAmount !== undefined) q = q.where(sql<number>`abs(e.amount)`, "<=", f.maxAmount);
  return q;
}

/** One page of an account's entries, newest first, with the total count for the pager. */
export async function entryPage(db: Executor, f: EntryFilter, page: { offset: number; limit: number }) {
  const base = filteredEntries(db, f);
  return paginate(
    base
      .select([
        "e.id",
        "e.amount",
        "e.balance_after as balanceAfter",
        "e.created_at as createdAt",
        "t.kind as type",
        "t.reason",
      ])
      .orderBy("e.id", "desc"),
    base,
    page,
  );
}

/**
 * One page of the entries of one account kind across several merchants (a service provider's view of
 * the merchants it serves), newest first, each row with its merchant and currency.
 */
export async function entryPageOfMerchants(
  db: Executor,
  f: {
    merchantIds: readonly number[];
    kind: string;
    from?: string | undefined;
    to?: string | undefined;
    type?: string | undefined;
  },
  page: { offset: number; limit: number },
) {
  if (f.merchantIds.length === 0) return { rows: [], total: 0 };
  let q = db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_accounts as a", "a.id", "e.account_id")
    .innerJoin("ledger_transactions as t", "t.id", "e.transaction_id")
    .where("a.merchant_id", "in", [...f.merchantIds])
    .where("a.kind", "=", f.kind);
  if (f.from) q = q.where("e.created_at", ">=", sql<Date>`${`${f.from}T00:00:00${PLATFORM_UTC_OFFSET}`}::timestamptz`);
  if (f.to) {
    q = q.where(
      "e.created_at",
      "<",
      sql<Date>`${`${f.to}T00:00:00${PLATFORM_UTC_OFFSET}`}::timestamptz + interval '1 day'`,
    );
  }
  if (f.type) q = q.where("t.kind", "=", f.type);
  const { rows, total } = await paginate(
    q
      .select([
        "e.id",
        "a.merchant_id as merchantId",
        "a.currency",
        "e.amount",
        "e.balance_after as balanceAfter",
        "e.created_at as createdAt",
        "t.kind as type",
        "t.reason",
      ])
      .orderBy("e.id", "desc"),
    q,
    page,
  );
  return { rows: rows.map((r) => ({ ...r, merchantId: Number(r.merchantId) })), total };
}

/** Merchant accounts of a kind holding money: the candidates of a payout run. */
export function positiveAccounts(db: Executor, kind: string) {
  return db
    .selectFrom("ledger_accounts")
    .select(["merchant_id as merchantId", "currency", "balance"])
    .where("kind", "=", kind)
    .where("merchant_id", "is not", null)
    .where("balance", ">", 0)
    .orderBy("merchant_id")
    .execute();
}

/** An account's balance just before `before`: the balance after its last entry written earlier. */
export async function balanceBefore(
  db: Executor,
  merchantId: number,
  kind: string,
  currency: Currency,
  before: Date,
): Promise<number> {
  const row = await db
    .selectFrom("ledger_entries as e")
    .innerJoin("ledger_accounts as a", "a.id", "e.account_id")
    .select("e.balance_after")
    .where("a.merchant_id", "=", merchantId)
    .where("a.kind", "=", kind)
    .where("a.currency", "=", currency)
    .where("e.created_at", "<", before)
    .orderBy("e.id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.balance_after ?? 0;
}

/**
 * Per-day or per-month totals of one account (statements and settlements): money in, money out, the
 * number of movements and the closing balance, newest period first. Periods are UTC+8 calendar days.
 */
export async function periodTotals(
  db: Executor,
  f: { merchantId: number; kind: string; currency: Currency; unit: "day" | "month"; from: string; to: string },
) {
  const rows = await sql<{ period: string; increase: string; expense: string; movements: string; closing: number }>`
    SELECT to_char(date_trunc(${f.unit}, e.created_at AT TIME ZONE 'Asia/Shanghai'), ${f.unit === "day" ? "YYYY-MM-DD" : "YYYY-MM"}) AS period,
           COALESCE(SUM(e.amount) FILTER (WHERE e.amount > 0), 0)::text AS increase,
           COALESCE(-SUM(e.amount) FILTER (WHERE e.amount < 0), 0)::text AS expense,
           COUNT(*)::text AS movements,
           (array_agg(e.balance_after ORDER BY e.id DESC))[1] AS closing
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
    WHERE a.merchant_id = ${f.merchantId} AND a.kind = ${f.kind} AND a.currency = ${f.currency}
      AND e.created_at >= ${`${f.from}T00:00:00${PLATFORM_UTC_OFFSET}`}::timestamptz
      AND e.created_at < ${`${f.to}T00:00:00${PLATFORM_UTC_OFFSET}`}::timestamptz + interval '1 day'
    GROUP BY 1 ORDER BY 1 DESC`.execute(db);
  return rows.rows.map((r) => ({
    period: r.period,
    increase: Number(r.increase),
    expense: Number(r.expense),
    movements: Number(r.movements),
    closing: Number(r.closing),
  }));
}

/** The highest ledger transaction id (cheap on any size; the metrics' transaction count). */
export async function highestTransactionId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("ledger_transactions")
    .select((eb) => eb.fn.max("id").as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
