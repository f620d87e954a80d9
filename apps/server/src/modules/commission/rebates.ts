import { sql, type RawBuilder } from "kysely";
import {
  CODE,
  type Currency,
  type Page,
  type RebateGoodsOptionsQuery,
  type RebateOption,
  type RebateQuery,
  type RebateRule,
  type RebateRuleReq,
  type RebateStatement,
} from "@tessera/contracts";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, invalid } from "../../platform/http/errors";
import { fundChanges, post } from "../ledger";
import { goodsNames, ownGoodsChoices } from "../catalog";
import { getMerchant, lockMerchantForUpdate, merchantNames } from "../merchants";
import { approvedPurchasers } from "../docking";
import * as repo from "./rebates.repo";
import { pageWindow } from "../../db/paginate";

/**
 * Purchaser rebates. A supplier sets rules (tiers by monthly volume; for one purchaser or all, for one
 * goods or all; with validity; no two live rules of one scope overlap). The month's close (run with the
 * commission close, in its transaction) writes a statement per supplier and purchaser: the month's net
 * volume (orders less refunds, of the rule's goods when it names one) at the highest tier reached, under
 * the most specific rule valid on the month's last day. Each statement is then paid, in its own
 * transaction, from the supplier's income into the purchaser's rebate account (ledger key
 * `rebate:<id>`); one the supplier cannot afford yet stays due and is tried again by the next run.
 */

export async function closeRebates(
  tx: Executor,
  c: { period: string; lastDay: string; movements: RawBuilder<unknown>; now: Date },
): Promise<number> {
  const r = await sql<{ n: string }>`
    -- Only the movements of suppliers with a live rule can earn a rebate: the rest are left out before
    -- the month's movements are grouped.
    WITH mv AS (SELECT * FROM (${c.movements}) m WHERE m.supplier_id IN (SELECT supplier_id FROM rebate_rules WHERE removed_at IS NULL)),
    pairs AS (SELECT DISTINCT supplier_id, purchaser_id, currency FROM mv),
    pick AS (
      SELECT p.supplier_id, p.purchaser_id, p.currency, rule.id AS rule_id, rule.goods_id, rule.tiers
      FROM pairs p
      JOIN LATERAL (
        SELECT r.id, r.goods_id, r.tiers FROM rebate_rules r
        WHERE r.supplier_id = p.supplier_id AND r.removed_at IS NULL
          AND (r.purchaser_id IS NULL OR r.purchaser_id = p.purchaser_id)
          AND r.valid_from <= ${c.lastDay}::date AND (r.valid_to IS NULL OR r.valid_to >= ${c.lastDay}::date)
        ORDER BY (r.purchaser_id IS NOT NULL) DESC, (r.goods_id IS NOT NULL) DESC, r.id DESC
        LIMIT 1
      ) rule ON true
    ),
    vol AS (
      SELECT pick.supplier_id, pick.purchaser_id, pick.currency, pick.rule_id, pick.tiers, SUM(mv.amount) AS volume
      FROM pick JOIN mv ON mv.supplier_id = pick.supplier_id AND mv.purchaser_id = pick.purchaser_id AND mv.currency = pick.currency
                        AND (pick.goods_id IS NULL OR mv.goods_id = pick.goods_id)
      GROUP BY pick.supplier_id, pick.purchaser_id, pick.currency, pick.rule_id, pick.tiers
    ),
    rated AS (
      SELECT vol.*, (SELECT (t->>'rateBp')::int FROM jsonb_array_elements(vol.tiers) t
                     WHERE (t->>'minVolume')::bigint <= vol.volume ORDER BY (t->>'minVolume')::bigint DESC LIMIT 1) AS rate_bp
      FROM vol WHERE vol.volume > 0
    ),
    ins AS (
      INSERT INTO rebate_statements (supplier_id, purchaser_id, period, currency, rule_id, volume, rate_bp, amount, closed_at)
      SELECT supplier_id, purchaser_id, ${c.period}, currency, rule_id, volume, rate_bp, (volume * rate_bp) / 10000, ${c.now}
      FROM rated WHERE rate_bp IS NOT NULL AND (volume * rate_bp) / 10000 > 0
      ON CONFLICT (supplier_id, purchaser_id, period, currency) DO NOTHING
      RETURNING 1
    )
    SELECT COUNT(*)::text AS n FROM ins`.execute(tx);
  return Number(r.rows[0]?.n ?? 0);
}

/** The rule dialog shows the first 50 matching goods (a keyword narrows them) and up to 200 purchasers, as the pages it read before did. */
const OPTIONS_LIMIT = 50;
const PURCHASER_OPTIONS_LIMIT = 200;

export class RebatesService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async rules(actor: Actor): Promise<RebateRule[]> {
    const rows = await repo.liveRebateRules(this.deps.db, tenantOf(actor));
    const purchasers = await merchantNames(
      this.deps.db,
      rows.flatMap((r) => (r.purchaser_id === null ? [] : [r.purchaser_id])),
    );
    const goods = await goodsNames(
      this.deps.db,
      rows.flatMap((r) => (r.goods_id === null ? [] : [r.goods_id])),
    );
    return rows.map((r) => ({
      id: String(r.id),
      supplierId: String(r.supplier_id),
      purchaserId: r.purchaser_id === null ? null : String(r.purchaser_id),
      purchaserName: r.purchaser_id === null ? null : (purchasers.get(r.purchaser_id) ?? ""),
      goodsId: r.goods_id === null ? null : String(r.goods_id),
      goodsName: r.goods_id === null ? null : (goods.get(r.goods_id) ?? ""),
      tiers: typeof r.tiers === "string" ? (JSON.parse(r.tiers) as RebateRule["tiers"]) : r.tiers,
      validFrom: r.valid_from,
      validTo: r.valid_to,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  /** The goods picker of the rule dialog: the supplier's own goods matching the keyword, newest first. */
  async goodsOptions(actor: Actor, q: RebateGoodsOptionsQuery): Promise<RebateOption[]> {
    const rows = await ownGoodsChoices(this.deps.db, tenantOf(actor), { keyword: q.keyword, limit: OPTIONS_LIMIT });
    return rows.map((r) => ({ id: String(r.id), name: r.name }));
  }

  /** The purchaser picker of the rule dialog: the purchasers the supplier approved a docking with. */
  async purchaserOptions(actor: Actor): Promise<RebateOption[]> {
    const rows = await approvedPurchasers(this.deps.db, tenantOf(actor), PURCHASER_OPTIONS_LIMIT);
    return rows.map((r) => ({ id: String(r.id), name: r.name }));
  }

  async addRule(actor: Actor, req: RebateRuleReq): Promise<RebateRule> {
    const supplierId = tenantOf(actor);
    const purchaserId = req.purchaserId === null ? null : Number(req.purchaserId);
    if (purchaserId !== null && (purchaserId === supplierId || !(await getMerchant(this.deps.db, purchaserId)))) {
      throw invalid("rebate.purchaserNotFound", "purchaserId");
    }
    const goodsId = req.goodsId === null ? null : Number(req.goodsId);
    // A rule counts only the supplier's own sales, so it may name only the supplier's own goods.
    if (
      goodsId !== null &&
      (await ownGoodsChoices(this.deps.db, supplierId, { ids: [goodsId], limit: 1 })).length === 0
    ) {
      throw invalid("rebate.goodsNotFound", "goodsId");
    }
    const id = await withTx(this.deps.db, async (tx) => {
      await lockMerchantForUpdate(tx, supplierId);
      const scope = { supplierId, purchaserId, goodsId, validFrom: req.validFrom, validTo: req.validTo };
      if (await repo.overlappingRebateRule(tx, scope)) throw invalid("rebate.ruleOverlap", "validFrom");
      const row = await repo.insertRebateRule(tx, {
        ...scope,
        tiers: JSON.stringify(req.tiers),
        createdBy: actor.userId,
        createdAt: this.deps.clock.now(),
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "rebate.rule",
        subjectType: "rebateRule",
        subjectId: row.id,
        detail: { ...req },
      });
      return row.id;
    });
    const rule = (await this.rules(actor)).find((r) => r.id === String(id));
    if (!rule) throw new AppError(CODE.NOT_FOUND, "rebate.ruleNotFound");
    return rule;
  }

  async removeRule(actor: Actor, id: number): Promise<void> {
    const removed = await repo.removeRebateRule(this.deps.db, tenantOf(actor), id, this.deps.clock.now());
    if (!removed) throw new AppError(CODE.NOT_FOUND, "rebate.ruleNotFound");
  }

  /** Pays due statements, each in its own transaction; an unaffordable one stays due. How many were paid. */
  async payDue(): Promise<number> {
    const due = await repo.dueRebateStatements(this.deps.db, 500);
    let paid = 0;
    for (const { id } of due) {
      try {
        await withTx(this.deps.db, async (tx) => {
          const s = await repo.lockRebateStatement(tx, id);
          if (s?.state !== "due") return;
          await post(tx, {
            idempotencyKey: `rebate:${id}`,
            kind: "rebate",
            currency: s.currency,
            reason: s.period,
            subject: { type: "rebateStatement", id },
            postings: [
              { account: { merchantId: s.supplier_id, kind: "income" }, amount: -s.amount },
              { account: { merchantId: s.purchaser_id, kind: "rebate" }, amount: s.amount },
            ],
          });
          await repo.markRebatePaid(tx, id, this.deps.clock.now());
          paid += 1;
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    return paid;
  }

  /** RebateRecord (as purchaser) or the supplier's view (as supplier). */
  async statements(actor: Actor, side: "purchaser" | "supplier", q: RebateQuery): Promise<Page<RebateStatement>> {
    const me = tenantOf(actor);
    const { rows, total } = await repo.rebateStatementPage(this.deps.db, me, side, {
      from: q.from,
      to: q.to,
      ...pageWindow(q),
    });
    const names = new Map<number, string>();
    for (const id of new Set(rows.flatMap((r) => [r.supplier_id, r.purchaser_id]))) {
      names.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    }
    const m = (amount: number, currency: Currency) => ({ amount: Number(amount), currency });
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        supplierId: String(r.supplier_id),
        supplierName: names.get(r.supplier_id) ?? "",
        purchaserId: String(r.purchaser_id),
        purchaserName: names.get(r.purchaser_id) ?? "",
        period: r.period,
        volume: m(r.volume, r.currency),
        rateBp: r.rate_bp,
        amount: m(r.amount, r.currency),
        state: r.state,
        closedAt: new Date(r.closed_at).toISOString(),
        paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** RebateFundChange: the purchaser's rebate account's changes, newest first. */
  async changes(
    actor: Actor,
    q: { page: number; pageSize: number; from?: string | undefined; to?: string | undefined },
  ) {
    const merchant = await getMerchant(this.deps.db, tenantOf(actor));
    if (!merchant) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    const page = await fundChanges(
      this.deps.db,
      { merchantId: merchant.id, kind: "rebate", currency: merchant.currency, from: q.from, to: q.to },
      pageWindow(q),
    );
    return { page, currency: merchant.currency };
  }
}
