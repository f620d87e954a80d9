import {
  CODE,
  renderMessage,
  type Lang,
  type BankCard,
  type BankCardReq,
  type Page,
  type QueueItem,
  type QueueItemsQuery,
  type Withdrawal,
  type WithdrawalAction,
  type WithdrawalQuery,
  type WithdrawReq,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { platformDay, startOfPlatformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { moneyText } from "../../platform/money-text";
import { maskAccount } from "../funds";
import { balanceAt, balancesOf, positiveAccounts, post } from "../ledger";
import { getMerchant, merchantNames, merchantOfActor, type MerchantRow } from "../merchants";
import { recordOperatorAction, type ReviewOutcome, type ReviewQueue } from "../ops";
import type { PayoutOutbox } from "./payouts.service";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

export interface WithdrawalsDeps {
  db: Db;
  clock: Clock;
  /** The payout instructions to the bank, written in the review's transaction (payouts.service.ts). */
  payouts: PayoutOutbox;
  /** Withdrawals a merchant may request per platform day. */
  dailyLimit: number;
  /** Automatic payouts above this many minor units wait for an operator's two reviews. */
  reviewAbove: number;
  /** Automatic payouts of merchants younger than this many days wait for an operator's two reviews. */
  reviewDays: number;
}

/** Why an automatic payout waits for an operator: a message key with its parameters. */
export interface ReviewReason {
  key: "withdraw.review.aboveThreshold" | "withdraw.review.newMerchant" | "withdraw.review.reconciliation";
  params: Record<string, string | number>;
}

function nextDay(day: string): string {
  return platformDay(new Date(startOfPlatformDay(day).getTime() + 86_400_000));
}

const ROLES_OF_ACCOUNT = { reserve: ["sale"], income: ["business", "providers"] } as const;

/**
 * Withdrawal bank cards (reviewed in the operator console) and withdrawals: the amount is held in the
 * ledger when requested; two different operators review; the payout instruction is written with the second
 * review and submitted to the bank adapter by the payout outbox (payouts.service.ts); an operator
 * marks it paid (the hold leaves the platform) or failed (the hold goes back). Suppliers' income is also
 * paid out automatically each day (T+1) by `autoPayout`, which is safe to run twice.
 */
export class WithdrawalsService {
  constructor(private readonly deps: WithdrawalsDeps) {}

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /* ---------- bank cards ---------- */

  async card(actor: Actor): Promise<BankCard | null> {
    const merchant = await this.merchantOf(actor);
    const row = await repo.currentCard(this.deps.db, merchant.id);
    return row ? presentCard(row) : null;
  }

  /** Adds or replaces the withdrawal card; the new card waits for an operator's review. */
  async saveCard(actor: Actor, req: BankCardReq): Promise<BankCard> {
    const merchant = await this.merchantOf(actor);
    const row = await withTx(this.deps.db, async (tx) => {
      const id = await repo.replaceCard(tx, { merchantId: merchant.id, ...req, submittedBy: actor.userId });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "withdrawals.card.submit",
        subjectType: "withdrawal_card",
        subjectId: id,
      });
      return repo.findCard(tx, id);
    });
    if (!row) throw new Error("a card must exist inside its own transaction");
    return presentCard(row);
  }

  /** The operator console's bank-card review queue. */
  cardQueue(): ReviewQueue {
    const decide = async (
      tx: Tx,
      id: number,
      operator: Actor,
      now: Date,
      reason: string | null,
    ): Promise<ReviewOutcome> => {
      const card = await repo.lockCard(tx, id);
      if (!card || !card.current) throw new AppError(CODE.NOT_FOUND, "error.notFound");
      if (card.state !== "pending") throw conflict("review.notPending");
      const state = reason === null ? "approved" : "rejected";
      await repo.reviewCard(tx, id, { state, reason, by: operator.userId, now });
      return {
        subjectType: "withdrawalCard",
        subjectId: String(id),
        before: { state: card.state },
        after: { state, ...(reason !== null && { reason }) },
      };
    };
    return {
      kind: "bankCard",
      countPending: (db) => repo.countPendingCards(db),
      list: async (db, q: QueueItemsQuery): Promise<Page<QueueItem>> => {
        const { rows, total } = await repo.cardPage(db, {
          state: q.state,
          merchantId: q.merchantId !== undefined ? Number(q.merchantId) : undefined,
          ...pageWindow(q),
        });
        const names = await merchantNames(
          db,
          rows.map((r) => r.merchant_id),
        );
        const list = rows.map((r): QueueItem => ({
          id: String(r.id),
          kind: "bankCard",
          merchantId: String(r.merchant_id),
          merchantName: names.get(r.merchant_id) ?? "",
          state: r.state,
          submittedAt: new Date(r.created_at).toISOString(),
          reviewedAt: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
          reviewedBy: r.reviewed_by === null ? null : String(r.reviewed_by),
          rejectReason: r.reject_reason,
          fields: {
            companyName: r.company_name,
            bank: r.bank,
            city: r.city,
            account: r.account,
            merchantName: names.get(r.merchant_id) ?? "",
          },
          documents: [],
        }));
        return { list, total, page: q.page, pageSize: q.pageSize };
      },
      approve: (tx, id, operator, now) => decide(tx, id, operator, now, null),
      reject: (tx, id, operator, reason, now) => decide(tx, id, operator, now, reason),
    };
  }

  /* ---------- withdrawals ---------- */

  /**
   * Requests a withdrawal, checked in the order of spec 01 §5: balance, card added, card approved, none
   * in progress, daily count. The hold and the record are written together; the same request key
   * returns the first withdrawal.
   */
  async request(actor: Actor, req: WithdrawReq): Promise<Withdrawal> {
    const merchant = await this.merchantOf(actor);
    try {
      return await this.requestOnce(actor, merchant, req);
    } catch (err) {
      // A replay of a request that won meanwhile (its hold now fails the checks) is answered with it.
      const refused = err instanceof AppError || isUniqueViolation(err, "withdrawals_one_in_progress");
      const winner = refused ? await repo.findByRequestKey(this.deps.db, merchant.id, req.requestKey) : undefined;
      if (winner) return this.presentOne(winner, false);
      if (isUniqueViolation(err, "withdrawals_one_in_progress")) throw conflict("withdraw.inProgress");
      throw err;
    }
  }

  private async requestOnce(actor: Actor, merchant: MerchantRow, req: WithdrawReq): Promise<Withdrawal> {
    const account = req.account ?? "income";
    if (!ROLES_OF_ACCOUNT[account].some((r) => actor.roles.includes(r))) {
      throw invalid("withdraw.accountNotAllowed", "account");
    }
    const replay = await repo.findByRequestKey(this.deps.db, merchant.id, req.requestKey);
    if (replay) return this.presentOne(replay, false);

    const balances = await balancesOf(this.deps.db, merchant.id, merchant.currency);
    if (balances[account].amount < req.amount) {
      throw new AppError(CODE.CONFLICT, "ledger.insufficientBalance", {}, "amount");
    }
    const card = await repo.currentCard(this.deps.db, merchant.id);
    if (!card) throw conflict("withdraw.addCardFirst");
    if (card.state !== "approved") throw conflict("withdraw.cardNotApproved");
    if (await repo.hasInProgress(this.deps.db, merchant.id)) throw conflict("withdraw.inProgress");
    const day = platformDay(this.deps.clock.now());
    if ((await repo.countOnDay(this.deps.db, merchant.id, day)) >= this.deps.dailyLimit) {
      throw conflict("withdraw.dailyLimit");
    }
    // Two requests that race past these checks meet the database's one-in-progress index (see request).

    const row = await withTx(this.deps.db, async (tx) => {
      const id = await repo.insertWithdrawal(tx, {
        merchantId: merchant.id,
        account,
        amount: req.amount,
        currency: merchant.currency,
        cardId: card.id,
        remark: req.remark ?? "",
        automatic: false,
        state: "under_review",
        requestKey: req.requestKey,
        requestedBy: actor.userId,
        day,
      });
      if (id === null) return repo.findByRequestKey(tx, merchant.id, req.requestKey);
      await this.hold(
        tx,
        { id, merchantId: merchant.id, account, amount: req.amount, currency: merchant.currency },
        actor.userId,
      );
      await audit(tx, {
        actorUserId: actor.userId,
        action: "withdrawals.request",
        subjectType: "withdrawal",
        subjectId: id,
        detail: { amount: req.amount, account },
      });
      return repo.findWithdrawal(tx, id);
    });
    return this.presentOne(row, false);
  }

  private hold(
    tx: Tx,
    w: {
      id: number;
      merchantId: number;
      account: "reserve" | "income";
      amount: number;
      currency: MerchantRow["currency"];
    },
    by: number | null,
  ) {
    return post(tx, {
      idempotencyKey: `withdrawal-hold:${w.id}`,
      kind: "withdrawal_hold",
      currency: w.currency,
      subject: { type: "withdrawal", id: w.id },
      createdBy: by,
      postings: [
        { account: { merchantId: w.merchantId, kind: w.account }, amount: -w.amount },
        { account: { merchantId: w.merchantId, kind: "withdrawal_hold" }, amount: w.amount },
      ],
    });
  }

  async list(actor: Actor, q: WithdrawalQuery, lang: Lang = "cn"): Promise<Page<Withdrawal>> {
    const isOperator = actor.kind === "operator";
    const merchantId = isOperator
      ? q.merchantId !== undefined
        ? Number(q.merchantId)
        : undefined
      : (await this.merchantOf(actor)).id;
    const { rows, total } = await repo.withdrawalPage(this.deps.db, {
      merchantId,
      state: q.state,
      ...pageWindow(q),
    });
    return { list: await this.present(rows, isOperator, lang), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * An operator moves a withdrawal on: first review, second review (another operator; the payout goes
   * to the bank), paid, failed, or rejected during review. Holds are released or paid out in the same
   * transaction as the state change.
   */
  async act(
    operator: Actor,
    id: number,
    action: WithdrawalAction,
    reason: string | undefined,
    ip: string,
  ): Promise<Withdrawal> {
    const now = this.deps.clock.now();
    const row = await withTx(this.deps.db, async (tx) => {
      const w = await repo.lockWithdrawal(tx, id);
      if (!w) throw new AppError(CODE.NOT_FOUND, "withdraw.notFound");
      const before = { state: w.state };
      const need = (states: readonly string[]) => {
        if (!states.includes(w.state)) throw conflict("withdraw.wrongState");
      };
      const needReason = () => {
        if (!reason) throw invalid("funds.reasonEmpty", "reason");
        return reason;
      };
      switch (action) {
        case "firstReview":
          need(["under_review"]);
          await repo.updateWithdrawal(tx, id, { state: "first_review_passed", firstReviewedBy: operator.userId });
          break;
        case "secondReview": {
          need(["first_review_passed"]);
          if (w.first_reviewed_by === operator.userId) throw conflict("withdraw.sameReviewer");
          const reference = payoutReference(id);
          await repo.updateWithdrawal(tx, id, {
            state: "bank_paying",
            secondReviewedBy: operator.userId,
            payoutReference: reference,
          });
          // The instruction to the bank commits with the state, or neither does (issue 44).
          await this.deps.payouts.enqueue(tx, w, reference);
          break;
        }
        case "reject":
          need(["under_review", "first_review_passed"]);
          await this.release(tx, w, operator.userId, needReason());
          await repo.updateWithdrawal(tx, id, { state: "failed", failReason: needReason(), finishedAt: now });
          break;
        case "markFailed":
          need(["bank_paying"]);
          await this.release(tx, w, operator.userId, needReason());
          await repo.updateWithdrawal(tx, id, { state: "failed", failReason: needReason(), finishedAt: now });
          await this.deps.payouts.close(tx, id);
          break;
        case "markPaid":
          need(["bank_paying"]);
          await post(tx, {
            idempotencyKey: `withdrawal-payout:${id}`,
            kind: "withdrawal_payout",
            currency: w.currency,
            reason: w.payout_reference ?? "",
            subject: { type: "withdrawal", id },
            createdBy: operator.userId,
            postings: [
              { account: { merchantId: w.merchant_id, kind: "withdrawal_hold" }, amount: -w.amount },
              { account: { platform: "bank_clearing" }, amount: w.amount },
            ],
          });
          await repo.updateWithdrawal(tx, id, { state: "success", finishedAt: now });
          await this.deps.payouts.close(tx, id);
          break;
      }
      const after = await repo.findWithdrawal(tx, id);
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: `withdrawal.${action}`,
        subjectType: "withdrawal",
        subjectId: String(id),
        before,
        after: { state: after?.state, amount: w.amount, currency: w.currency },
        reason: reason ?? null,
        ip,
        now,
      });
      return after;
    });
    // Submitted at once; should this process die first, or the bank refuse, the payout job sends it.
    if (action === "secondReview") await this.deps.payouts.sendNow(id);
    return this.presentOne(row, true);
  }

  private release(tx: Tx, w: repo.WithdrawalRow, by: number, reason: string) {
    return post(tx, {
      idempotencyKey: `withdrawal-release:${w.id}`,
      kind: "withdrawal_release",
      currency: w.currency,
      reason,
      subject: { type: "withdrawal", id: w.id },
      createdBy: by,
      postings: [
        { account: { merchantId: w.merchant_id, kind: "withdrawal_hold" }, amount: -w.amount },
        { account: { merchantId: w.merchant_id, kind: w.account }, amount: w.amount },
      ],
    });
  }

  /**
   * T+1: pays out each supplier's income as it stood at the end of `day` (yesterday by default) to its
   * approved card. One withdrawal per merchant and day (request key `auto-<day>`), so a second run,
   * or a run on another process, creates nothing new. Merchants with a withdrawal in progress or no
   * approved card are skipped and picked up on a later day.
   */
  async autoPayout(
    day = platformDay(new Date(this.deps.clock.now().getTime() - 86_400_000)),
  ): Promise<{ day: string; created: number; held: number; skipped: number }> {
    const cutoff = startOfPlatformDay(nextDay(day));
    let created = 0;
    let held = 0;
    let skipped = 0;
    for (const acc of await positiveAccounts(this.deps.db, "income")) {
      const merchantId = acc.merchantId;
      if (merchantId === null) continue;
      const card = await repo.currentCard(this.deps.db, merchantId);
      const closing = Math.min(acc.balance, await balanceAt(this.deps.db, merchantId, "income", acc.currency, cutoff));
      if (!card || card.state !== "approved" || closing <= 0 || (await repo.hasInProgress(this.deps.db, merchantId))) {
        skipped++;
        continue;
      }
      const requestKey = `auto-${day}`;
      const review = await this.reviewReason(merchantId, closing, acc.currency);
      try {
        const result = await withTx(this.deps.db, async (tx) => {
          const id = await repo.insertWithdrawal(tx, {
            merchantId,
            account: "income",
            amount: closing,
            currency: acc.currency,
            cardId: card.id,
            remark: `T+1 ${day}`,
            automatic: true,
            state: review ? "under_review" : "bank_paying",
            requestKey,
            requestedBy: null,
            day: platformDay(this.deps.clock.now()),
            reviewReason: review,
          });
          if (id === null) return null;
          await this.hold(tx, { id, merchantId, account: "income", amount: closing, currency: acc.currency }, null);
          // A payout that waits goes through the operators' two reviews as a requested withdrawal does.
          if (!review) {
            await repo.updateWithdrawal(tx, id, { state: "bank_paying", payoutReference: payoutReference(id) });
            const w = await repo.findWithdrawal(tx, id);
            if (w) await this.deps.payouts.enqueue(tx, w, payoutReference(id));
          }
          return repo.findWithdrawal(tx, id);
        });
        if (!result) {
          skipped++;
          continue;
        }
        if (review) {
          held++;
          continue;
        }
        await this.deps.payouts.sendNow(result.id);
        created++;
      } catch (err) {
        // Another run created it first, or the merchant requested a withdrawal meanwhile.
        if (isUniqueViolation(err) || (err instanceof AppError && err.messageKey === "ledger.insufficientBalance")) {
          skipped++;
          continue;
        }
        throw err;
      }
    }
    return { day, created, held, skipped };
  }

  readonly #holds: ((merchantId: number) => Promise<ReviewReason | null>)[] = [];

  /** Another module's reason to hold a merchant's automatic payout for an operator (reconciliation). */
  holdPayoutsWhen(hold: (merchantId: number) => Promise<ReviewReason | null>): void {
    this.#holds.push(hold);
  }

  readonly #gates: ((day: string) => Promise<boolean>)[] = [];

  /** Another module's condition for the daily T+1 run of `day` (the reconciliation: that day's bills matched). */
  payoutWaitsFor(gate: (day: string) => Promise<boolean>): void {
    this.#gates.push(gate);
  }

  /** Whether the daily T+1 payout of `day` may run now (every gate open). */
  async payoutReady(day: string): Promise<boolean> {
    for (const gate of this.#gates) if (!(await gate(day))) return false;
    return true;
  }

  /**
   * The hold `key` is lifted for the merchant: its automatic payouts waiting for that reason alone go to
   * the bank now (as one without a reason would have); one another reason still holds keeps waiting, now
   * for that reason. Answers how many were released.
   */
  async releaseHeld(merchantId: number, key: ReviewReason["key"]): Promise<number> {
    let released = 0;
    for (const w of await repo.heldAutomatic(this.deps.db, merchantId, key)) {
      const reason = await this.reviewReason(merchantId, w.amount, w.currency);
      const moved = await withTx(this.deps.db, async (tx) => {
        if (!(await repo.setReviewReason(tx, w.id, key, reason))) return false;
        if (reason) return false;
        await repo.updateWithdrawal(tx, w.id, { state: "bank_paying", payoutReference: payoutReference(w.id) });
        const row = await repo.findWithdrawal(tx, w.id);
        if (row) await this.deps.payouts.enqueue(tx, row, payoutReference(w.id));
        return true;
      });
      if (moved) {
        await this.deps.payouts.sendNow(w.id);
        released++;
      }
    }
    return released;
  }

  /**
   * Whether an automatic payout must wait for an operator: a large amount, or a merchant too new to trust
   * with money leaving the platform unreviewed (the classic pattern of a fraudulent seller: join, sell,
   * cash out, vanish).
   */
  private async reviewReason(merchantId: number, amount: number, currency: string): Promise<ReviewReason | null> {
    for (const hold of this.#holds) {
      const reason = await hold(merchantId);
      if (reason) return reason;
    }
    if (amount > this.deps.reviewAbove) {
      return {
        key: "withdraw.review.aboveThreshold",
        params: { amount: moneyText(amount, currency), threshold: moneyText(this.deps.reviewAbove, currency) },
      };
    }
    const m = await getMerchant(this.deps.db, merchantId);
    const joined = m ? new Date(m.created_at).getTime() : 0;
    if (this.deps.clock.now().getTime() - joined < this.deps.reviewDays * 86_400_000) {
      return { key: "withdraw.review.newMerchant", params: { days: this.deps.reviewDays } };
    }
    return null;
  }

  private async presentOne(row: repo.WithdrawalRow | undefined, unmasked: boolean): Promise<Withdrawal> {
    const [w] = row ? await this.present([row], unmasked) : [];
    if (!w) throw new Error("the withdrawal must exist inside its own transaction");
    return w;
  }

  private async present(rows: repo.WithdrawalRow[], unmasked: boolean, lang: Lang = "cn"): Promise<Withdrawal[]> {
    const names = await merchantNames(
      this.deps.db,
      rows.map((r) => r.merchant_id),
    );
    const out: Withdrawal[] = [];
    for (const r of rows) {
      const card = await repo.findCard(this.deps.db, r.card_id);
      out.push({
        id: String(r.id),
        merchantId: String(r.merchant_id),
        merchantName: names.get(r.merchant_id) ?? "",
        account: r.account,
        amount: { amount: r.amount, currency: r.currency },
        state: r.state,
        remark: r.remark,
        failReason: r.fail_reason,
        automatic: r.automatic,
        card: {
          companyName: card?.company_name ?? "",
          bank: card?.bank ?? "",
          city: card?.city ?? "",
          account: card ? (unmasked ? card.account : maskAccount(card.account)) : "",
        },
        createdAt: new Date(r.created_at).toISOString(),
        firstReviewedBy: r.first_reviewed_by === null ? null : String(r.first_reviewed_by),
        secondReviewedBy: r.second_reviewed_by === null ? null : String(r.second_reviewed_by),
        payoutReference: r.payout_reference,
        finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
        reviewReason: r.review_reason ? renderMessage(r.review_reason.key, lang, r.review_reason.params) : null,
      });
    }
    return out;
  }
}

function payoutReference(id: number): string {
  return `PAY${String(id).padStart(10, "0")}`;
}

/** A card as its merchant sees it: the account masked (operators see it whole in the review queue). */
function presentCard(row: repo.CardRow): BankCard {
  return {
    id: String(row.id),
    companyName: row.company_name,
    bank: row.bank,
    city: row.city,
    account: maskAccount(row.account),
    state: row.state,
    rejectReason: row.reject_reason,
    submittedAt: new Date(row.created_at).toISOString(),
  };
}
