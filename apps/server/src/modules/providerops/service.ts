import {
  CODE,
  isMessageKey,
  orderReq,
  renderLedgerReason,
  renderMessage,
  type BatchPurchaseLine,
  type BatchPurchasePreview,
  type BatchPurchaseReply,
  type BatchPurchaseSummary,
  type Currency,
  type FiguresReply,
  type FundSheetQuery,
  type FundSheetRow,
  type Lang,
  type LinkDataReply,
  type MessageKey,
  type Money,
  type OrderReq,
  type Page,
  type PurchaseOrder,
  type ServedBrand,
  type ServedOrder,
  type ServedOrderQuery,
  type ServedSettlement,
} from "@tessera/contracts";
import type { Db, Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { startOfPlatformDay } from "../../platform/clock";
import { AppError, forbidden, invalid } from "../../platform/http/errors";
import type { MerchantTrades, TradeDay, TradeFactFilter } from "../ledger";
import { getMerchant } from "../merchants";
import type { ServedOrderFilter, ServedOrderRow, ServedParties } from "../purchasing";
import { dayAfter, eachDay, monthAfter, monthStart, sum, sumBy } from "./calendar";
import * as repo from "./repo";
import { BadBatchFile, readBatchFile, type BatchRow } from "./sheets";

export interface ProviderOpsDeps {
  db: Db;
  activeBindings(
    db: Executor,
    providerId?: number,
  ): Promise<{ provider_id: number; merchant_id: number; kind: "brand" | "vendor"; bound_at: Date }[]>;
  servedOrders(
    db: Executor,
    f: ServedOrderFilter,
    page: { offset: number; limit: number },
  ): Promise<{ rows: ServedOrderRow[]; total: number }>;
  /** Trade facts from the ledger (the same entries as the fund sheets): per day, and per merchant, side and category. */
  tradesByDay(db: Executor, f: TradeFactFilter): Promise<TradeDay[]>;
  tradesByMerchant(db: Executor, f: TradeFactFilter, opts?: { perMonth?: boolean }): Promise<MerchantTrades[]>;
  /** Dockings approved in the window that link a served party (docking module). */
  newDockings(
    db: Executor,
    f: ServedParties & { from: Date; to: Date },
  ): Promise<{ days: Map<string, number>; merchants: { merchantId: number; role: "brand" | "vendor"; n: number }[] }>;
  brandsOfMerchants(
    db: Executor,
    merchantIds: readonly number[],
  ): Promise<{ id: number; merchantId: number; name: string; createdAt: string; goods: number; onSale: number }[]>;
  /** The ledger's entries of one account kind across merchants (PurchaseFundSheet). */
  fundChangesOfMerchants(
    db: Executor,
    f: {
      merchantIds: readonly number[];
      kind: "sup";
      from?: string | undefined;
      to?: string | undefined;
      type?: string | undefined;
    },
    page: { offset: number; limit: number },
  ): Promise<{
    rows: {
      id: number;
      merchantId: number;
      currency: Currency;
      amount: number;
      balanceAfter: number;
      createdAt: Date;
      type: string;
      reason: string;
    }[];
    total: number;
  }>;
  /** The purchasing module's order path, on behalf of a served purchaser (BatchPurchase). */
  purchasing: {
    orderOnBehalf(
      purchaserId: number,
      userId: number,
      req: { goodsId: string; quantity: number; topUpAccount?: string | undefined; orderNo: string },
    ): Promise<PurchaseOrder>;
    /** What that order would cost, without placing it (the BatchPurchase preview); `replay`: ordered before under its number. */
    quoteOnBehalf(
      purchaserId: number,
      req: { goodsId: string; quantity: number; topUpAccount?: string | undefined; orderNo: string },
    ): Promise<{ amount: Money; replay: boolean }>;
    orderByNo(purchaserId: number, orderNo: string): Promise<PurchaseOrder>;
  };
  goodsNames(db: Executor, ids: number[]): Promise<Map<number, string>>;
  /** The main account's e-mail of a merchant (a BatchPurchase line may name its purchaser by it). */
  merchantOwner(db: Executor, merchantId: number): Promise<{ email: string | null } | undefined>;
}

/** At most this many lines in one BatchPurchase file. */
export const BATCH_MAX_LINES = 500;
const REQUEST_KEY = /^[A-Za-z0-9_-]{6,64}$/;

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
    if (merchantId !== undefined && !p.all.has(merchantId)) {
      return { list: [], total: 0, page: q.page, pageSize: q.pageSize };
    }
    const filter: ServedOrderFilter = {
      brandIds: merchantId === undefined ? p.brandIds : p.brandIds.filter((id) => id === merchantId),
      vendorIds: merchantId === undefined ? p.vendorIds : p.vendorIds.filter((id) => id === merchantId),
      businessType: q.businessType,
      state: q.state,
      orderNo: q.orderNo || undefined,
      from: q.from ? startOfPlatformDay(q.from) : undefined,
      to: q.to ? dayAfter(q.to) : undefined,
    };
    const { rows, total } = await this.deps.servedOrders(this.deps.db, filter, {
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
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

  /** What a provider's charts cover: whom it serves, its currency, and the platform days asked (a year at most). */
  private async chartScope(actor: Actor, q: { from: string; to: string }) {
    const p = await this.parties(actor);
    const me = await getMerchant(this.deps.db, tenantOf(actor));
    const currency: Currency = me?.currency ?? "CNY";
    const from = startOfPlatformDay(q.from);
    const to = dayAfter(q.to);
    if (to.getTime() - from.getTime() > 366 * 86_400_000) throw invalid("funds.dateRangeInvalid", "from");
    return { p, currency, from, to };
  }

  /** What a provider's figures count: its vendors' purchases and its brands' sales, in its currency. */
  private tradeFilter(p: ServedParties, currency: Currency, from: Date, to: Date): TradeFactFilter {
    return { buyers: p.vendorIds, sellers: p.brandIds, currency, from, to };
  }

  /**
   * PurchaseInformation: per day, the trades of the served merchants (digital goods, cards, physical goods
   * and SMS packages), their amount, refunds and buyers, from the ledger entries their fund sheets list.
   */
  async figures(actor: Actor, q: { from: string; to: string }): Promise<FiguresReply> {
    const { p, currency, from, to } = await this.chartScope(actor, q);
    const days = await this.deps.tradesByDay(this.deps.db, this.tradeFilter(p, currency, from, to));
    const byDay = new Map(days.map((d) => [d.day, d]));
    const m = (amount: number) => ({ amount, currency });
    return {
      days: eachDay(from, to).map((day) => {
        const d = byDay.get(day);
        return {
          day,
          orders: d?.trades ?? 0,
          amount: m(d?.amount ?? 0),
          refunds: m(d?.refunds ?? 0),
          buyers: d?.buyers ?? 0,
        };
      }),
      totals: {
        orders: sum(days, (d) => d.trades),
        amount: m(sum(days, (d) => d.amount)),
        refunds: m(sum(days, (d) => d.refunds)),
      },
    };
  }

  /** SettlementManagement: per served brand and month, what it sold to merchants (every category), refunds and net. */
  async settlements(actor: Actor, q: { from: string; to: string }): Promise<ServedSettlement[]> {
    const p = await this.parties(actor);
    if (p.brandIds.length === 0) return [];
    const facts = await this.deps.tradesByMerchant(
      this.deps.db,
      { buyers: [], sellers: p.brandIds, from: monthStart(q.from), to: monthAfter(q.to) },
      { perMonth: true },
    );
    const rows = sumBy(facts, (f) => `${f.merchantId}|${f.month ?? ""}|${f.currency}`);
    const names = await this.names(rows.map((r) => r.merchantId));
    return rows.map((r) => ({
      supplierId: String(r.merchantId),
      supplierName: names.get(r.merchantId) ?? "",
      month: r.month ?? "",
      orders: r.trades,
      sales: { amount: r.amount, currency: r.currency as Currency },
      refunds: { amount: r.refunds, currency: r.currency as Currency },
      net: { amount: r.amount - r.refunds, currency: r.currency as Currency },
    }));
  }

  /** brandManagement: the brands of the brand merchants the provider serves. */
  async brands(actor: Actor): Promise<ServedBrand[]> {
    // The brand bindings: whose brands, and since when the provider serves each owner (the earliest binding).
    const since = new Map<number, Date>();
    for (const b of await this.deps.activeBindings(this.deps.db, tenantOf(actor))) {
      const at = new Date(b.bound_at);
      const known = since.get(b.merchant_id);
      if (b.kind === "brand" && (!known || at < known)) since.set(b.merchant_id, at);
    }
    const brands = await this.deps.brandsOfMerchants(this.deps.db, [...since.keys()]);
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
      state: b.onSale > 0 ? "on_sale" : b.goods > 0 ? "off_sale" : "no_goods",
      binding: { kind: "brand", since: (since.get(b.merchantId) ?? new Date(b.createdAt)).toISOString() },
      createdAt: b.createdAt,
    }));
  }

  /** PurchaseFundSheet: the purchase fund (SUP) account changes of the purchasers the provider serves. */
  async fundSheet(actor: Actor, q: FundSheetQuery, lang: Lang = "cn"): Promise<Page<FundSheetRow>> {
    const p = await this.parties(actor);
    const merchantId = q.merchantId === undefined ? undefined : Number(q.merchantId);
    if (merchantId !== undefined && !p.vendorIds.includes(merchantId)) {
      return { list: [], total: 0, page: q.page, pageSize: q.pageSize };
    }
    const merchantIds = merchantId === undefined ? p.vendorIds : [merchantId];
    const { rows, total } = await this.deps.fundChangesOfMerchants(
      this.deps.db,
      { merchantIds, kind: "sup", from: q.from, to: q.to, type: q.type },
      { offset: (q.page - 1) * q.pageSize, limit: q.pageSize },
    );
    const names = await this.names(rows.map((r) => r.merchantId));
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        time: new Date(r.createdAt).toISOString(),
        merchantId: String(r.merchantId),
        merchantName: names.get(r.merchantId) ?? "",
        increase: r.amount > 0 ? r.amount : 0,
        expense: r.amount < 0 ? -r.amount : 0,
        balance: r.balanceAfter,
        currency: r.currency,
        type: r.type as FundSheetRow["type"],
        reason: renderLedgerReason(r.reason, lang),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /**
   * LinkData: per day and per served merchant (a brand by its sales, a vendor by its purchases), the trades
   * and their amount net of refunds, from the ledger, and the dockings approved that day (new trading links).
   */
  async linkData(actor: Actor, q: { from: string; to: string }): Promise<LinkDataReply> {
    const { p, currency, from, to } = await this.chartScope(actor, q);
    const filter = this.tradeFilter(p, currency, from, to);
    const [days, facts, dockings] = await Promise.all([
      this.deps.tradesByDay(this.deps.db, filter),
      this.deps.tradesByMerchant(this.deps.db, filter),
      this.deps.newDockings(this.deps.db, { ...p, from, to }),
    ]);
    const byDay = new Map(days.map((d) => [d.day, d]));
    const m = (amount: number) => ({ amount, currency });
    const dayRows = eachDay(from, to).map((day) => {
      const d = byDay.get(day);
      return {
        day,
        orders: d?.trades ?? 0,
        amount: m((d?.amount ?? 0) - (d?.refunds ?? 0)),
        newDockings: dockings.days.get(day) ?? 0,
      };
    });
    const roleOf = (side: "buy" | "sell") => (side === "sell" ? "brand" : "vendor");
    const merchants = new Map<
      string,
      { merchantId: number; role: "brand" | "vendor"; orders: number; amount: number; newDockings: number }
    >();
    const row = (merchantId: number, role: "brand" | "vendor") => {
      const key = `${merchantId}|${role}`;
      let r = merchants.get(key);
      if (!r) merchants.set(key, (r = { merchantId, role, orders: 0, amount: 0, newDockings: 0 }));
      return r;
    };
    for (const f of facts) {
      const r = row(f.merchantId, roleOf(f.side));
      r.orders += f.trades;
      r.amount += f.amount - f.refunds;
    }
    for (const d of dockings.merchants) row(d.merchantId, d.role).newDockings += d.n;
    const ranked = [...merchants.values()].sort((a, b) => b.amount - a.amount || a.merchantId - b.merchantId);
    const names = await this.names(ranked.map((x) => x.merchantId));
    return {
      days: dayRows,
      merchants: ranked.map((x) => ({
        merchantId: String(x.merchantId),
        merchantName: names.get(x.merchantId) ?? "",
        role: x.role,
        orders: x.orders,
        amount: m(x.amount),
        newDockings: x.newDockings,
      })),
      totals: {
        orders: sum(dayRows, (d) => d.orders),
        amount: m(sum(dayRows, (d) => d.amount.amount)),
        newDockings: sum(dayRows, (d) => d.newDockings),
        servedBrands: p.brandIds.length,
        servedVendors: p.vendorIds.length,
      },
    };
  }

  /**
   * BatchPurchase: each line of the file is an ordinary order of a served purchaser through the
   * purchasing module's order path, on its own (one bad line changes nothing and stops no other line).
   * The line's request key is the purchaser's order number, so the same file sent again buys nothing
   * twice: those lines answer with the order they made the first time.
   */
  async batchPurchase(actor: Actor, file: Buffer, fileName: string, lang: Lang): Promise<BatchPurchaseReply> {
    const userId = actor.userId;
    if (userId === null) throw forbidden();
    const checked = await this.batchLines(actor, file, lang);
    for (const { line, order } of checked) {
      if (!order) continue;
      const before = await this.deps.purchasing.orderByNo(order.purchaserId, order.req.orderNo).then(
        () => true,
        () => false,
      );
      try {
        const placed = await this.deps.purchasing.orderOnBehalf(order.purchaserId, userId, order.req);
        Object.assign(line, {
          state: before ? "replayed" : "ordered",
          orderNo: placed.orderNo,
          orderId: placed.id,
          orderState: placed.state,
          amount: placed.amount,
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        line.reason = renderMessage(err.messageKey, lang, err.params);
      }
    }
    const lines = checked.map((c) => c.line);
    const ordered = lines.filter((l) => l.state !== "refused").length;
    const saved = await repo.insertBatch(this.deps.db, {
      providerId: tenantOf(actor),
      fileName,
      lines,
      ordered,
      refused: lines.length - ordered,
      createdBy: userId,
    });
    return {
      id: String(saved.id),
      fileName,
      ordered,
      refused: lines.length - ordered,
      createdAt: new Date(saved.created_at).toISOString(),
      lines,
    };
  }

  /**
   * What a BatchPurchase file would buy, before anything is spent (issue 37): the same reading and checks
   * as the upload, each line priced as its purchaser's order would be (`ordered`: a new order to be paid;
   * `replayed`: ordered by an earlier upload, paid nothing again; `refused` with its reason), and the
   * totals of the new orders per currency. Nothing is ordered or kept.
   */
  async batchPurchasePreview(actor: Actor, file: Buffer, fileName: string, lang: Lang): Promise<BatchPurchasePreview> {
    const checked = await this.batchLines(actor, file, lang);
    for (const { line, order } of checked) {
      if (!order) continue;
      try {
        const quote = await this.deps.purchasing.quoteOnBehalf(order.purchaserId, order.req);
        Object.assign(line, { state: quote.replay ? "replayed" : "ordered", amount: quote.amount });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        line.reason = renderMessage(err.messageKey, lang, err.params);
      }
    }
    const lines = checked.map((c) => c.line);
    const fresh = lines.filter((l) => l.state === "ordered");
    const totals = new Map<Currency, number>();
    for (const l of fresh) {
      if (l.amount) totals.set(l.amount.currency, (totals.get(l.amount.currency) ?? 0) + l.amount.amount);
    }
    return {
      fileName,
      orders: fresh.length,
      units: fresh.reduce((s, l) => s + Number(l.quantity), 0),
      totals: [...totals].map(([currency, amount]) => ({ amount, currency })),
      replayed: lines.filter((l) => l.state === "replayed").length,
      refused: lines.filter((l) => l.state === "refused").length,
      lines,
    };
  }

  /**
   * Reads a BatchPurchase file and checks each line on its own: a refused line (its reason in `lang`), or
   * the served purchaser and the order request it stands for (`order`).
   */
  private async batchLines(
    actor: Actor,
    file: Buffer,
    lang: Lang,
  ): Promise<{ line: BatchPurchaseLine; order?: { purchaserId: number; req: OrderReq } }[]> {
    let rows: BatchRow[];
    try {
      rows = await readBatchFile(file, BATCH_MAX_LINES);
    } catch (err) {
      if (err instanceof BadBatchFile) {
        throw invalid(err.key, "file", err.key === "batch.tooManyLines" ? { max: BATCH_MAX_LINES } : {});
      }
      throw err;
    }
    if (rows.length === 0) throw invalid("batch.empty", "file");
    if (rows.length > BATCH_MAX_LINES) throw invalid("batch.tooManyLines", "file", { max: BATCH_MAX_LINES });

    const p = await this.parties(actor);
    const served = new Set(p.vendorIds);
    let byEmail: Map<string, number> | undefined;
    const purchaserOf = async (text: string): Promise<number | undefined> => {
      if (/^\d{1,18}$/.test(text)) return served.has(Number(text)) ? Number(text) : undefined;
      if (!byEmail) {
        byEmail = new Map();
        for (const id of p.vendorIds) {
          const email = (await this.deps.merchantOwner(this.deps.db, id))?.email;
          if (email) byEmail.set(email.toLowerCase(), id);
        }
      }
      return byEmail.get(text.toLowerCase());
    };
    const goodsIds = rows.filter((r) => /^\d{1,18}$/.test(r.goodsId)).map((r) => Number(r.goodsId));
    const knownGoods = await this.deps.goodsNames(this.deps.db, [...new Set(goodsIds)]);
    const say = (key: MessageKey, params?: Record<string, string | number>) => renderMessage(key, lang, params);

    const seen = new Set<string>();
    const checked: { line: BatchPurchaseLine; order?: { purchaserId: number; req: OrderReq } }[] = [];
    for (const row of rows) {
      const line: BatchPurchaseLine = {
        ...row,
        state: "refused",
        orderNo: null,
        orderId: null,
        orderState: null,
        amount: null,
        reason: null,
      };
      checked.push({ line });
      if (row.purchaser === "") {
        line.reason = say("batch.purchaserEmpty");
        continue;
      }
      const purchaserId = await purchaserOf(row.purchaser);
      if (purchaserId === undefined) {
        line.reason = say("batch.purchaserNotServed");
        continue;
      }
      if (!/^\d{1,18}$/.test(row.goodsId) || !knownGoods.has(Number(row.goodsId))) {
        line.reason = say("batch.goodsUnknown");
        continue;
      }
      if (!REQUEST_KEY.test(row.requestKey)) {
        line.reason = say("batch.requestKeyInvalid");
        continue;
      }
      const seenKey = `${purchaserId}:${row.requestKey}`;
      if (seen.has(seenKey)) {
        line.reason = say("batch.requestKeyRepeated");
        continue;
      }
      seen.add(seenKey);
      const req = orderReq.safeParse({
        goodsId: row.goodsId,
        quantity: /^\d+$/.test(row.quantity) ? Number(row.quantity) : Number.NaN,
        orderNo: row.requestKey,
        ...(row.topUpAccount !== "" && { topUpAccount: row.topUpAccount }),
      });
      if (!req.success) {
        const key = req.error.issues[0]?.message ?? "validation.invalidParameter";
        line.reason = say(isKey(key) ? key : "validation.invalidParameter");
        continue;
      }
      checked[checked.length - 1] = { line, order: { purchaserId, req: req.data } };
    }
    return checked;
  }

  /** The provider's earlier BatchPurchase files, newest first. */
  async batchPurchases(actor: Actor, q: { page: number; pageSize: number }): Promise<Page<BatchPurchaseSummary>> {
    const providerId = tenantOf(actor);
    const { rows, total } = await repo.batchPage(this.deps.db, providerId, {
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        fileName: r.file_name,
        ordered: r.ordered,
        refused: r.refused,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** One BatchPurchase of this provider with every line's result; another provider's is not found. */
  async batchPurchaseOf(actor: Actor, id: number): Promise<BatchPurchaseReply> {
    const row = await repo.findBatch(this.deps.db, tenantOf(actor), id);
    if (!row) throw new AppError(CODE.NOT_FOUND, "batch.notFound");
    const lines: BatchPurchaseLine[] =
      typeof row.lines === "string" ? (JSON.parse(row.lines) as BatchPurchaseLine[]) : row.lines;
    return {
      id: String(row.id),
      fileName: row.file_name,
      ordered: row.ordered,
      refused: row.refused,
      createdAt: new Date(row.created_at).toISOString(),
      lines,
    };
  }
}

function isKey(key: string): key is MessageKey {
  return isMessageKey(key);
}
