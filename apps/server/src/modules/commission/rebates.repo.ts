import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of purchaser rebates: rules and statements. Each read names the supplier (or purchaser) it is for. */

export function liveRebateRules(db: Executor, supplierId: number) {
  return db
    .selectFrom("rebate_rules")
    .select(["id", "supplier_id", "purchaser_id", "goods_id", "tiers", "created_at"])
    .select([sql<string>`valid_from::text`.as("valid_from"), sql<string | null>`valid_to::text`.as("valid_to")])
    .where("supplier_id", "=", supplierId)
    .where("removed_at", "is", null)
    .orderBy("id")
    .execute();
}

interface RuleScope {
  supplierId: number;
  purchaserId: number | null;
  goodsId: number | null;
  validFrom: string;
  validTo: string | null;
}

/** Whether a live rule of the same scope (purchaser, goods) overlaps these dates. */
export async function overlappingRebateRule(tx: Executor, r: RuleScope): Promise<boolean> {
  const overlap = await sql<{ id: number }>`
        SELECT id FROM rebate_rules
        WHERE supplier_id = ${r.supplierId} AND removed_at IS NULL
          AND purchaser_id IS NOT DISTINCT FROM ${r.purchaserId}::bigint AND goods_id IS NOT DISTINCT FROM ${r.goodsId}::bigint
          AND valid_from <= COALESCE(${r.validTo}::date, 'infinity'::date) AND COALESCE(valid_to, 'infinity'::date) >= ${r.validFrom}::date
        LIMIT 1`.execute(tx);
  return overlap.rows.length > 0;
}

export function insertRebateRule(
  tx: Executor,
  r: RuleScope & { tiers: string; createdBy: number; createdAt: Date },
): Promise<{ id: number }> {
  return tx
    .insertInto("rebate_rules")
    .values({
      supplier_id: r.supplierId,
      purchaser_id: r.purchaserId,
      goods_id: r.goodsId,
      tiers: r.tiers,
      valid_from: r.validFrom,
      valid_to: r.validTo,
      created_by: r.createdBy,
      created_at: r.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** Removes a live rule of the supplier's; false when there is none. */
export async function removeRebateRule(db: Executor, supplierId: number, id: number, now: Date): Promise<boolean> {
  const r = await db
    .updateTable("rebate_rules")
    .set({ removed_at: now })
    .where("id", "=", id)
    .where("supplier_id", "=", supplierId)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function dueRebateStatements(db: Executor, limit: number) {
  return db
    .selectFrom("rebate_statements")
    .select("id")
    .where("state", "=", "due")
    .orderBy("id")
    .limit(limit)
    .execute();
}

export function lockRebateStatement(tx: Executor, id: number) {
  return tx.selectFrom("rebate_statements").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function markRebatePaid(tx: Executor, id: number, now: Date): Promise<void> {
  await tx.updateTable("rebate_statements").set({ state: "paid", paid_at: now }).where("id", "=", id).execute();
}

export async function rebateStatementPage(
  db: Executor,
  merchantId: number,
  side: "purchaser" | "supplier",
  f: { from?: string | undefined; to?: string | undefined; offset: number; limit: number },
) {
  let query = db
    .selectFrom("rebate_statements")
    .where(side === "purchaser" ? "purchaser_id" : "supplier_id", "=", merchantId);
  if (f.from) query = query.where("period", ">=", f.from);
  if (f.to) query = query.where("period", "<=", f.to);
  return paginate(query.selectAll().orderBy("period", "desc").orderBy("id", "desc"), query, f);
}
