import { CODE } from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { PaymentsAdapter, ProviderBillLine } from "../../platform/adapters/payments";
import type { Actor } from "../../platform/auth/actor";
import { platformDay, startOfPlatformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { recordOperatorAction } from "../ops";
import type { WithdrawalsService } from "../withdrawals";
import * as repo from "./repo";

export interface ReconciliationDeps {
  db: Db;
  clock: Clock;
  /** The payment adapters in use; those that give bills (`bill`) are reconciled. */
  adapters: PaymentsAdapter[];
  withdrawals: WithdrawalsService;
  log: (line: string) => void;
}

export interface RunResult {
  provider: string;
  day: string;
  billLines: number;
  /** Differences this run found that were not recorded yet. */
  added: number;
  /** Differences of the day in all (open or resolved). */
  differences: number;
}

const HOLD_KEY = "withdraw.review.reconciliation" as const;
/** A payment confirmed here this long after midnight may be on the previous day's bill. */
const MIDNIGHT_GRACE_MS = 15 * 60_000;

/**
 * The daily reconciliation (issue 41, item 5): a provider's bill of a platform day against our payments
 * paid and refunds started that day, both ways. `missing`: ours, not on the bill; `extra`: on the bill, not
 * ours; `amount`: both, amounts differ. Recorded once per day and reference (a second run adds nothing).
 * An open difference holds its merchant's automatic payout (withdrawals' review, reason
 * withdraw.review.reconciliation) until an operator resolves it; the last one resolved releases it.
 */
export class ReconciliationService {
  constructor(private readonly deps: ReconciliationDeps) {
    deps.withdrawals.holdPayoutsWhen(async (merchantId) => {
      const count = await repo.openCountOf(deps.db, merchantId);
      return count > 0 ? { key: HOLD_KEY, params: { count } } : null;
    });
    deps.withdrawals.payoutWaitsFor((day) => this.dayReconciled(day));
  }

  /** Whether `day` is reconciled for every adapter that gives bills (the T+1 payout of that day waits for it). */
  async dayReconciled(day: string): Promise<boolean> {
    const providers = this.deps.adapters.filter((a) => a.bill !== undefined).map((a) => a.name);
    return providers.length === 0 || (await repo.runsOf(this.deps.db, providers, day)) === providers.length;
  }

  /** A day's reconciliation: whether it is done (the T+1 payout waits for it) and each provider's run. */
  async day(day: string) {
    const runs = await repo.runsOfDay(this.deps.db, day);
    return {
      day,
      reconciled: await this.dayReconciled(day),
      runs: runs.map((r) => ({
        provider: r.provider,
        billLines: r.bill_lines,
        differences: r.differences,
        ranAt: new Date(r.ran_at).toISOString(),
      })),
    };
  }

  /** Whether any adapter in use gives bills. */
  get enabled(): boolean {
    return this.deps.adapters.some((a) => a.bill !== undefined);
  }

  /** Reconciles `day` (YYYY-MM-DD, a platform day already over) for every adapter that gives bills. */
  async run(day: string): Promise<RunResult[]> {
    const start = startOfPlatformDay(day);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start.getTime()) || platformDay(start) !== day) {
      throw invalid("reconciliation.badDay", "day");
    }
    if (day >= platformDay(this.deps.clock.now())) throw invalid("reconciliation.badDay", "day");
    const adapters = this.deps.adapters.filter((a) => a.bill !== undefined);
    if (adapters.length === 0) throw conflict("reconciliation.noBills");
    const results: RunResult[] = [];
    for (const a of adapters) results.push(await this.runOne(a, day));
    return results;
  }

  private async runOne(adapter: PaymentsAdapter, day: string): Promise<RunResult> {
    const lines: ProviderBillLine[] = (await adapter.bill?.(day)) ?? [];
    const from = startOfPlatformDay(day);
    const to = new Date(from.getTime() + 86_400_000);
    const db = this.deps.db;
    const provider = adapter.name;
    const diffs: repo.NewDifference[] = [];
    const base = { provider, day };

    // Payments: the bill's (summed per order, should one appear twice) against ours paid that day.
    const billPaid = new Map<string, { amount: number; ref: string; merchantId: number | null }>();
    for (const l of lines.filter((x) => x.kind === "payment")) {
      const had = billPaid.get(l.paymentNo);
      billPaid.set(l.paymentNo, {
        amount: (had?.amount ?? 0) + l.amount,
        ref: l.providerRef,
        merchantId: l.merchantId,
      });
    }
    const ours = await repo.paymentsPaidBetween(db, provider, from, to);
    // Paid at the provider just before midnight, its notification here just after: on the previous
    // day's bill, which is looked at for those only.
    let previous: Map<string, number> | null = null;
    const onPreviousBill = async (p: (typeof ours)[number]) => {
      if (!p.paid_at || new Date(p.paid_at).getTime() - from.getTime() > MIDNIGHT_GRACE_MS) return false;
      previous ??= new Map(
        ((await adapter.bill?.(platformDay(new Date(from.getTime() - 86_400_000)))) ?? [])
          .filter((l) => l.kind === "payment")
          .map((l) => [l.paymentNo, l.amount]),
      );
      return previous.get(p.payment_no) === Number(p.amount);
    };
    for (const p of ours) {
      const b = billPaid.get(p.payment_no);
      if (!b && (await onPreviousBill(p))) continue;
      const common = {
        ...base,
        entry: "payment" as const,
        reference: p.payment_no,
        paymentNo: p.payment_no,
        merchantId: p.merchant_id,
        ourAmount: Number(p.amount),
      };
      if (!b) diffs.push({ ...common, kind: "missing", providerRef: p.provider_txn_id, billAmount: null });
      else if (b.amount !== Number(p.amount)) {
        diffs.push({ ...common, kind: "amount", providerRef: b.ref, billAmount: b.amount });
      }
    }
    const oursNos = new Set(ours.map((p) => p.payment_no));
    const others = [...billPaid.keys()].filter((no) => !oursNos.has(no));
    // A bill line of ours confirmed on another day (a notification after midnight) is compared, not extra.
    const known = new Map((await repo.paymentsByNo(db, provider, others)).map((p) => [p.payment_no, p]));
    for (const no of others) {
      const b = billPaid.get(no);
      if (!b) continue;
      const p = known.get(no);
      if (p?.paid_at && Number(p.amount) === b.amount) continue;
      diffs.push({
        ...base,
        kind: p?.paid_at ? "amount" : "extra",
        entry: "payment",
        reference: no,
        paymentNo: no,
        providerRef: b.ref,
        merchantId: p?.merchant_id ?? b.merchantId,
        ourAmount: p?.paid_at ? Number(p.amount) : null,
        billAmount: b.amount,
      });
    }

    // Refunds: the bill's started that day against ours started that day.
    const billRefunds = new Map(lines.filter((x) => x.kind === "refund").map((l) => [l.refundNo ?? "", l]));
    const ourRefunds = await repo.refundsStartedBetween(db, provider, from, to);
    for (const r of ourRefunds) {
      const b = billRefunds.get(r.refund_no);
      const common = {
        ...base,
        entry: "refund" as const,
        reference: r.refund_no,
        paymentNo: r.payment_no,
        merchantId: r.merchant_id,
        ourAmount: Number(r.amount),
      };
      if (!b) diffs.push({ ...common, kind: "missing", providerRef: r.provider_refund_id, billAmount: null });
      else if (b.amount !== Number(r.amount)) {
        diffs.push({ ...common, kind: "amount", providerRef: b.providerRef, billAmount: b.amount });
      }
    }
    const ourRefundNos = new Set(ourRefunds.map((r) => r.refund_no));
    const otherRefunds = [...billRefunds.keys()].filter((no) => !ourRefundNos.has(no));
    const knownRefunds = new Map((await repo.refundsByNo(db, otherRefunds)).map((r) => [r.refund_no, r]));
    for (const no of otherRefunds) {
      const b = billRefunds.get(no);
      if (!b) continue;
      const r = knownRefunds.get(no);
      if (r && Number(r.amount) === b.amount) continue;
      diffs.push({
        ...base,
        kind: r ? "amount" : "extra",
        entry: "refund",
        reference: no,
        paymentNo: b.paymentNo,
        providerRef: b.providerRef,
        merchantId: r?.merchant_id ?? b.merchantId,
        ourAmount: r ? Number(r.amount) : null,
        billAmount: b.amount,
      });
    }

    const now = this.deps.clock.now();
    const { added, total } = await withTx(db, async (tx) => {
      const n = await repo.insertDifferences(tx, diffs, now);
      const all = Number((await repo.countDifferences(tx, provider, day)).n);
      await repo.recordRun(tx, { provider, day, billLines: lines.length, differences: all, now });
      return { added: n, total: all };
    });
    if (added > 0) this.deps.log(`reconciliation ${provider} ${day}: ${added} new difference(s)`);
    return { provider, day, billLines: lines.length, added, differences: total };
  }

  /** The reconciliation of yesterday (the daily job). */
  runYesterday(): Promise<RunResult[]> {
    return this.run(platformDay(new Date(this.deps.clock.now().getTime() - 86_400_000)));
  }

  async list(q: {
    state?: "open" | "resolved" | undefined;
    day?: string | undefined;
    merchantId?: number | undefined;
    page?: number | undefined;
    pageSize?: number | undefined;
  }) {
    const pageSize = Math.min(Math.max(q.pageSize ?? 20, 1), 100);
    const page = Math.max(q.page ?? 1, 1);
    const [rows, count] = await Promise.all([
      repo.listDifferences(this.deps.db, q, pageSize, (page - 1) * pageSize),
      repo.countListed(this.deps.db, q),
    ]);
    return {
      total: Number(count.n),
      page,
      pageSize,
      list: rows.map((r) => ({
        id: String(r.id),
        provider: r.provider,
        day: r.day,
        kind: r.kind,
        entry: r.entry,
        reference: r.reference,
        paymentNo: r.payment_no,
        providerRef: r.provider_ref,
        merchantId: r.merchant_id === null ? null : String(r.merchant_id),
        merchantName: r.merchant_name ?? null,
        ourAmount: r.our_amount === null ? null : Number(r.our_amount),
        billAmount: r.bill_amount === null ? null : Number(r.bill_amount),
        state: r.state,
        resolution: r.resolution,
        resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
        createdAt: new Date(r.created_at).toISOString(),
      })),
    };
  }

  /**
   * An operator's decision on a difference (the reason required, in the audit log). The merchant's last
   * open difference resolved releases its held automatic payouts.
   */
  async resolve(operator: Actor, id: number, reason: string, ip: string): Promise<{ released: number }> {
    const trimmed = reason.trim();
    if (!trimmed) throw invalid("reconciliation.reasonRequired", "reason");
    const merchantId = await withTx(this.deps.db, async (tx) => {
      const d = await repo.lockDifference(tx, id);
      if (!d) throw new AppError(CODE.NOT_FOUND, "reconciliation.notFound");
      if (d.state !== "open") throw conflict("reconciliation.alreadyResolved");
      const now = this.deps.clock.now();
      await repo.resolveDifference(tx, id, { reason: trimmed, by: operator.userId, now });
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "reconciliation.resolve",
        subjectType: "reconciliation_difference",
        subjectId: String(id),
        before: { state: "open", kind: d.kind, reference: d.reference },
        after: { state: "resolved" },
        reason: trimmed,
        ip,
        now,
      });
      return d.merchant_id;
    });
    if (merchantId === null || (await repo.openCountOf(this.deps.db, merchantId)) > 0) return { released: 0 };
    return { released: await this.deps.withdrawals.releaseHeld(merchantId, HOLD_KEY) };
  }
}
