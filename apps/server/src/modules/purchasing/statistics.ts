import type {
  Page,
  SalesStatsQuery,
  SalesStatsRow,
  SettlementQuery,
  SettlementRow,
  SupOrderQuery,
  SupOrderRow,
  SupplyCheckQuery,
  SupplyCheckRow,
} from "@tessera/contracts";
import type { Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { platformDay } from "../../platform/clock";
import { fundChanges, periodTotals } from "../ledger";
import { getMerchant, merchantOfActor } from "../merchants";
import * as repo from "./statistics.repo";
import { pageWindow } from "../../db/paginate";

/**
 * The statistics and settlement pages (spec 01 §2 names them only; our reading, per the GLOSSARY):
 * - sale/SalesStatistics: what the purchaser bought for resale, per goods or per supplier, less refunds;
 * - sale/PurchaseSettlement: per day or month, purchases and refunds beside the SUP account's ledger
 *   totals (money in, money out, closing balance), so the purchaser can settle its purchases;
 * - business/CheckSupOrder: the supplier's daily check of its supply orders against its income ledger
 *   (a non-zero difference is a day that does not balance);
 * - business/SUPOrder: orders paid from purchasers' SUP accounts, each with where its money is now
 *   (held in escrow, settled, partly refunded, refunded).
 * All of them are queries over purchase and refund orders and the ledger; nothing is stored here.
 */
export class StatisticsService {
  constructor(private readonly deps: { db: Db }) {}

  async salesStatistics(actor: Actor, q: SalesStatsQuery): Promise<Page<SalesStatsRow>> {
    const me = await merchantOfActor(this.deps.db, actor);
    const { rows, total } = await repo.salesStats(this.deps.db, {
      purchaserId: me.id,
      dimension: q.dimension,
      from: q.from,
      to: q.to,
      ...pageWindow(q),
    });
    const list: SalesStatsRow[] = [];
    for (const r of rows) {
      const supplierName = (await getMerchant(this.deps.db, Number(r.supplier_id)))?.name ?? "";
      const amount = Number(r.amount);
      const refundedAmount = Number(r.r_amount);
      list.push({
        key: String(r.key),
        name: q.dimension === "goods" ? r.name : supplierName,
        supplierId: String(r.supplier_id),
        supplierName,
        orders: Number(r.orders),
        quantity: Number(r.quantity),
        faceAmount: Number(r.face),
        amount,
        refundedQuantity: Number(r.r_quantity),
        refundedAmount,
        netAmount: amount - refundedAmount,
        currency: r.currency,
      });
    }
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  async purchaseSettlement(actor: Actor, q: SettlementQuery): Promise<SettlementRow[]> {
    const me = await merchantOfActor(this.deps.db, actor);
    const orders = await repo.purchaseTotals(this.deps.db, {
      purchaserId: me.id,
      unit: q.unit,
      from: q.from,
      to: q.to,
    });
    const ledger = await periodTotals(this.deps.db, {
      merchantId: me.id,
      kind: "sup",
      currency: me.currency,
      unit: q.unit,
      from: q.from,
      to: q.to,
    });
    const periods = [...new Set([...orders.map((o) => o.period), ...ledger.map((l) => l.period)])].sort().reverse();
    return periods.map((period) => {
      const o = orders.find((x) => x.period === period && x.currency === me.currency);
      const l = ledger.find((x) => x.period === period);
      const purchaseAmount = Number(o?.purchase ?? 0);
      const refundAmount = Number(o?.refund ?? 0);
      return {
        period,
        orders: Number(o?.orders ?? 0),
        purchaseAmount,
        refundAmount,
        netAmount: purchaseAmount - refundAmount,
        ledgerIn: l?.increase ?? 0,
        ledgerOut: l?.expense ?? 0,
        closingBalance: l ? l.closing : null,
        currency: me.currency,
      };
    });
  }

  async supplyCheck(actor: Actor, q: SupplyCheckQuery): Promise<SupplyCheckRow[]> {
    const me = await merchantOfActor(this.deps.db, actor);
    const orders = await repo.supplyTotals(this.deps.db, { supplierId: me.id, from: q.from, to: q.to });
    const income = await this.ledgerByDay(me.id, me.currency, "purchase", q);
    const refunds = await this.ledgerByDay(me.id, me.currency, "refund", q);
    const days = [...new Set([...orders.map((o) => o.day), ...income.keys(), ...refunds.keys()])].sort().reverse();
    return days.map((day) => {
      const o = orders.find((x) => x.day === day && x.currency === me.currency);
      const settledAmount = Number(o?.settled_amount ?? 0);
      const refundAmount = Number(o?.refund_amount ?? 0);
      const ledgerIncome = income.get(day) ?? 0;
      const ledgerRefund = refunds.get(day) ?? 0;
      return {
        day,
        settledOrders: Number(o?.settled ?? 0),
        settledAmount,
        refunds: Number(o?.refunds ?? 0),
        refundAmount,
        ledgerIncome,
        ledgerRefund,
        difference: settledAmount - refundAmount - (ledgerIncome - ledgerRefund),
        escrowOrders: Number(o?.escrow ?? 0),
        escrowAmount: Number(o?.escrow_amount ?? 0),
        currency: me.currency,
      };
    });
  }

  /** The income account's movements of one transaction kind, summed per platform day (absolute amounts). */
  private async ledgerByDay(
    merchantId: number,
    currency: SupplyCheckRow["currency"],
    type: "purchase" | "refund",
    q: SupplyCheckQuery,
  ): Promise<Map<string, number>> {
    const sums = new Map<string, number>();
    for (let offset = 0; ; offset += 1000) {
      const { rows } = await fundChanges(
        this.deps.db,
        { merchantId, kind: "income", currency, from: q.from, to: q.to, type },
        { offset, limit: 1000 },
      );
      for (const r of rows) {
        const day = platformDay(new Date(r.createdAt));
        sums.set(day, (sums.get(day) ?? 0) + Math.abs(Number(r.amount)));
      }
      if (rows.length < 1000) return sums;
    }
  }

  async supOrders(actor: Actor, q: SupOrderQuery): Promise<Page<SupOrderRow>> {
    const me = await merchantOfActor(this.deps.db, actor);
    const { rows, total } = await repo.supOrders(this.deps.db, {
      supplierId: me.id,
      settlement: q.settlement,
      orderNo: q.orderNo,
      purchaserId: q.purchaserId === undefined ? undefined : Number(q.purchaserId),
      from: q.from,
      to: q.to,
      ...pageWindow(q),
    });
    const list: SupOrderRow[] = [];
    for (const r of rows) {
      const refundedAmount = Number(r.r_amount);
      list.push({
        id: String(r.id),
        orderNo: r.order_no,
        createdAt: new Date(r.created_at).toISOString(),
        purchaserId: String(r.purchaser_merchant_id),
        purchaserName: (await getMerchant(this.deps.db, Number(r.purchaser_merchant_id)))?.name ?? "",
        goodsId: String(r.goods_id),
        goodsName: r.goods_name,
        quantity: Number(r.quantity),
        amount: Number(r.amount),
        refundedQuantity: Number(r.r_quantity),
        refundedAmount: r.state === "failure" ? Number(r.amount) : refundedAmount,
        netAmount: r.state === "failure" || r.state === "processing" ? 0 : Number(r.amount) - refundedAmount,
        settlement: r.settlement,
        currency: r.currency,
      });
    }
    return { list, total, page: q.page, pageSize: q.pageSize };
  }
}
