import {
  CODE,
  type AuditQuery,
  type AuditRow,
  type MerchantSearchQuery,
  type OpsMerchantRow,
  type Page,
  type QueueItem,
  type QueueItemsQuery,
  type QueueSummary,
} from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import type { Clock } from "../../platform/clock";
import { AppError, notFound } from "../../platform/http/errors";
import { changeMerchant, findMerchants, lockMerchantForUpdate, merchantRoles, presentMerchant } from "../merchants";
import type { ReviewQueue } from "../../platform/review-queue";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

export interface OpsDeps {
  db: Db;
  clock: Clock;
}

/** A date-only upper bound includes that whole day. */
function upperBound(v: string): Date {
  const d = new Date(v);
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(d.getTime() + 86_400_000) : new Date(d.getTime() + 1);
}

/**
 * The operator console: review queues provided by other modules, merchant search, and the audit log.
 * Every decision and its audit row (operator, time, before, after, reason, address) are written in one
 * transaction.
 */
export class OpsService {
  private readonly queues = new Map<string, ReviewQueue>();

  constructor(private readonly deps: OpsDeps) {}

  /** Adds a review queue (the ledger's bank-card reviews plug in here the same way). */
  register(queue: ReviewQueue): void {
    if (this.queues.has(queue.kind)) throw new Error(`review queue ${queue.kind} registered twice`);
    this.queues.set(queue.kind, queue);
  }

  private queue(kind: string): ReviewQueue {
    const q = this.queues.get(kind);
    if (!q) throw notFound();
    return q;
  }

  async summaries(): Promise<QueueSummary[]> {
    const out: QueueSummary[] = [];
    for (const q of this.queues.values()) out.push({ kind: q.kind, pending: await q.countPending(this.deps.db) });
    return out;
  }

  list(kind: string, q: QueueItemsQuery): Promise<Page<QueueItem>> {
    return this.queue(kind).list(this.deps.db, q);
  }

  async decide(
    operator: Actor,
    kind: string,
    id: number,
    decision: { approve: true } | { approve: false; reason: string },
    ip: string,
  ): Promise<void> {
    const queue = this.queue(kind);
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const outcome = decision.approve
        ? await queue.approve(tx, id, operator, now)
        : await queue.reject(tx, id, operator, decision.reason, now);
      await repo.insertAudit(tx, {
        operatorUserId: operator.userId,
        action: `${kind}.${decision.approve ? "approve" : "reject"}`,
        subjectType: outcome.subjectType,
        subjectId: outcome.subjectId,
        before: outcome.before,
        after: outcome.after,
        reason: decision.approve ? null : decision.reason,
        ip,
        now,
      });
    });
  }

  /** Grants or withdraws the service-provider role (spec 01 §6: provider status is granted on review). */
  async setProviderRole(operator: Actor, merchantId: number, grant: boolean, ip: string): Promise<OpsMerchantRow> {
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const merchant = await lockMerchantForUpdate(tx, merchantId);
      if (!merchant) throw notFound();
      const before = merchantRoles(merchant.roles);
      const after = grant ? merchantRoles([...before, "providers"]) : before.filter((r) => r !== "providers");
      await changeMerchant(tx, merchantId, { roles: after, now });
      await repo.insertAudit(tx, {
        operatorUserId: operator.userId,
        action: grant ? "merchant.grantProvider" : "merchant.revokeProvider",
        subjectType: "merchant",
        subjectId: String(merchantId),
        before: { roles: before },
        after: { roles: after },
        reason: null,
        ip,
        now,
      });
    });
    const page = await this.merchants({ keyword: String(merchantId), page: 1, pageSize: 20 });
    const row = page.list.find((r) => r.merchantId === String(merchantId));
    if (!row) throw notFound();
    return row;
  }

  async merchants(q: MerchantSearchQuery): Promise<Page<OpsMerchantRow>> {
    const { total, rows } = await findMerchants(this.deps.db, {
      ...(q.keyword && { keyword: q.keyword }),
      ...(q.realNameState && { realNameState: q.realNameState }),
      ...(q.apiPermission && { apiPermission: q.apiPermission }),
      ...pageWindow(q),
    });
    return {
      list: rows.map((r) => ({
        ...presentMerchant(r),
        ownerEmail: r.owner_email,
        createdAt: r.created_at.toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async auditLog(q: AuditQuery): Promise<Page<AuditRow>> {
    if (q.from && q.to && new Date(q.from) > new Date(q.to)) {
      throw new AppError(CODE.INVALID_PARAMETER, "validation.invalidParameter", { field: "from" }, "from");
    }
    const { total, rows } = await repo.searchAudit(this.deps.db, {
      ...(q.operatorId && { operatorId: Number(q.operatorId) }),
      ...(q.action && { action: q.action }),
      ...(q.subjectType && { subjectType: q.subjectType }),
      ...(q.subjectId && { subjectId: q.subjectId }),
      ...(q.from && { from: new Date(q.from) }),
      ...(q.to && { before: upperBound(q.to) }),
      ...pageWindow(q),
    });
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        operatorId: String(r.operator_user_id),
        operatorEmail: r.operator_email,
        action: r.action,
        subjectType: r.subject_type,
        subjectId: r.subject_id,
        before: r.before,
        after: r.after,
        reason: r.reason,
        ip: r.ip,
        createdAt: r.created_at.toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
