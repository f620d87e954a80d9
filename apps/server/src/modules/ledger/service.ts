import { createHash } from "node:crypto";
import {
  CODE,
  MERCHANT_ACCOUNT_KINDS,
  type Currency,
  type LedgerTransactionKind,
  type MerchantAccountKind,
  type Money,
  type PlatformAccountKind,
} from "@tessera/contracts";
import type { RawBuilder } from "kysely";
import type { Executor, Tx } from "../../db/tx";
import { AppError, conflict } from "../../platform/http/errors";
import { getMerchant } from "../merchants";
import * as repo from "./repo";

/** Which account a posting touches: a merchant's own, or one of the platform's. */
export type AccountRef = { merchantId: number; kind: MerchantAccountKind } | { platform: PlatformAccountKind };

export interface Posting {
  account: AccountRef;
  /** Signed minor units: positive credits the account, negative debits it. */
  amount: number;
}

export interface PostRequest {
  /** The same key always means the same movement: a retry finds the first result. */
  idempotencyKey: string;
  kind: LedgerTransactionKind;
  currency: Currency;
  reason?: string;
  subject?: { type: string; id: string | number };
  createdBy?: number | null;
  postings: Posting[];
}

export interface PostedEntry {
  accountId: number;
  merchantId: number | null;
  kind: string;
  amount: number;
  balanceAfter: number;
}

export interface PostResult {
  transactionId: number;
  /** True when the key had been used before and this call moved nothing. */
  replayed: boolean;
  entries: PostedEntry[];
}

/** Platform accounts that mirror money outside the platform may go below zero; none of a merchant's may. */
const MAY_GO_NEGATIVE: ReadonlySet<PlatformAccountKind> = new Set(["bank_clearing", "sandbox_clearing"]);

function refKey(ref: AccountRef): string {
  return "platform" in ref ? `platform:${ref.platform}` : `merchant:${ref.merchantId}:${ref.kind}`;
}

/** A digest of what was asked, so a reused key with a different request is caught. */
function digestOf(req: PostRequest, merged: Map<string, number>): string {
  const canonical = JSON.stringify([
    req.kind,
    req.currency,
    req.subject?.type ?? null,
    String(req.subject?.id ?? ""),
    [...merged].sort(),
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

/**
 * Posts one ledger transaction in the caller's database transaction: entries that sum to zero, in one
 * currency, applied to the account balances (none of a merchant's may go below zero), written with the
 * business row that caused them. Replaying an idempotency key returns the first result and moves
 * nothing. Refusals (insufficient balance) throw an AppError; the caller's transaction rolls back.
 */
export async function post(tx: Tx, req: PostRequest): Promise<PostResult> {
  const prepared = await preparePost(tx, req);
  return "replayed" in prepared ? prepared.replayed : prepared.apply();
}

/** Merges postings to the same account and checks the rules a bug could break; the request's digest. */
function checked(req: PostRequest): { merged: Map<string, number>; refs: Map<string, AccountRef>; digest: string } {
  const merged = new Map<string, number>();
  const refs = new Map<string, AccountRef>();
  for (const p of req.postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) {
      throw new Error(`ledger: posting amount must be a non-zero integer, got ${p.amount}`);
    }
    const key = refKey(p.account);
    merged.set(key, (merged.get(key) ?? 0) + p.amount);
    refs.set(key, p.account);
  }
  for (const [key, amount] of merged) if (amount === 0) merged.delete(key);
  if (merged.size < 2) throw new Error("ledger: a transaction needs at least two accounts");
  const total = [...merged.values()].reduce((a, b) => a + b, 0);
  if (total !== 0) throw new Error(`ledger: entries must sum to zero, got ${total}`);
  if (!req.idempotencyKey || req.idempotencyKey.length > 200) {
    throw new Error("ledger: an idempotency key of 1-200 characters is required");
  }
  return { merged, refs, digest: digestOf(req, merged) };
}

/**
 * post() as part of a caller's one statement (an order's), when every account it touches exists
 * already (the common case): the transaction row, the balances and the entries with the caller's other
 * writes, so the balance rows stay locked only while that statement runs. `ctes(onlyIf)` post when
 * `onlyIf` (a query) returns a row; `refusal` is NULL when the post went through, else why not
 * ('ledger.notWritten': an account is not used yet or the key is taken, so `prepare` then post() must
 * do it; 'ledger.insufficientBalance'), for a statement that refuses itself; `result` reads the post
 * back for `outcome`. The part's CTEs are named `ledger_*`.
 */
export function postingPart(req: PostRequest): {
  ctes: (onlyIf: RawBuilder<unknown>) => RawBuilder<unknown>;
  refusal: RawBuilder<string | null>;
  result: RawBuilder<unknown>;
  outcome(value: unknown): PostResult | "notWritten" | "insufficientBalance";
  prepare(tx: Tx): Promise<void>;
} {
  const { merged, refs, digest } = checked(req);
  const moves: { merchantId: number | null; kind: string; amount: number }[] = [];
  for (const [key, amount] of merged) {
    const ref = refs.get(key);
    if (ref) {
      moves.push({
        merchantId: "platform" in ref ? null : ref.merchantId,
        kind: "platform" in ref ? ref.platform : ref.kind,
        amount,
      });
    }
  }
  const { ctes, result, refusal } = repo.postCtes(transactionRow(req, digest), moves);
  return {
    ctes,
    refusal,
    result,
    outcome(value) {
      const done = repo.readPosted(value);
      if (done === null) return "notWritten";
      const posted: PostedEntry[] = [];
      for (const [i, m] of moves.entries()) {
        const applied = done.applied.get(i);
        if (applied === undefined) return "insufficientBalance";
        posted.push({
          accountId: applied.accountId,
          merchantId: m.merchantId,
          kind: m.kind,
          amount: m.amount,
          balanceAfter: applied.balanceAfter,
        });
      }
      // In account-id order, as post() reports them.
      posted.sort((a, b) => a.accountId - b.accountId);
      return { transactionId: done.transactionId, replayed: false, entries: posted };
    },
    /** Creates the accounts the post needs that are not used yet (after a 'ledger.notWritten'). */
    async prepare(tx) {
      for (const ref of refs.values()) await accountIdOf(tx, ref, req.currency);
    },
  };
}

function transactionRow(req: PostRequest, digest: string): repo.NewTransaction {
  return {
    idempotencyKey: req.idempotencyKey,
    digest,
    kind: req.kind,
    currency: req.currency,
    reason: req.reason ?? "",
    subjectType: req.subject?.type ?? null,
    subjectId: req.subject ? String(req.subject.id) : null,
    createdBy: req.createdBy ?? null,
  };
}

/**
 * A post in two steps, for transactions with a contended balance (a supplier's income credited by every
 * order): `preparePost` writes the transaction row and resolves the accounts (no balance is locked yet),
 * `apply()` moves the balances and writes the entries. Called last, just before the commit, `apply()`
 * holds the balance rows' locks for as short a time as possible. Replays resolve at once.
 */
export async function preparePost(
  tx: Tx,
  req: PostRequest,
): Promise<{ replayed: PostResult } | { apply(): Promise<PostResult> }> {
  const { merged, refs, digest } = checked(req);
  // The transaction row and the merchants' existing accounts in one round trip.
  const merchantRefs = [...refs.values()].filter(
    (r): r is Extract<AccountRef, { merchantId: number }> => !("platform" in r),
  );
  const { transactionId, accountIds } = await repo.insertTransactionFindingAccounts(
    tx,
    transactionRow(req, digest),
    merchantRefs.map((r) => ({ merchantId: r.merchantId, kind: r.kind })),
  );
  if (transactionId === null) {
    const first = await repo.findTransactionByKey(tx, req.idempotencyKey);
    if (!first || first.request_digest !== digest) throw conflict("ledger.idempotencyMismatch");
    return {
      replayed: { transactionId: first.id, replayed: true, entries: await repo.entriesOfTransaction(tx, first.id) },
    };
  }

  // Resolve accounts (one merchant's currency never mixes with another's); balances are applied in
  // account-id order so concurrent transactions lock rows in the same order and cannot deadlock.
  const resolved: { accountId: number; amount: number; ref: AccountRef }[] = [];
  for (const [key, amount] of merged) {
    const ref = refs.get(key);
    if (!ref) continue;
    const known = "platform" in ref ? undefined : accountIds.get(`${ref.merchantId}:${ref.kind}`);
    resolved.push({ accountId: known ?? (await accountIdOf(tx, ref, req.currency)), amount, ref });
  }
  resolved.sort((a, b) => a.accountId - b.accountId);
  return {
    async apply() {
      // Every balance and its entry in one statement: the balance rows stay locked from here to the commit.
      const after = await repo.applyWithEntries(tx, transactionId, resolved);
      const posted: PostedEntry[] = [];
      for (const r of resolved) {
        const balanceAfter = after.get(r.accountId);
        if (balanceAfter === undefined) throw new AppError(CODE.CONFLICT, "ledger.insufficientBalance");
        posted.push({
          accountId: r.accountId,
          merchantId: "platform" in r.ref ? null : r.ref.merchantId,
          kind: "platform" in r.ref ? r.ref.platform : r.ref.kind,
          amount: r.amount,
          balanceAfter,
        });
      }
      return { transactionId, replayed: false, entries: posted };
    },
  };
}

async function accountIdOf(tx: Tx, ref: AccountRef, currency: Currency): Promise<number> {
  if ("platform" in ref) {
    return repo.ensureAccount(
      tx,
      { merchantId: null, kind: ref.platform, currency },
      MAY_GO_NEGATIVE.has(ref.platform),
    );
  }
  // An existing account was created in the merchant's currency; only a first use needs the check.
  const existing = await repo.findAccount(tx, { merchantId: ref.merchantId, kind: ref.kind, currency });
  if (existing !== undefined) return existing;
  const merchant = await getMerchant(tx, ref.merchantId);
  if (!merchant) throw new Error(`ledger: merchant ${ref.merchantId} does not exist`);
  if (merchant.currency !== currency) {
    throw new Error(`ledger: merchant ${ref.merchantId} settles in ${merchant.currency}, not ${currency}`);
  }
  return repo.ensureAccount(tx, { merchantId: ref.merchantId, kind: ref.kind, currency }, false);
}

/** A merchant's balance per account kind, zero for accounts it has not used yet. */
export async function balancesOf(
  db: Executor,
  merchantId: number,
  currency: Currency,
): Promise<Record<MerchantAccountKind, Money>> {
  const rows = await repo.merchantBalances(db, merchantId, currency);
  const out = Object.fromEntries(MERCHANT_ACCOUNT_KINDS.map((k) => [k, { amount: 0, currency }])) as Record<
    MerchantAccountKind,
    Money
  >;
  for (const r of rows) {
    if ((MERCHANT_ACCOUNT_KINDS as readonly string[]).includes(r.kind)) {
      out[r.kind as MerchantAccountKind] = { amount: r.balance, currency };
    }
  }
  return out;
}

/**
 * What must always hold: every transaction's entries sum to zero, every stored balance equals the sum
 * of its account's entries, balances per currency sum to zero, and no merchant account is negative.
 * Returns the violations (empty when the ledger is sound).
 */
export async function checkInvariants(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  for (const t of await repo.unbalancedTransactions(db)) {
    problems.push(`transaction ${t.transaction_id} sums to ${t.total}`);
  }
  for (const a of await repo.driftedAccounts(db)) {
    problems.push(`account ${a.id} holds ${a.balance} but its entries sum to ${a.total}`);
  }
  for (const c of await repo.totalsByCurrency(db)) {
    if (Number(c.total) !== 0) problems.push(`${c.currency} balances sum to ${c.total}`);
  }
  for (const a of await repo.negativeMerchantAccounts(db)) problems.push(`account ${a.id} is negative: ${a.balance}`);
  return problems;
}

export type { EntryFilter } from "./repo";

/** A page of one merchant account's entries (the fund-change lists), newest first. */
export function fundChanges(db: Executor, filter: repo.EntryFilter, page: { offset: number; limit: number }) {
  return repo.entryPage(db, filter, page);
}

/** A page of one account kind's entries across several merchants (a provider's served merchants), newest first. */
export function fundChangesOfMerchants(
  db: Executor,
  filter: {
    merchantIds: readonly number[];
    kind: MerchantAccountKind;
    from?: string | undefined;
    to?: string | undefined;
    type?: string | undefined;
  },
  page: { offset: number; limit: number },
) {
  return repo.entryPageOfMerchants(db, filter, page);
}

/** Merchant accounts of a kind with a positive balance (the T+1 payout's candidates). */
export function positiveAccounts(db: Executor, kind: MerchantAccountKind) {
  return repo.positiveAccounts(db, kind);
}

/** What a merchant account held at an instant (its closing balance for a business day). */
export function balanceAt(
  db: Executor,
  merchantId: number,
  kind: MerchantAccountKind,
  currency: Currency,
  instant: Date,
): Promise<number> {
  return repo.balanceBefore(db, merchantId, kind, currency, instant);
}

/** Per-day or per-month totals of a merchant account (statements, settlements). */
export function periodTotals(db: Executor, f: Parameters<typeof repo.periodTotals>[1]) {
  return repo.periodTotals(db, f);
}

/** How many ledger transactions exist (the highest id: cheap on any size; for metrics). */
export async function transactionCount(db: Executor): Promise<number> {
  return repo.highestTransactionId(db);
}
