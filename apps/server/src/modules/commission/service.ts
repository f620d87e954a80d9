import { sql, type RawBuilder } from "kysely";
import {
  CODE,
  type BusinessType,
  type CloseReply,
  type CommissionRule,
  type CommissionRuleReq,
  type CommissionStatement,
  type CommissionStatementQuery,
  type Lang,
  type Page,
  type StatementDetail,
} from "@tessera/contracts";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { platformDay, startOfPlatformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { getMerchant, lockMerchantForUpdate } from "../merchants";
import { statementPdf } from "./pdf";
import { closeRebates } from "./rebates";
import { recordOperatorAction } from "../ops";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

export interface CommissionDeps {
  db: Db;
  clock: Clock;
  /** The order movements of a window, as a derived table (purchasing's read). */
  orderMovements(from: Date, to: Date): RawBuilder<unknown>;
  /** Active service-provider bindings (onboarding's read). */
  activeBindings(
    db: Executor,
    providerId?: number,
  ): Promise<{ provider_id: number; merchant_id: number; kind: "brand" | "vendor" }[]>;
  /** Pays the rebate statements still due (after a close, and on every run of the job). */
  payRebates(): Promise<number>;
  /** The refund window: a statement is payable from its month's last day plus this many days (config COMMISSION_HOLD_DAYS). */
  holdDays: number;
}

const MONTH_RE = /^(\d{4})-(\d{2})$/;
/** The month after and before a YYYY-MM period. */
export function shiftPeriod(period: string, by: number): string {
  const m = MONTH_RE.exec(period);
  if (!m) throw new Error(`bad period ${period}`);
  const index = Number(m[1]) * 12 + Number(m[2]) - 1 + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** The first platform day a period's statement can be confirmed: the month's last day plus the hold's days. */
export function payableFrom(period: string, holdDays: number): string {
  const next = startOfPlatformDay(`${shiftPeriod(period, 1)}-01`);
  const lastDay = platformDay(new Date(next.getTime() - 1));
  return new Date(Date.parse(`${lastDay}T00:00:00Z`) + holdDays * 86_400_000).toISOString().slice(0, 10);
}

const notFoundStatement = () => new AppError(CODE.NOT_FOUND, "commission.statementNotFound");

/**
 * Service-provider commission. The operator keeps each provider's rules (no two live rules of one
 * scope overlap); a month's close (the operator's call, or the monthly job for the month just ended)
 * writes lines for the served merchants' orders and refunds and a statement per provider. A statement
 * is held for refunds until `payableFrom` (the month's last day plus `holdDays`; a refund after the close
 * is clawed back in the next month's statement); from then on the provider confirms a draft statement and its closing amount moves from the platform into its fund account (the
 * `income` account: its home balance, ChangesFundsP, withdrawals and the T+1 payout), once (ledger key
 * `commission:<statement id>`, under the statement's row lock).
 */
export class CommissionService {
  constructor(private readonly deps: CommissionDeps) {}

  async rules(providerId?: number): Promise<CommissionRule[]> {
    const rows = await repo.rules(this.deps.db, providerId);
    const names = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.provider_id))) {
      names.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    }
    return rows.map((r) => presentRule(r, names.get(r.provider_id) ?? ""));
  }

  async providerRules(actor: Actor): Promise<CommissionRule[]> {
    return this.rules(tenantOf(actor));
  }

  /** `POST ops/commission/rules`: a rule for a provider; refused when it overlaps another of its scope. */
  async addRule(operator: Actor, req: CommissionRuleReq): Promise<CommissionRule> {
    const providerId = Number(req.providerId);
    const provider = await getMerchant(this.deps.db, providerId);
    if (!provider?.roles.includes("providers")) throw invalid("commission.providerNotFound", "providerId");
    const brandId = req.brandId === null ? null : Number(req.brandId);
    const id = await withTx(this.deps.db, async (tx) => {
      await lockMerchantForUpdate(tx, providerId);
      if (
        await repo.overlapping(tx, {
          providerId,
          businessType: req.businessType,
          brandId,
          from: req.validFrom,
          to: req.validTo,
        })
      ) {
        throw invalid("commission.ruleOverlap", "validFrom");
      }
      const row = await repo.insertRule(tx, {
        providerId,
        businessType: req.businessType,
        brandId,
        rateBp: req.rateBp,
        validFrom: req.validFrom,
        validTo: req.validTo,
        createdBy: operator.userId,
        createdAt: this.deps.clock.now(),
      });
      // The operator console's audit log lists what operators did (issue 40, item 16).
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "commission.rule",
        subjectType: "commissionRule",
        subjectId: String(row.id),
        before: null,
        after: { ...req },
        reason: null,
        ip: null,
        now: this.deps.clock.now(),
      });
      return row.id;
    });
    const rule = (await this.rules(providerId)).find((r) => r.id === String(id));
    if (!rule) throw new AppError(CODE.NOT_FOUND, "commission.ruleNotFound");
    return rule;
  }

  async removeRule(operator: Actor, id: number): Promise<void> {
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      if (!(await repo.removeRule(tx, id, now))) throw new AppError(CODE.NOT_FOUND, "commission.ruleNotFound");
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "commission.ruleRemove",
        subjectType: "commissionRule",
        subjectId: String(id),
        before: null,
        after: { removed: true },
        reason: null,
        ip: null,
        now,
      });
    });
  }

  /**
   * Closes a month that has ended: idempotent (a second close, even in parallel, finds the month
   * closed and writes nothing).
   */
  async close(period: string, actorUserId: number | null): Promise<CloseReply> {
    const now = this.deps.clock.now();
    const next = shiftPeriod(period, 1);
    const to = startOfPlatformDay(`${next}-01`);
    if (to.getTime() > now.getTime()) throw invalid("commission.periodOpen", "period");
    const from = startOfPlatformDay(`${period}-01`);
    const reply = await withTx(this.deps.db, async (tx): Promise<CloseReply> => {
      const claimed = await repo.claimClose(tx, period, now);
      if (!claimed) {
        const done = await repo.closeOf(tx, period);
        return { period, statements: done.statements, lines: done.lines, rebates: 0, alreadyClosed: true };
      }
      // The close sorts every served movement of the month once: room for that sort in memory (for this
      // transaction only) rather than an external merge on disk.
      await sql`SET LOCAL work_mem = '256MB'`.execute(tx);
      const bindings = await this.deps.activeBindings(tx);
      const result = await repo.closeMonth(tx, {
        period,
        previous: shiftPeriod(period, -1),
        movements: this.deps.orderMovements(from, to),
        bindings,
        now,
      });
      const lastDay = platformDay(new Date(to.getTime() - 1));
      const rebates = await closeRebates(tx, { period, lastDay, movements: this.deps.orderMovements(from, to), now });
      await repo.recordClose(tx, period, result);
      await audit(tx, {
        actorUserId,
        action: "commission.close",
        subjectType: "commissionClose",
        subjectId: period,
        detail: { ...result, rebates },
      });
      return { period, ...result, rebates, alreadyClosed: false };
    });
    await this.deps.payRebates();
    return reply;
  }

  /** The monthly job: closes the month before the current platform month. */
  async closeLastMonth(): Promise<CloseReply> {
    const today = platformDay(this.deps.clock.now());
    return this.close(shiftPeriod(today.slice(0, 7), -1), null);
  }

  async statements(actor: Actor, q: CommissionStatementQuery): Promise<Page<CommissionStatement>> {
    const [rows, count] = await repo.statementPage(this.deps.db, {
      providerId: tenantOf(actor),
      from: q.from,
      to: q.to,
      ...pageWindow(q),
    });
    return { list: rows.map((r) => this.present(r)), total: Number(count.n), page: q.page, pageSize: q.pageSize };
  }

  async statement(actor: Actor, id: number): Promise<StatementDetail> {
    const row = await repo.statement(this.deps.db, id);
    if (!row || row.provider_id !== tenantOf(actor)) throw notFoundStatement();
    const merchants = await repo.statementMerchants(this.deps.db, id);
    const m = (amount: number) => ({ amount, currency: row.currency });
    const out: StatementDetail["merchants"] = [];
    for (const r of merchants) {
      const accrued = Number(r.accrued);
      const clawedBack = Number(r.clawed_back);
      out.push({
        merchantId: String(r.merchant_id),
        merchantName: (await getMerchant(this.deps.db, r.merchant_id))?.name ?? "",
        side: r.side,
        orders: Number(r.orders),
        basis: m(Number(r.basis)),
        accrued: m(accrued),
        clawedBack: m(clawedBack),
        net: m(accrued - clawedBack),
      });
    }
    return { ...this.present(row), merchants: out };
  }

  /** `GET commission/statements/:id/pdf`: the provider's statement as a printable PDF, in the reader's language. */
  async pdf(actor: Actor, id: number, lang: Lang): Promise<{ fileName: string; data: Buffer }> {
    const s = await this.statement(actor, id);
    const provider = await getMerchant(this.deps.db, Number(s.providerId));
    return {
      fileName: `commission-${s.period}.pdf`,
      data: await statementPdf(lang, s, provider?.name ?? "", this.deps.clock.now()),
    };
  }

  /**
   * `PUT commission/statements/:id/confirm`: the provider confirms a draft whose hold has ended; its
   * closing is paid once. Before `payableFrom` it is refused and nothing changes.
   */
  async confirm(actor: Actor, id: number): Promise<CommissionStatement> {
    const providerId = tenantOf(actor);
    const now = this.deps.clock.now();
    const row = await withTx(this.deps.db, async (tx) => {
      const s = await repo.lockStatement(tx, id);
      if (!s || s.provider_id !== providerId) throw notFoundStatement();
      if (s.state !== "draft" || s.closing <= 0) throw conflict("commission.notDraft");
      const from = payableFrom(s.period, this.deps.holdDays);
      if (platformDay(now) < from) throw new AppError(CODE.CONFLICT, "commission.onHold", { payableFrom: from });
      await post(tx, {
        idempotencyKey: `commission:${id}`,
        kind: "commission",
        currency: s.currency,
        reason: `${s.period}`,
        subject: { type: "commissionStatement", id },
        createdBy: actor.userId,
        postings: [
          { account: { platform: "bank_clearing" }, amount: -s.closing },
          { account: { merchantId: providerId, kind: "income" }, amount: s.closing },
        ],
      });
      await repo.markPaid(tx, id, actor.userId, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commission.confirm",
        subjectType: "commissionStatement",
        subjectId: id,
        detail: { closing: s.closing },
      });
      return repo.statement(tx, id);
    });
    if (!row) throw notFoundStatement();
    return this.present(row);
  }

  private present(s: repo.StatementRow): CommissionStatement {
    return presentStatement(s, payableFrom(s.period, this.deps.holdDays));
  }
}

function presentRule(r: repo.RuleRow, providerName: string): CommissionRule {
  return {
    id: String(r.id),
    providerId: String(r.provider_id),
    providerName,
    businessType: r.business_type as BusinessType | null,
    brandId: r.brand_id === null ? null : String(r.brand_id),
    rateBp: r.rate_bp,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

function presentStatement(s: repo.StatementRow, payable: string): CommissionStatement {
  const m = (amount: number) => ({ amount: Number(amount), currency: s.currency });
  return {
    id: String(s.id),
    providerId: String(s.provider_id),
    period: s.period,
    opening: m(s.opening),
    accrued: m(s.accrued),
    clawedBack: m(s.clawed_back),
    closing: m(s.closing),
    lines: s.lines,
    state: s.state,
    closedAt: new Date(s.closed_at).toISOString(),
    payableFrom: payable,
    paidAt: s.paid_at ? new Date(s.paid_at).toISOString() : null,
  };
}
