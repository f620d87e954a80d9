import { sql, type RawBuilder } from "kysely";
import type { Executor } from "../../db/tx";

/** SQL of the commission module. Provider-facing reads name the provider they are for. */

export function rules(db: Executor, providerId?: number) {
  let q = db
    .selectFrom("commission_rules")
    .select(["id", "provider_id", "business_type", "brand_id", "rate_bp", "created_at"])
    .select([sql<string>`valid_from::text`.as("valid_from"), sql<string | null>`valid_to::text`.as("valid_to")])
    .where("removed_at", "is", null);
  if (providerId !== undefined) q = q.where("provider_id", "=", providerId);
  return q.orderBy("provider_id").orderBy("valid_from").limit(1000).execute();
}
export type RuleRow = Awaited<ReturnType<typeof rules>>[number];

/** A live rule of the same provider and scope whose validity overlaps [from, to]. */
export async function overlapping(
  tx: Executor,
  r: { providerId: number; businessType: string | null; brandId: number | null; from: string; to: string | null },
): Promise<boolean> {
  const found = await sql<{ id: number }>`
    SELECT id FROM commission_rules
    WHERE provider_id = ${r.providerId} AND removed_at IS NULL
      AND business_type IS NOT DISTINCT FROM ${r.businessType} AND brand_id IS NOT DISTINCT FROM ${r.brandId}::bigint
      AND valid_from <= COALESCE(${r.to}::date, 'infinity'::date) AND COALESCE(valid_to, 'infinity'::date) >= ${r.from}::date
    LIMIT 1`.execute(tx);
  return found.rows.length > 0;
}

/**
 * The month's close in one statement: movements of served merchants' orders (accruals) and refunds
 * (clawbacks) priced by the most specific rule valid on the order's day (brand and type, brand, type,
 * any), one line per provider and movement (brand side first when a provider serves both sides of an
 * order); a statement per provider and currency with lines, or with a negative balance carried from the
 * month before. Lines already written (a movement seen by an earlier close) are left alone.
 */
export async function closeMonth(
  tx: Executor,
  c: {
    period: string;
    previous: string;
    movements: RawBuilder<unknown>;
    bindings: { provider_id: number; merchant_id: number; kind: "brand" | "vendor" }[];
    now: Date;
  },
): Promise<{ statements: number; lines: number }> {
  const providers = c.bindings.map((b) => b.provider_id);
  const merchants = c.bindings.map((b) => b.merchant_id);
  const sides = c.bindings.map((b) => b.kind);
  const inserted = await sql<{ lines: string }>`
    WITH b AS (
      SELECT * FROM unnest(${providers}::bigint[], ${merchants}::bigint[], ${sides}::text[]) AS b(provider_id, merchant_id, side)
    ),
    mv AS (${c.movements}),
    -- Two equi-joins (a brand's sales, a vendor's purchases) rather than one join on an OR, which
    -- PostgreSQL can only run as a nested loop over every binding.
    served AS (
      SELECT b.provider_id, b.merchant_id, b.side, mv.order_id, mv.refund_id, mv.brand_id, mv.business_type, mv.currency, mv.amount, mv.order_at, mv.at
      FROM mv JOIN b ON b.side = 'brand' AND b.merchant_id = mv.supplier_id
      UNION ALL
      SELECT b.provider_id, b.merchant_id, b.side, mv.order_id, mv.refund_id, mv.brand_id, mv.business_type, mv.currency, mv.amount, mv.order_at, mv.at
      FROM mv JOIN b ON b.side = 'vendor' AND b.merchant_id = mv.purchaser_id
    ),
    -- Every served movement joined to its provider's live rules that apply to it (a hash join on the
    -- provider: a provider has few rules), then one sort picks per provider and movement the brand side
    -- first and, on that side, the most specific rule. A movement no rule applies to writes no line.
    -- (Not a LATERAL lookup per movement: that runs a rule scan and a sort for every order.)
    cand AS (
      SELECT DISTINCT ON (s.provider_id, s.order_id, s.refund_id)
             s.provider_id, s.merchant_id, s.side, s.order_id, s.refund_id, s.currency, s.amount, s.at, r.id AS rule_id, r.rate_bp
      FROM served s
      JOIN commission_rules r ON r.provider_id = s.provider_id AND r.removed_at IS NULL
        AND (r.brand_id IS NULL OR r.brand_id = s.brand_id)
        AND (r.business_type IS NULL OR r.business_type = s.business_type)
        AND r.valid_from <= (s.order_at AT TIME ZONE 'Asia/Shanghai')::date
        AND (r.valid_to IS NULL OR r.valid_to >= (s.order_at AT TIME ZONE 'Asia/Shanghai')::date)
      ORDER BY s.provider_id, s.order_id, s.refund_id, (s.side = 'brand') DESC, (r.brand_id IS NOT NULL) DESC, (r.business_type IS NOT NULL) DESC, r.id DESC
    ),
    owners AS (
      SELECT provider_id, currency FROM cand
      UNION
      SELECT provider_id, currency FROM commission_statements WHERE period = ${c.previous} AND state = 'carried' AND closing < 0
    ),
    st AS (
      INSERT INTO commission_statements (provider_id, period, currency, closed_at)
      SELECT provider_id, ${c.period}, currency, ${c.now} FROM owners
      ON CONFLICT (provider_id, period, currency) DO NOTHING
      RETURNING id, provider_id, currency
    ),
    ln AS (
      INSERT INTO commission_lines (statement_id, provider_id, merchant_id, side, kind, order_id, refund_id, basis, rate_bp, rule_id, amount, occurred_at)
      SELECT st.id, cand.provider_id, cand.merchant_id, cand.side, CASE WHEN cand.refund_id = 0 THEN 'accrual' ELSE 'clawback' END,
             cand.order_id, cand.refund_id, cand.amount, cand.rate_bp, cand.rule_id, (cand.amount * cand.rate_bp) / 10000, cand.at
      FROM cand JOIN st ON st.provider_id = cand.provider_id AND st.currency = cand.currency
      ON CONFLICT (provider_id, order_id, refund_id) DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT COUNT(*) FROM ln)::text AS lines`.execute(tx);
  // The statements' figures from their lines and the carried balance of the month before.
  const updated = await sql<{ n: string }>`
    WITH totals AS (
      SELECT s.id,
             COALESCE((SELECT p.closing FROM commission_statements p
                       WHERE p.provider_id = s.provider_id AND p.currency = s.currency AND p.period = ${c.previous}
                         AND p.state = 'carried' AND p.closing < 0), 0) AS opening,
             COALESCE(SUM(l.amount) FILTER (WHERE l.amount > 0), 0) AS accrued,
             COALESCE(-SUM(l.amount) FILTER (WHERE l.amount < 0), 0) AS clawed_back,
             COUNT(l.id) AS lines
      FROM commission_statements s LEFT JOIN commission_lines l ON l.statement_id = s.id
      WHERE s.period = ${c.period}
      GROUP BY s.id
    ),
    up AS (
      UPDATE commission_statements s
      SET opening = t.opening, accrued = t.accrued, clawed_back = t.clawed_back, lines = t.lines,
          closing = t.opening + t.accrued - t.clawed_back,
          state = CASE WHEN t.opening + t.accrued - t.clawed_back > 0 THEN 'draft' ELSE 'carried' END
      FROM totals t WHERE s.id = t.id
      RETURNING 1
    )
    SELECT COUNT(*)::text AS n FROM up`.execute(tx);
  return { statements: Number(updated.rows[0]?.n ?? 0), lines: Number(inserted.rows[0]?.lines ?? 0) };
}

export function statementPage(
  db: Executor,
  f: { providerId: number; from?: string | undefined; to?: string | undefined; offset: number; limit: number },
) {
  let q = db.selectFrom("commission_statements").where("provider_id", "=", f.providerId);
  if (f.from) q = q.where("period", ">=", f.from);
  if (f.to) q = q.where("period", "<=", f.to);
  return Promise.all([
    q.selectAll().orderBy("period", "desc").orderBy("id", "desc").offset(f.offset).limit(f.limit).execute(),
    q.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
}

export function statement(db: Executor, id: number) {
  return db.selectFrom("commission_statements").selectAll().where("id", "=", id).executeTakeFirst();
}
export function lockStatement(tx: Executor, id: number) {
  return tx.selectFrom("commission_statements").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}
export type StatementRow = NonNullable<Awaited<ReturnType<typeof statement>>>;

/** A statement's figures per served merchant. */
export async function statementMerchants(db: Executor, statementId: number) {
  const r = await sql<{
    merchant_id: number;
    side: "brand" | "vendor";
    orders: string;
    basis: string;
    accrued: string;
    clawed_back: string;
  }>`
    SELECT merchant_id, side, COUNT(*) FILTER (WHERE kind = 'accrual')::text AS orders,
           SUM(basis)::text AS basis,
           COALESCE(SUM(amount) FILTER (WHERE amount > 0), 0)::text AS accrued,
           COALESCE(-SUM(amount) FILTER (WHERE amount < 0), 0)::text AS clawed_back
    FROM commission_lines WHERE statement_id = ${statementId}
    GROUP BY merchant_id, side ORDER BY merchant_id`.execute(db);
  return r.rows;
}

export async function markPaid(tx: Executor, id: number, by: number, now: Date): Promise<void> {
  await tx
    .updateTable("commission_statements")
    .set({ state: "paid", paid_at: now, paid_by: by })
    .where("id", "=", id)
    .execute();
}

/* ---------- rules and closes (the service's writes) ---------- */

export function insertRule(
  tx: Executor,
  r: {
    providerId: number;
    businessType: string | null;
    brandId: number | null;
    rateBp: number;
    validFrom: string;
    validTo: string | null;
    createdBy: number;
    createdAt: Date;
  },
): Promise<{ id: number }> {
  return tx
    .insertInto("commission_rules")
    .values({
      provider_id: r.providerId,
      business_type: r.businessType,
      brand_id: r.brandId,
      rate_bp: r.rateBp,
      valid_from: r.validFrom,
      valid_to: r.validTo,
      created_by: r.createdBy,
      created_at: r.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** Removes a live rule; false when there is none. */
export async function removeRule(tx: Executor, id: number, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable("commission_rules")
    .set({ removed_at: now })
    .where("id", "=", id)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Claims a month's close; undefined when it was closed (or is being closed) already. */
export function claimClose(tx: Executor, period: string, now: Date) {
  return tx
    .insertInto("commission_closes")
    .values({ period, closed_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning("period")
    .executeTakeFirst();
}

export function closeOf(tx: Executor, period: string) {
  return tx.selectFrom("commission_closes").selectAll().where("period", "=", period).executeTakeFirstOrThrow();
}

export async function recordClose(
  tx: Executor,
  period: string,
  result: { statements: number; lines: number },
): Promise<void> {
  await tx
    .updateTable("commission_closes")
    .set({ statements: result.statements, lines: result.lines })
    .where("period", "=", period)
    .execute();
}
