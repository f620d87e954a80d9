import type { Executor } from "../../db/tx";
import { paginate } from "../../db/paginate";

/** SQL of the operator audit log: insert and filtered, paged reads. Nothing here updates or deletes. */
export async function insertAudit(
  tx: Executor,
  e: {
    operatorUserId: number;
    action: string;
    subjectType: string;
    subjectId: string;
    before: unknown;
    after: unknown;
    reason: string | null;
    ip: string | null;
    now: Date;
  },
): Promise<number> {
  const row = await tx
    .insertInto("ops_audit_log")
    .values({
      operator_user_id: e.operatorUserId,
      action: e.action,
      subject_type: e.subjectType,
      subject_id: e.subjectId,
      before: e.before === undefined ? null : JSON.stringify(e.before),
      after: e.after === undefined ? null : JSON.stringify(e.after),
      reason: e.reason,
      ip: e.ip,
      created_at: e.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface AuditFilter {
  operatorId?: number;
  action?: string;
  subjectType?: string;
  subjectId?: string;
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
  limit: number;
  offset: number;
}

export async function searchAudit(db: Executor, f: AuditFilter) {
  let q = db.selectFrom("ops_audit_log as a").leftJoin("users as u", "u.id", "a.operator_user_id");
  if (f.operatorId !== undefined) q = q.where("a.operator_user_id", "=", f.operatorId);
  if (f.action) q = q.where("a.action", "=", f.action);
  if (f.subjectType) q = q.where("a.subject_type", "=", f.subjectType);
  if (f.subjectId) q = q.where("a.subject_id", "=", f.subjectId);
  if (f.from) q = q.where("a.created_at", ">=", f.from);
  if (f.before) q = q.where("a.created_at", "<", f.before);
  return paginate(
    q.selectAll("a").select("u.email as operator_email").orderBy("a.created_at", "desc").orderBy("a.id", "desc"),
    q,
    f,
  );
}
