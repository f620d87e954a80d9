import type { Currency, FiguresReply, Page, ServedBrand, ServedOrder, ServedOrderQuery, ServedSettlement } from "@tessera/contracts";
import type { Db, Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { platformDay, startOfPlatformDay } from "../../platform/clock";
import { invalid } from "../../platform/http/errors";
import { getMerchant } from "../merchants";
import type { ServedOrderFilter, ServedOrderRow, ServedParties } from "../purchasing";

export interface ProviderOpsDeps {
  db: Db;
  activeBindings(db: Executor, providerId?: number): Promise<{ provider_id: number; merchant_id: number; kind: "brand" | "vendor" }[]>;
  servedOrders(db: Executor, f: ServedOrderFilter, page: { offset: number; limit: number }): Promise<{ rows: ServedOrderRow[]; total: number }>;
  servedDailyFigures(db: Executor, f: ServedParties & { from: Date; to: Date }): Promise<{ day: string; orders: number; amount: number; refunds: number; buyers: number }[]>;
  servedSettlements(db: Executor, f: { brandIds: readonly number[]; from: Date; to: Date }): Promise<{ supplierId: number; month: string; currency: Currency; orders: number; sales: number; refunds: number }[]>;
  brandsOfMerchants(db: Executor, merchantIds: readonly number[]): Promise<{ id: number; merchantId: number; name: string; createdAt: string; goods: number; onSale: number }[]>;
}

const dayAfter = (day: string) => new Date(startOfPlatformDay(day).getTime() + 86_400_000);
const monthStart = (month: string) => startOfPlatformDay(`${month}-01`);
function monthAfter(month: string): Date {
  const [y, m] = month.split("-").map(Number);
  const next = (y ?? 0) * 12 + (m ?? 1);
  return startOfPlatformDay(`${Math.floor(next / 12)}-${String((next % 12) + 1).padStart(2, "0")}-01`);
}

/**
 * What a service provider sees of the merchants it serves: only those with an active binding to it
 * (brands: their sales; vendors: their purchases). Every read starts from the provider's bindings, so
 * a merchant it does not serve never appears, even when asked for by id.
 */
export class ProviderOpsService {
  constructor(private readonly deps: ProviderOpsDeps) {}

  private async parties(actor: Actor): Promise<ServedParties & { all: Set<number> }> {
    const bindings = await this.deps.activeBindings(this.deps.db, tenantOf(actor));
    const brandIds = bindings.filter((b) => b.kind === "brand").map((b) => b.merchant_id);
    const vendorIds = bindings.filter((b) => b.kind === "vendor").map((b) => b.merchant_id);
    return { brandIds, vendorIds, all: new Set([...brandIds, ...vendorIds]) };
  }

  private async names(ids: Iterable<number>): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const id of new Set(ids)) out.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    return out;
  }

  /** OrderManagement, BrandOrder (merchantId: a served brand), RechargeOrder (businessType top_up). */
  async orders(actor: Actor, q: ServedOrderQuery): Promise<Page<ServedOrder>> {
    const p = await this.parties(actor);
    const merchantId = q.merchantId === undefined ? undefined : Number(q.merchantId);
    if (merchantId !== undefined && !p.all.has(merchantId)) return { list: [], total: 0, page: q.page, pageSize: q.pageSize };
    const filter: ServedOrderFilter = {
      brandIds: merchantId === undefined ? p.brandIds : p.brandIds.filter((id) => id === merchantId),
      vendorIds: merchantId === undefined ? p.vendorIds : p.vendorIds.filter((id) => id === merchantId),
      businessType: q.businessType,
      state: q.state,
      orderNo: q.orderNo || undefined,
      from: q.from ? startOfPlatformDay(q.from) : undefined,
      to: q.to ? dayAfter(q.to) : undefined,
    };
    const { rows, total } = await this.deps.servedOrders(this.deps.db, filter, { offset: (q.page - 1) * q.pageSize, limit: q.pageSize });
    const names = await this.names(rows.flatMap((r) => [r.purchaser_merchant_id, r.supplier_merchant_id]));
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        orderNo: r.order_no,
        purchaserId: String(r.purchaser_merchant_id),
        purchaserName: names.get(r.purchaser_merchant_id) ?? "",
        supplierId: String(r.supplier_merchant_id),
        supplierName: names.get(r.supplier_merchant_id) ?? "",
        goodsName: r.goods_name,
        brandId: String(r.brand_id),
        brandName: r.brand_name,
        businessType: r.business_type,
        quantity: r.quantity,
        amount: { amount: Number(r.amount), currency: r.currency },
        state: r.state,
        topUpAccount: r.top_up_account,
        refunded: r.refunded,
        createdAt: new Date(r.created_at).toISOString(),
        finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** PurchaseInformation: per day, the served merchants' orders, amounts, refunds and buyers. */
  async figures(actor: Actor, q: { from: string; to: string }): Promise<FiguresReply> {
    const p = await this.parties(actor);
    const me = await getMerchant(this.deps.db, tenantOf(actor));
    const currency: Currency = me?.currency ?? "CNY";
    const from = startOfPlatformDay(q.from);
    const to = dayAfter(q.to);
    if (to.getTime() - from.getTime() > 366 * 86_400_000) throw invalid("funds.dateRangeInvalid", "from");
    const days = await this.deps.servedDailyFigures(this.deps.db, { ...p, from, to });
    const byDay = new Map(days.map((d) => [d.day, d]));
    const m = (amount: number) => ({ amount, currency });
    // Every day of the range, those without orders as zeros (a chart's axis without gaps).
    const all: FiguresReply["days"] = [];
    for (let at = from.getTime(); at < to.getTime(); at += 86_400_000) {
      const day = platformDay(new Date(at));
      const d = byDay.get(day);
      all.push({ day, orders: d?.orders ?? 0, amount: m(d?.amount ?? 0), refunds: m(d?.refunds ?? 0), buyers: d?.buyers ?? 0 });
    }
    return {
      days: all,
      totals: { orders: days.reduce((s, d) => s + d.orders, 0), amount: m(days.reduce((s, d) => s + d.amount, 0)), refunds: m(days.reduce((s, d) => s + d.refunds, 0)) },
    };
  }

  /** SettlementManagement: per served brand and month, sales, refunds and net. */
  async settlements(actor: Actor, q: { from: string; to: string }): Promise<ServedSettlement[]> {
    const p = await this.parties(actor);
    const rows = await this.deps.servedSettlements(this.deps.db, { brandIds: p.brandIds, from: monthStart(q.from), to: monthAfter(q.to) });
    const names = await this.names(rows.map((r) => r.supplierId));
    return rows.map((r) => ({
      supplierId: String(r.supplierId),
      supplierName: names.get(r.supplierId) ?? "",
      month: r.month,
      orders: r.orders,
      sales: { amount: r.sales, currency: r.currency },
      refunds: { amount: r.refunds, currency: r.currency },
      net: { amount: r.sales - r.refunds, currency: r.currency },
    }));
  }

  /** brandManagement: the brands of the brand merchants the provider serves. */
  async brands(actor: Actor): Promise<ServedBrand[]> {
    const p = await this.parties(actor);
    const brands = await this.deps.brandsOfMerchants(this.deps.db, p.brandIds);
    const owners = new Map<number, { name: string; realName: string }>();
    for (const id of new Set(brands.map((b) => b.merchantId))) {
      const m = await getMerchant(this.deps.db, id);
      owners.set(id, { name: m?.name ?? "", realName: m?.real_name_state ?? "not_verified" });
    }
    return brands.map((b) => ({
      id: String(b.id),
      name: b.name,
      merchantId: String(b.merchantId),
      merchantName: owners.get(b.merchantId)?.name ?? "",
      merchantRealNameState: owners.get(b.merchantId)?.realName ?? "not_verified",
      goods: b.goods,
      onSale: b.onSale,
      createdAt: b.createdAt,
    }));
  }
}
