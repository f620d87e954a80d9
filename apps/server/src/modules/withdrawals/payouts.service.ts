import type { Page, PayoutDispatchReply, PayoutInstructionQuery, PayoutInstructionView } from "@tessera/contracts";
import { pageWindow } from "../../db/paginate";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { BankPayouts } from "../../platform/adapters/bank";
import { platformDay, type Clock } from "../../platform/clock";
import * as payouts from "./payouts.repo";
import * as repo from "./repo";

/** Seconds before a failed submission is tried again (then every hour, until the bank takes it). */
export const PAYOUT_RETRY_SECONDS = [30, 120, 600, 1800] as const;
const RETRY_AFTER_LAST_SECONDS = 3600;
/** A claimed instruction is the claimer's for this long; after it (the claimer died) another may send it. */
export const PAYOUT_LEASE_MS = 2 * 60_000;
const BATCH = 20;

export interface PayoutOutboxDeps {
  db: Db;
  clock: Clock;
  bank: BankPayouts;
  /** Failed tries, for the log (a job has no request to answer). */
  log?: (line: string) => void;
}

/**
 * The payout outbox: a withdrawal's instruction to the bank is written in the transaction that moves it to
 * `bank_paying` and submitted afterwards, at once by the request that made it and otherwise by the job
 * (at start and on a timer), so a crash between the commit and the bank loses nothing. Each instruction
 * goes to the bank once: a sender claims it (row lock, SKIP LOCKED, and a lease), and the bank adapter
 * takes a second submission of the same reference (a sender that died after the bank took it) as done.
 */
export class PayoutOutbox {
  constructor(private readonly deps: PayoutOutboxDeps) {}

  /** Writes the instruction of `w` (paying to its card) in the caller's transaction. */
  async enqueue(tx: Executor, w: repo.WithdrawalRow, reference: string): Promise<void> {
    const card = await repo.findCard(tx, w.card_id);
    if (!card) throw new Error(`withdrawal ${w.id} has no card`);
    const now = this.deps.clock.now();
    await payouts.insertPayout(tx, {
      withdrawalId: w.id,
      reference,
      amount: w.amount,
      currency: w.currency,
      companyName: card.company_name,
      bank: card.bank,
      city: card.city,
      account: card.account,
      day: platformDay(now),
      dueAt: now,
    });
  }

  /** The withdrawal ended (paid or failed) in `tx`: its instruction is acknowledged, or never sent. */
  close(tx: Executor, withdrawalId: number): Promise<void> {
    return payouts.closePayout(tx, withdrawalId, this.deps.clock.now());
  }

  /**
   * Submits the instruction of one withdrawal now, if it is due and nobody else is sending it. Never throws:
   * the caller's transaction has committed, and what is not sent here the job sends.
   */
  async sendNow(withdrawalId: number): Promise<PayoutDispatchReply> {
    try {
      return await this.send(await this.claim({ limit: 1, withdrawalId }));
    } catch (err) {
      this.deps.log?.(`payout of withdrawal ${withdrawalId}: left to the payout job (${String(err)})`);
      return { submitted: 0, failed: 1 };
    }
  }

  /** Submits every due instruction, in batches. Safe on several processes at once. */
  async dispatchDue(): Promise<PayoutDispatchReply> {
    const total = { submitted: 0, failed: 0 };
    for (;;) {
      const claimed = await this.claim({ limit: BATCH });
      const sent = await this.send(claimed);
      total.submitted += sent.submitted;
      total.failed += sent.failed;
      if (claimed.length < BATCH) return total;
    }
  }

  private claim(f: { limit: number; withdrawalId?: number }): Promise<payouts.PayoutRow[]> {
    const now = this.deps.clock.now();
    return withTx(this.deps.db, (tx) =>
      payouts.claimDue(tx, { now, leaseUntil: new Date(now.getTime() + PAYOUT_LEASE_MS), ...f }),
    );
  }

  private async send(rows: payouts.PayoutRow[]): Promise<PayoutDispatchReply> {
    let submitted = 0;
    let failed = 0;
    for (const row of rows) {
      try {
        await this.deps.bank.submit({
          reference: row.reference,
          amount: row.amount,
          currency: row.currency,
          companyName: row.company_name,
          bank: row.bank,
          city: row.city,
          account: row.account,
          day: row.day,
        });
      } catch (err) {
        failed++;
        const message = err instanceof Error ? err.message.slice(0, 300) : "submission failed";
        const wait = PAYOUT_RETRY_SECONDS[row.attempts - 1] ?? RETRY_AFTER_LAST_SECONDS;
        await payouts.markFailedTry(
          this.deps.db,
          row.id,
          message,
          new Date(this.deps.clock.now().getTime() + wait * 1000),
        );
        this.deps.log?.(`payout ${row.reference}: try ${row.attempts} failed (${message}); again in ${wait} s`);
        continue;
      }
      await payouts.markSubmitted(this.deps.db, row.id, this.deps.clock.now());
      submitted++;
    }
    return { submitted, failed };
  }

  /** The operator console's list: instructions the bank has not acknowledged yet, oldest first. */
  async open(q: PayoutInstructionQuery): Promise<Page<PayoutInstructionView>> {
    const { rows, total } = await payouts.openPayoutPage(this.deps.db, { state: q.state, ...pageWindow(q) });
    const list = rows.map((r): PayoutInstructionView => ({
      withdrawalId: String(r.withdrawal_id),
      reference: r.reference,
      state: r.state === "submitted" ? "submitted" : "pending",
      amount: { amount: r.amount, currency: r.currency },
      companyName: r.company_name,
      bank: r.bank,
      account: r.account,
      createdAt: new Date(r.created_at).toISOString(),
      submittedAt: r.submitted_at ? new Date(r.submitted_at).toISOString() : null,
      attempts: r.attempts,
      lastError: r.last_error,
      nextAttemptAt: r.state === "pending" ? new Date(r.next_attempt_at).toISOString() : null,
    }));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }
}
