import { randomInt } from "node:crypto";
import {
  CODE,
  TRACKING_REFUSED,
  TRACKING_SIGNED,
  type Aftersale,
  type AfterSaleAction,
  type Commodity,
  type CommerceOrder,
  type Page,
  type Shipment,
} from "@tessera/contracts";
import type { z } from "zod";
import type { aftersaleReq, commodityAddReq, commodityUpdateReq, commerceOrderReq } from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { merchantNames, merchantOfActor } from "../merchants";
import {
  beijingText,
  CourierError,
  parsePush,
  pushSign,
  simulatedPush,
  SIM_TRACE,
  type CourierAdapter,
} from "./courier";
import * as regions from "./regions";
import * as repo from "./repo";
import type { SpecGroup } from "./tables";

type CommodityAdd = z.output<typeof commodityAddReq>;
type CommodityUpdate = z.output<typeof commodityUpdateReq>;
type OrderInput = z.output<typeof commerceOrderReq>;
type AftersaleInput = z.output<typeof aftersaleReq>;

export interface CommerceConfig {
  /** Shipped orders are confirmed as received this many days after shipping. */
  autoConfirmDays: number;
  /** Seconds between the local courier simulator's tracking events. */
  courierStepSeconds: number;
  /** The salt tracking pushes are signed with (MD5(param + salt)). */
  pushSalt: string;
}

export interface CommerceDeps {
  db: Db;
  clock: Clock;
  courier: CourierAdapter;
  config: CommerceConfig;
  /** Throws when the video is not one of the merchant's own (media module). */
  checkVideo(actor: Actor, videoId: string): Promise<unknown>;
}

const notFoundOrder = () => new AppError(CODE.NOT_FOUND, "commerce.orderNotFound");
const notFoundCommodity = () => new AppError(CODE.NOT_FOUND, "commerce.commodityNotFound");
const notFoundAftersale = () => new AppError(CODE.NOT_FOUND, "commerce.afterSaleNotFound");
const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);
const yuan = (minor: number) => (minor / 100).toFixed(2);

/** Every combination of the groups' values, in order: colour × size. */
export function combinations(groups: SpecGroup[]): string[][] {
  return groups.reduce<string[][]>((acc, g) => acc.flatMap((prefix) => g.values.map((v) => [...prefix, v])), [[]]);
}

function checkSkus(groups: SpecGroup[], skus: { specs: string[] }[]): void {
  for (const g of groups) {
    if (new Set(g.values).size !== g.values.length) throw invalid("commerce.specInvalid", "specGroups");
  }
  if (new Set(groups.map((g) => g.name)).size !== groups.length) throw invalid("commerce.specInvalid", "specGroups");
  const seen = new Set<string>();
  for (const [i, s] of skus.entries()) {
    const fits = s.specs.length === groups.length && s.specs.every((v, k) => groups[k]?.values.includes(v));
    const key = JSON.stringify(s.specs);
    if (!fits || seen.has(key)) throw invalid("commerce.specsMismatch", `skus.${i}.specs`);
    seen.add(key);
  }
}

/**
 * Physical and virtual goods: commodities and their SKUs (brand), resale picks and orders (purchaser),
 * shipping through the courier adapter and tracking pushes, confirmation of receipt, after-sales. Stock
 * is taken by one conditional UPDATE per SKU in the order's transaction (never below zero) and given back
 * exactly once when an unpaid order closes or goods come back. Money: SUP → order escrow on payment
 * (`commerce:pay:<order>`), escrow → the brand's income on completion (`commerce:settle:<order>`), back to
 * SUP on closing a paid order (`commerce:close:<order>`) or an after-sales refund
 * (`commerce:aftersale:<id>`, from escrow before settlement, from the brand's income after).
 */
export class CommerceService {
  constructor(private readonly deps: CommerceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  /** The caller's merchant (shop). */
  merchant(actor: Actor) {
    return merchantOfActor(this.db, actor);
  }

  /** Counts for the shop's profile (shop/info). */
  async shopCounts(
    actor: Actor,
  ): Promise<{ commodities: number; onShelf: number; orders: number; toShip: number; aftersales: number }> {
    return repo.shopCounts(this.db, tenantOf(actor));
  }

  // ---- commodities (brand)

  async addCommodity(actor: Actor, req: CommodityAdd): Promise<Commodity> {
    const merchant = await merchantOfActor(this.db, actor);
    checkSkus(req.specGroups, req.skus);
    if (req.videoid) await this.deps.checkVideo(actor, req.videoid);
    const now = this.now();
    const id = await withTx(this.db, async (tx) => {
      const id = await repo.insertCommodity(tx, {
        merchantId: merchant.id,
        kind: req.kind,
        name: req.name,
        category: req.category,
        description: req.description,
        images: req.images,
        videoId: req.videoid ? Number(req.videoid) : null,
        specGroups: req.specGroups,
        sort: req.sort,
        weightG: req.weightG,
        freightFirst: req.freightFirst,
        freightExtra: req.freightExtra,
        freeOver: req.freeOver,
        currency: merchant.currency,
        now,
      });
      for (const s of req.skus) {
        await repo.insertSku(tx, {
          commodityId: id,
          merchantId: merchant.id,
          specs: s.specs,
          price: s.price,
          stock: s.stock,
          code: s.code ?? "",
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.commodity.add",
        subjectType: "commerce_commodity",
        subjectId: id,
      });
      return id;
    });
    return this.commodity(actor, id);
  }

  /** Replaces the commodity's fields and SKUs: SKUs named by id are changed, others added, missing ones removed (or retired when ordered). */
  async updateCommodity(actor: Actor, req: CommodityUpdate): Promise<Commodity> {
    const merchantId = tenantOf(actor);
    const id = Number(req.id);
    checkSkus(req.specGroups, req.skus);
    if (req.videoid) await this.deps.checkVideo(actor, req.videoid);
    const now = this.now();
    await withTx(this.db, async (tx) => {
      const c = await repo.lockCommodity(tx, id, merchantId);
      if (!c) throw notFoundCommodity();
      const existing = new Map((await repo.allSkusOf(tx, id)).map((s) => [s.id, s]));
      const kept = new Set<number>();
      for (const [i, s] of req.skus.entries()) {
        const skuId = s.id ? Number(s.id) : undefined;
        if (skuId !== undefined) {
          if (!existing.has(skuId)) throw invalid("commerce.specsMismatch", `skus.${i}.id`);
          kept.add(skuId);
          await repo.updateSku(tx, skuId, {
            specs: s.specs,
            price: s.price,
            stock: s.stock,
            code: s.code ?? "",
            active: true,
          });
        } else {
          await repo.insertSku(tx, {
            commodityId: id,
            merchantId,
            specs: s.specs,
            price: s.price,
            stock: s.stock,
            code: s.code ?? "",
          });
        }
      }
      for (const old of existing.values()) {
        if (kept.has(old.id)) continue;
        if (await repo.skuHasOrders(tx, old.id)) {
          await repo.updateSku(tx, old.id, {
            specs: old.specs,
            price: old.price,
            stock: 0,
            code: old.code,
            active: false,
          });
        } else await repo.deleteSku(tx, old.id);
      }
      await repo.updateCommodity(tx, id, merchantId, {
        name: req.name,
        category: req.category,
        description: req.description,
        images: req.images,
        ...(req.videoid !== undefined && { videoId: req.videoid ? Number(req.videoid) : null }),
        specGroups: req.specGroups,
        sort: req.sort,
        weightG: req.weightG,
        freightFirst: req.freightFirst,
        freightExtra: req.freightExtra,
        freeOver: req.freeOver,
        now,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.commodity.update",
        subjectType: "commerce_commodity",
        subjectId: id,
      });
    });
    return this.commodity(actor, id);
  }

  /** `commodity/state/update`, `commodity/sort`, `commodity/video/update`. */
  async changeCommodity(
    actor: Actor,
    id: number,
    change: { onShelf?: boolean; sort?: number; videoid?: string | null },
  ): Promise<Commodity> {
    const merchantId = tenantOf(actor);
    if (change.videoid) await this.deps.checkVideo(actor, change.videoid);
    const changed = await withTx(this.db, async (tx) => {
      const ok = await repo.updateCommodity(tx, id, merchantId, {
        ...(change.onShelf !== undefined && { onShelf: change.onShelf }),
        ...(change.sort !== undefined && { sort: change.sort }),
        ...(change.videoid !== undefined && { videoId: change.videoid === null ? null : Number(change.videoid) }),
        now: this.now(),
      });
      if (ok) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: "commerce.commodity.change",
          subjectType: "commerce_commodity",
          subjectId: id,
          detail: change,
        });
      }
      return ok;
    });
    if (!changed) throw notFoundCommodity();
    return this.commodity(actor, id);
  }

  async commodity(actor: Actor, id: number): Promise<Commodity> {
    const row = await repo.commodityOf(this.db, id, tenantOf(actor));
    if (!row) throw notFoundCommodity();
    const [c] = await this.presentCommodities([row]);
    if (!c) throw notFoundCommodity();
    return c;
  }

  /** `commodity/pager`: the brand's own commodities. */
  async commodityPage(
    actor: Actor,
    q: {
      page: number;
      pagesize: number;
      name?: string | undefined;
      kind?: "physical" | "virtual" | undefined;
      onShelf?: boolean | undefined;
    },
  ): Promise<Page<Commodity>> {
    const { rows, total } = await repo.commodityPage(this.db, {
      merchantId: tenantOf(actor),
      kind: q.kind,
      name: q.name,
      onShelf: q.onShelf,
      offset: (q.page - 1) * q.pagesize,
      limit: q.pagesize,
    });
    return { list: await this.presentCommodities(rows), total, page: q.page, pageSize: q.pagesize };
  }

  /** PhysicalSelection / VirtualGoods (all brands' goods on shelf) and RealGoods (`picked=yes`). */
  async selection(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      kind: "physical" | "virtual";
      name?: string | undefined;
      picked?: "yes" | "no" | undefined;
    },
  ): Promise<Page<Commodity>> {
    const purchaserId = tenantOf(actor);
    const { rows, total } = await repo.commodityPage(this.db, {
      kind: q.kind,
      name: q.name,
      onShelf: q.picked === "yes" ? undefined : true,
      ...(q.picked && { pickedBy: { purchaserId, picked: q.picked === "yes" } }),
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    const picked = await repo.pickedIds(
      this.db,
      purchaserId,
      rows.map((r) => r.id),
    );
    const list = (await this.presentCommodities(rows)).map((c) => ({ ...c, picked: picked.has(Number(c.id)) }));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  async pick(actor: Actor, commodityId: number, retailPrice: number | null): Promise<{ picked: true }> {
    const purchaserId = tenantOf(actor);
    const c = await repo.commodityOf(this.db, commodityId);
    if (!c || !c.on_shelf) throw notFoundCommodity();
    if (c.merchant_id === purchaserId) throw invalid("commerce.ownGoods", "commodityId");
    await withTx(this.db, (tx) => repo.upsertResale(tx, purchaserId, commodityId, retailPrice, this.now()));
    return { picked: true };
  }

  async unpick(actor: Actor, commodityId: number): Promise<{ picked: false }> {
    const done = await withTx(this.db, (tx) => repo.deleteResale(tx, tenantOf(actor), commodityId));
    if (!done) throw notFoundCommodity();
    return { picked: false };
  }

  private async presentCommodities(rows: repo.CommodityRow[]): Promise<Commodity[]> {
    const skus = await repo.skusOf(
      this.db,
      rows.map((r) => r.id),
    );
    const names = await this.names(rows.map((r) => r.merchant_id));
    return rows.map((r) => {
      const own = skus.filter((s) => s.commodity_id === r.id);
      return {
        id: String(r.id),
        merchantId: String(r.merchant_id),
        merchantName: names.get(r.merchant_id) ?? "",
        kind: r.kind,
        name: r.name,
        category: r.category,
        description: r.description,
        images: r.images,
        videoid: r.video_id === null ? null : String(r.video_id),
        specGroups: r.spec_groups,
        skus: own.map((s) => ({
          id: String(s.id),
          specs: s.specs,
          price: { amount: s.price, currency: r.currency },
          stock: s.stock,
          sold: s.sold,
          code: s.code,
        })),
        sort: r.sort,
        onShelf: r.on_shelf,
        weightG: r.weight_g,
        freightFirst: r.freight_first,
        freightExtra: r.freight_extra,
        freeOver: r.free_over,
        currency: r.currency,
        stock: own.reduce((a, s) => a + s.stock, 0),
        sold: own.reduce((a, s) => a + s.sold, 0),
        createdAt: new Date(r.created_at).toISOString(),
      };
    });
  }

  /** Merchants' names, in one read. */
  private async names(ids: number[]): Promise<Map<number, string>> {
    return merchantNames(this.db, ids);
  }

  // ---- orders (purchaser)

  /**
   * Places an order: one brand's goods of one kind, stock taken SKU by SKU (in id order, so two orders
   * never wait on each other crosswise); any SKU short refuses the whole order and changes nothing. A
   * replayed request key returns the first order. Three statements: the purchaser, one read of the SKUs
   * (with a replay's order id), and the order written in one statement (repo.placeOrder: the order, its
   * lines, its audit row and the stock). The reply is built from what went in, not read back.
   */
  async placeOrder(actor: Actor, req: OrderInput): Promise<CommerceOrder> {
    const purchaser = await merchantOfActor(this.db, actor);
    const quantities = new Map<number, number>();
    for (const i of req.items) quantities.set(Number(i.skuId), (quantities.get(Number(i.skuId)) ?? 0) + i.quantity);
    // One read: the SKUs with their commodity and brand, and the order already placed under this key if any.
    const skus = await repo.skusForOrder(this.db, [...quantities.keys()], {
      purchaserId: purchaser.id,
      requestKey: req.requestKey,
    });
    const replayId =
      skus[0]?.replay_id ??
      (skus.length === 0 ? (await repo.orderByRequestKey(this.db, purchaser.id, req.requestKey))?.id : undefined);
    if (replayId !== undefined && replayId !== null) return this.presentReplay(Number(replayId));
    const byId = new Map(skus.map((s) => [s.id, s]));
    for (const [index, skuId] of [...quantities.keys()].entries()) {
      const s = byId.get(skuId);
      if (!s || !s.active) throw new AppError(CODE.NOT_FOUND, "commerce.commodityNotFound", {}, `items.${index}.skuId`);
      if (!s.on_shelf) throw invalid("commerce.notOnShelf", `items.${index}.skuId`, { name: s.name });
      if (s.merchant_id === purchaser.id) throw invalid("commerce.ownGoods", `items.${index}.skuId`);
      if ((quantities.get(skuId) ?? 0) > s.stock) {
        throw new AppError(CODE.CONFLICT, "commerce.outOfStock", { name: s.name }, `items.${index}.quantity`);
      }
    }
    const first = skus[0];
    if (!first) throw invalid("commerce.itemsEmpty", "items");
    if (skus.some((s) => s.merchant_id !== first.merchant_id || s.kind !== first.kind)) {
      throw invalid("commerce.oneBrand", "items");
    }
    if (first.currency !== purchaser.currency) throw invalid("commerce.currencyMismatch", "items");
    let consignee: repo.NewOrder["consignee"] = null;
    if (first.kind === "physical") {
      if (!req.consignee) throw invalid("commerce.consigneeRequired", "consignee");
      const names = regions.regionNames(req.consignee.provinceCode, req.consignee.cityCode, req.consignee.countyCode);
      if (!names) throw invalid("commerce.regionInvalid", "consignee.countyCode");
      consignee = { ...req.consignee, regionNames: names };
    }
    let goods = 0;
    let weightG = 0;
    for (const [skuId, q] of quantities) {
      const s = byId.get(skuId);
      if (!s) continue;
      goods += s.price * q;
      weightG += s.weight_g * q;
    }
    const freight = first.kind === "physical" ? freightOf(skus, goods, weightG) : 0;
    const now = this.now();
    const order: repo.NewOrder = {
      orderNo: orderNo(now),
      purchaserId: purchaser.id,
      brandId: first.merchant_id,
      kind: first.kind,
      goodsAmount: goods,
      freight,
      currency: first.currency,
      consignee,
      remark: req.remark,
      requestKey: req.requestKey,
      createdBy: actor.userId,
      now,
    };
    const lines: repo.NewOrderLine[] = [];
    for (const skuId of [...quantities.keys()].sort((a, b) => a - b)) {
      const s = byId.get(skuId);
      if (s) {
        lines.push({
          skuId,
          commodityId: s.commodity_id,
          name: s.name,
          specs: s.specs,
          unitPrice: s.price,
          quantity: quantities.get(skuId) ?? 0,
        });
      }
    }
    let placed: Awaited<ReturnType<typeof repo.placeOrder>> = null;
    for (let attempt = 1; ; attempt++) {
      try {
        placed = await repo.placeOrder(this.db, order, lines, {
          actorUserId: actor.userId,
          detail: { amount: goods + freight },
        });
        break;
      } catch (err) {
        const code = typeof err === "object" && err !== null && "code" in err ? err.code : undefined;
        if (code === repo.REFUSED && err instanceof Error && err.message.startsWith("commerce.outOfStock:")) {
          const s = byId.get(Number(err.message.slice("commerce.outOfStock:".length)));
          throw new AppError(CODE.CONFLICT, "commerce.outOfStock", { name: s?.name ?? "" }, "items");
        }
        if (attempt < 3 && (code === "40P01" || code === "40001")) continue;
        // Two orders drew the same number in the same second: draw again (the statement wrote nothing).
        if (attempt < 3 && isUniqueViolation(err, "commerce_orders_order_no_key")) {
          order.orderNo = orderNo(now);
          continue;
        }
        throw err;
      }
    }
    // The same request key raced in: the order that went in first.
    if (!placed) {
      const replay = await repo.orderByRequestKey(this.db, purchaser.id, req.requestKey);
      if (!replay) throw notFoundOrder();
      return this.presentOne(replay);
    }
    // The reply from what went in: a new order has no shipment, no payment and nothing refunded yet.
    const row: repo.OrderRow = {
      id: placed.id,
      order_no: order.orderNo,
      purchaser_id: order.purchaserId,
      brand_id: order.brandId,
      kind: order.kind,
      state: "to_pay",
      goods_amount: goods,
      freight,
      pay_amount: goods + freight,
      refunded_amount: 0,
      currency: order.currency,
      consignee_name: consignee?.name ?? "",
      consignee_phone: consignee?.phone ?? "",
      province_code: consignee?.provinceCode ?? "",
      city_code: consignee?.cityCode ?? "",
      county_code: consignee?.countyCode ?? "",
      region_names: consignee?.regionNames ?? "",
      address: consignee?.address ?? "",
      remark: req.remark,
      close_reason: null,
      request_key: req.requestKey,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
      paid_at: null,
      shipped_at: null,
      received_at: null,
      completed_at: null,
      closed_at: null,
    };
    const items: repo.ItemRow[] = lines.map((l) => ({
      id: placed.itemIds.get(l.skuId) ?? 0,
      order_id: placed.id,
      sku_id: l.skuId,
      commodity_id: l.commodityId,
      name: l.name,
      specs: l.specs,
      unit_price: l.unitPrice,
      quantity: l.quantity,
      amount: l.unitPrice * l.quantity,
      refunded: 0,
      returned_qty: 0,
    }));
    const names = new Map([
      [purchaser.id, purchaser.name],
      [first.merchant_id, first.brand_name],
    ]);
    return presentOrder(repo.asListRow(row), items, null, names, this.deps.config.autoConfirmDays * 86_400_000);
  }

  private async presentReplay(id: number): Promise<CommerceOrder> {
    const row = await repo.orderOf(this.db, id);
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  /** Pays a to-pay order from the purchaser's SUP account into the order escrow. A virtual order completes at once. */
  async pay(actor: Actor, id: number): Promise<CommerceOrder> {
    const purchaserId = tenantOf(actor);
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await repo.lockOrder(tx, id);
      if (!o || o.purchaser_id !== purchaserId) throw notFoundOrder();
      if (o.state !== "to_pay") throw conflict("commerce.orderState");
      if (o.pay_amount > 0) {
        await post(tx, {
          idempotencyKey: `commerce:pay:${o.id}`,
          kind: "purchase",
          currency: o.currency,
          reason: o.order_no,
          subject: { type: "commerce_order", id: o.id },
          createdBy: actor.userId,
          postings: [
            { account: { merchantId: o.purchaser_id, kind: "sup" }, amount: -o.pay_amount },
            { account: { platform: "order_escrow" }, amount: o.pay_amount },
          ],
        });
      }
      await repo.setOrder(tx, o.id, { state: o.kind === "virtual" ? "completed" : "to_ship", paidAt: now, now });
      if (o.kind === "virtual") await this.settle(tx, { ...o, state: "to_ship" }, actor.userId, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.order.pay",
        subjectType: "commerce_order",
        subjectId: o.id,
      });
      return repo.orderOf(tx, o.id);
    });
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  /** Escrow → the brand's income, for what has not been refunded; the order completes. */
  private async settle(tx: Tx, o: repo.OrderRow, userId: number | null, now: Date): Promise<void> {
    const amount = o.pay_amount - o.refunded_amount;
    if (amount > 0) {
      await post(tx, {
        idempotencyKey: `commerce:settle:${o.id}`,
        kind: "purchase",
        currency: o.currency,
        reason: o.order_no,
        subject: { type: "commerce_order", id: o.id },
        createdBy: userId,
        postings: [
          { account: { platform: "order_escrow" }, amount: -amount },
          { account: { merchantId: o.brand_id, kind: "income" }, amount },
        ],
      });
    }
    await repo.setOrder(tx, o.id, { state: "completed", completedAt: now, now });
  }

  /**
   * The purchaser cancels an order not yet shipped (or the unpaid-order job closes it): the stock comes
   * back once, and a paid order's money goes back to SUP.
   */
  async cancel(actor: Actor | null, id: number, reason: string): Promise<CommerceOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await repo.lockOrder(tx, id);
      if (!o || (actor && o.purchaser_id !== tenantOf(actor))) throw notFoundOrder();
      if (o.state !== "to_pay" && o.state !== "to_ship") throw conflict("commerce.orderState");
      if (!actor && o.state !== "to_pay") throw conflict("commerce.orderState");
      const items = await repo.itemsOf(tx, [o.id]);
      for (const i of [...items].sort((a, b) => a.sku_id - b.sku_id)) {
        const left = i.quantity - i.returned_qty;
        if (left > 0) await repo.giveStock(tx, i.sku_id, left);
      }
      const refund = o.state === "to_ship" ? o.pay_amount - o.refunded_amount : 0;
      if (refund > 0) {
        await post(tx, {
          idempotencyKey: `commerce:close:${o.id}`,
          kind: "refund",
          currency: o.currency,
          reason: o.order_no,
          subject: { type: "commerce_order", id: o.id },
          createdBy: actor?.userId ?? null,
          postings: [
            { account: { platform: "order_escrow" }, amount: -refund },
            { account: { merchantId: o.purchaser_id, kind: "sup" }, amount: refund },
          ],
        });
      }
      await repo.setOrder(tx, o.id, {
        state: "closed",
        closedAt: now,
        closeReason: reason || (actor ? "cancelled" : "unpaid timeout"),
        ...(refund > 0 && { refundedDelta: refund }),
        now,
      });
      await audit(tx, {
        actorUserId: actor?.userId ?? null,
        action: "commerce.order.close",
        subjectType: "commerce_order",
        subjectId: o.id,
        detail: { refund },
      });
      return repo.orderOf(tx, o.id);
    });
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  /** The purchaser confirms receipt (or the job does, `autoConfirmDays` after shipping): the brand is paid. */
  async confirm(actor: Actor | null, id: number): Promise<CommerceOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await repo.lockOrder(tx, id);
      if (!o || (actor && o.purchaser_id !== tenantOf(actor))) throw notFoundOrder();
      if (o.state !== "shipped" && o.state !== "received") throw conflict("commerce.orderState");
      if (!o.received_at) await repo.setOrder(tx, o.id, { receivedAt: now, now });
      await this.settle(tx, o, actor?.userId ?? null, now);
      await audit(tx, {
        actorUserId: actor?.userId ?? null,
        action: "commerce.order.confirm",
        subjectType: "commerce_order",
        subjectId: o.id,
      });
      return repo.orderOf(tx, o.id);
    });
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  async orders(
    actor: Actor,
    side: "purchaser" | "brand",
    q: {
      page: number;
      pageSize: number;
      state?: repo.OrderRow["state"] | undefined;
      kind?: "physical" | "virtual" | undefined;
      orderNo?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
    },
  ): Promise<Page<CommerceOrder>> {
    const { rows, total } = await repo.orderPage(this.db, {
      side,
      merchantId: tenantOf(actor),
      state: q.state,
      kind: q.kind,
      orderNo: q.orderNo,
      from: q.from ? new Date(`${q.from}T00:00:00+08:00`) : undefined,
      to: q.to ? new Date(new Date(`${q.to}T00:00:00+08:00`).getTime() + 86_400_000) : undefined,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: await this.presentOrders(rows, false), total, page: q.page, pageSize: q.pageSize };
  }

  /** One order for the purchaser or the brand, with its tracking. */
  async order(actor: Actor, id: number): Promise<CommerceOrder> {
    const o = await repo.orderOf(this.db, id);
    const me = tenantOf(actor);
    if (!o || (o.purchaser_id !== me && o.brand_id !== me)) throw notFoundOrder();
    const [p] = await this.presentOrders([repo.asListRow(o)], true);
    if (!p) throw notFoundOrder();
    return p;
  }

  private async presentOne(o: repo.OrderRow): Promise<CommerceOrder> {
    const [p] = await this.presentOrders([repo.asListRow(o)], true);
    if (!p) throw notFoundOrder();
    return p;
  }

  private async presentOrders(rows: repo.OrderListRow[], withEvents: boolean): Promise<CommerceOrder[]> {
    const ids = rows.map((r) => r.id);
    const [items, shipments, names] = await Promise.all([
      repo.itemsOf(this.db, ids),
      repo.shipmentsOfOrders(this.db, ids),
      this.names(rows.flatMap((r) => [r.purchaser_id, r.brand_id])),
    ]);
    const presented = await this.presentShipments(shipments, withEvents, new Map(rows.map((r) => [r.id, r.order_no])));
    const autoMs = this.deps.config.autoConfirmDays * 86_400_000;
    // Grouped once: a page holds up to 1,000 orders.
    const itemsOf = new Map<number, typeof items>();
    for (const i of items) {
      const list = itemsOf.get(i.order_id);
      if (list) list.push(i);
      else itemsOf.set(i.order_id, [i]);
    }
    const shipmentOf = new Map<string, (typeof presented)[number]>();
    for (const s of presented) if (!shipmentOf.has(s.orderId)) shipmentOf.set(s.orderId, s);
    return rows.map((o) =>
      presentOrder(o, itemsOf.get(o.id) ?? [], shipmentOf.get(String(o.id)) ?? null, names, autoMs),
    );
  }

  // ---- express (brand)

  /**
   * `order/express/create`: the courier issues a waybill (or adopts the brand's own number) and subscribes
   * it to tracking; the order becomes shipped. Asking the courier happens before the transaction (it is
   * a network call); the transaction checks the order again, so two shipments of one order cannot both land.
   */
  async ship(
    actor: Actor,
    req: { orderId: string; companyCode: string; waybillNo?: string | undefined },
  ): Promise<CommerceOrder> {
    const brand = await merchantOfActor(this.db, actor);
    const id = Number(req.orderId);
    const o = await repo.orderOf(this.db, id);
    if (!o || o.brand_id !== brand.id) throw notFoundOrder();
    this.checkShippable(o);
    const company = await repo.companyOf(this.db, req.companyCode);
    if (!company) throw invalid("commerce.companyUnknown", "companyCode");
    let waybillNo: string;
    try {
      ({ waybillNo } = await this.deps.courier.createWaybill({
        companyCode: company.code,
        orderNo: o.order_no,
        waybillNo: req.waybillNo,
        recipient: { name: o.consignee_name, mobile: o.consignee_phone, printAddr: `${o.region_names} ${o.address}` },
        sender: { name: brand.name, mobile: "", printAddr: "" },
        cargo: "goods",
        weightKg: 1,
      }));
    } catch (err) {
      if (err instanceof CourierError) {
        throw new AppError(CODE.CONFLICT, "commerce.courierFailed", { reason: err.message });
      }
      throw err;
    }
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const locked = await repo.lockOrder(tx, id);
      if (!locked) throw notFoundOrder();
      this.checkShippable(locked);
      try {
        await repo.insertShipment(tx, {
          orderId: id,
          brandId: brand.id,
          purchaserId: locked.purchaser_id,
          aftersaleId: null,
          companyCode: company.code,
          waybillNo,
          courier: req.waybillNo && this.deps.courier.kind === "local" ? "manual" : this.deps.courier.kind,
          now,
        });
      } catch (err) {
        if (isUniqueViolation(err, "commerce_shipments_waybill")) throw conflict("commerce.waybillTaken", "waybillNo");
        throw err;
      }
      await repo.setOrder(tx, id, { state: "shipped", shippedAt: now, now });
      // The local courier simulates the waybills it issued; a number the brand wrote is a real courier's.
      if (this.deps.courier.kind === "local" && !req.waybillNo) {
        const text = `${locked.consignee_name} ${locked.address} ${locked.remark}`;
        const outcome = /拒收|refuse/i.test(text) ? "refused" : /退回|return/i.test(text) ? "returned" : "signed";
        await repo.insertSim(tx, {
          waybillNo,
          companyCode: company.code,
          outcome,
          stepSeconds: this.deps.config.courierStepSeconds,
          now,
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.order.ship",
        subjectType: "commerce_order",
        subjectId: id,
        detail: { company: company.code, waybillNo },
      });
      return repo.orderOf(tx, id);
    });
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  private checkShippable(o: repo.OrderRow): void {
    if (o.kind === "virtual") throw conflict("commerce.virtualNoShip");
    if (o.state === "to_pay") throw conflict("commerce.notPaid");
    if (o.state !== "to_ship") throw conflict("commerce.orderState");
  }

  /** `order/express/query`: the order's shipment with its tracking events, newest first. */
  async tracking(actor: Actor, orderId: number): Promise<Shipment> {
    const o = await this.order(actor, orderId);
    if (!o.shipment) throw new AppError(CODE.NOT_FOUND, "commerce.shipmentNotFound");
    return o.shipment;
  }

  async shipments(
    actor: Actor,
    q: { page: number; pagesize: number; waybillNo?: string | undefined; signed?: boolean | undefined },
  ): Promise<Page<Shipment>> {
    const { rows, total } = await repo.shipmentPage(this.db, {
      brandId: tenantOf(actor),
      waybillNo: q.waybillNo,
      signed: q.signed,
      offset: (q.page - 1) * q.pagesize,
      limit: q.pagesize,
    });
    const orders = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.order_id))) {
      orders.set(id, (await repo.orderOf(this.db, id))?.order_no ?? "");
    }
    return { list: await this.presentShipments(rows, true, orders), total, page: q.page, pageSize: q.pagesize };
  }

  /** `expressorder/update`: correct the company or number before the parcel is picked up, or note a remark. */
  async updateShipment(
    actor: Actor,
    req: { id: string; companyCode?: string | undefined; waybillNo?: string | undefined; remark?: string | undefined },
  ): Promise<Shipment> {
    const brandId = tenantOf(actor);
    const id = Number(req.id);
    if (req.companyCode && !(await repo.companyOf(this.db, req.companyCode))) {
      throw invalid("commerce.companyUnknown", "companyCode");
    }
    const row = await withTx(this.db, async (tx) => {
      const s = await repo.lockShipment(tx, id, brandId);
      if (!s) throw new AppError(CODE.NOT_FOUND, "commerce.shipmentNotFound");
      const renumber =
        (req.companyCode && req.companyCode !== s.company_code) || (req.waybillNo && req.waybillNo !== s.waybill_no);
      if (renumber && s.state !== null) throw conflict("commerce.waybillPickedUp");
      try {
        await repo.setShipment(tx, id, {
          ...(req.companyCode && { companyCode: req.companyCode }),
          ...(req.waybillNo && { waybillNo: req.waybillNo }),
          ...(req.remark !== undefined && { remark: req.remark }),
          now: this.now(),
        });
      } catch (err) {
        if (isUniqueViolation(err, "commerce_shipments_waybill")) throw conflict("commerce.waybillTaken", "waybillNo");
        throw err;
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.shipment.update",
        subjectType: "commerce_shipment",
        subjectId: id,
        detail: req,
      });
      return tx.selectFrom("commerce_shipments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    });
    const order = await repo.orderOf(this.db, row.order_id);
    const [p] = await this.presentShipments([row], true, new Map([[row.order_id, order?.order_no ?? ""]]));
    if (!p) throw new AppError(CODE.NOT_FOUND, "commerce.shipmentNotFound");
    return p;
  }

  async companies(q: { page: number; pagesize: number; name?: string | undefined }) {
    const all = await repo.companies(this.db, q.name);
    return {
      list: all.slice((q.page - 1) * q.pagesize, q.page * q.pagesize).map((c) => ({ code: c.code, name: c.name })),
      total: all.length,
      page: q.page,
      pageSize: q.pagesize,
    };
  }

  private async presentShipments(
    rows: repo.ShipmentRow[],
    withEvents: boolean,
    orderNos: Map<number, string>,
  ): Promise<Shipment[]> {
    if (rows.length === 0) return [];
    const [events, all] = await Promise.all([
      withEvents
        ? repo.eventsOf(
            this.db,
            rows.map((r) => r.id),
          )
        : [],
      repo.companies(this.db),
    ]);
    const companies = new Map(all.map((c) => [c.code, c.name]));
    return rows.map((s) => ({
      id: String(s.id),
      orderId: String(s.order_id),
      orderNo: orderNos.get(s.order_id) ?? "",
      aftersaleId: s.aftersale_id === null ? null : String(s.aftersale_id),
      companyCode: s.company_code,
      companyName: companies.get(s.company_code) ?? s.company_code,
      waybillNo: s.waybill_no,
      state: s.state,
      courier: s.courier,
      remark: s.remark,
      createdAt: new Date(s.created_at).toISOString(),
      signedAt: iso(s.signed_at),
      events: events
        .filter((e) => e.shipment_id === s.id)
        .map((e) => ({ at: new Date(e.at).toISOString(), state: e.state, context: e.context, area: e.area })),
    }));
  }

  /**
   * A tracking push (Kuaidi100 shape). The signature is checked first; events are stored once however
   * often the push is replayed; a signed parcel makes the order received. Unknown waybills are answered
   * as accepted (the courier would otherwise retry them forever) and change nothing.
   */
  async ingestPush(body: {
    param: string;
    sign: string;
  }): Promise<{ result: boolean; returnCode: string; message: string }> {
    if (pushSign(body.param, this.deps.config.pushSalt) !== body.sign.toUpperCase()) {
      throw invalid("commerce.pushSign", "sign");
    }
    const push = parsePush(body.param);
    if (!push) throw invalid("validation.invalidParameter", "param");
    const now = this.now();
    // In-transit events only (nothing signed or refused, no company correction): one statement.
    if (
      !push.correctedCompany &&
      !push.events.some((e) => e.state === TRACKING_SIGNED || e.state === TRACKING_REFUSED)
    ) {
      const plain = await repo.ingestPlainEvents(this.db, push.company, push.waybillNo, push.events, now);
      return { result: true, returnCode: "200", message: plain.added > 0 ? `${plain.added} new` : "ok" };
    }
    const stored = await withTx(this.db, async (tx) => {
      const s = await repo.shipmentByWaybill(tx, push.company, push.waybillNo);
      if (!s) return 0;
      const added = await repo.insertEvents(tx, s.id, push.events, now);
      const newest = await tx
        .selectFrom("commerce_tracking_events")
        .select(["state", "at"])
        .where("shipment_id", "=", s.id)
        .orderBy("at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
      const signedEvent = push.events.find((e) => e.state === TRACKING_SIGNED);
      await repo.setShipment(tx, s.id, {
        ...(newest && { state: newest.state }),
        ...(signedEvent && !s.signed_at && { signedAt: signedEvent.at }),
        ...(push.correctedCompany &&
          (await repo.companyOf(tx, push.correctedCompany)) && { companyCode: push.correctedCompany }),
        now,
      });
      if (signedEvent && s.aftersale_id === null) {
        const o = await repo.lockOrder(tx, s.order_id);
        if (o?.state === "shipped") {
          await repo.setOrder(tx, o.id, { state: "received", receivedAt: signedEvent.at, now });
        }
      }
      if (added > 0 && push.events.some((e) => e.state === TRACKING_REFUSED)) {
        await audit(tx, {
          actorUserId: null,
          action: "commerce.shipment.refused",
          subjectType: "commerce_shipment",
          subjectId: s.id,
        });
      }
      return added;
    });
    return { result: true, returnCode: "200", message: stored > 0 ? `${stored} new` : "ok" };
  }

  /** The local courier: pushes each simulated waybill's events whose time has come. */
  async runCourierSimulator(limit = 200): Promise<number> {
    const now = this.now();
    let pushed = 0;
    for (const sim of await repo.openSims(this.db, limit)) {
      const trace = SIM_TRACE[sim.outcome];
      const due = Math.min(
        trace.length,
        Math.floor((now.getTime() - new Date(sim.created_at).getTime()) / (sim.step_seconds * 1000)),
      );
      if (due <= sim.pushed) continue;
      const won = await withTx(this.db, (tx) =>
        repo.advanceSim(tx, sim.waybill_no, sim.pushed, due, due >= trace.length),
      );
      if (!won) continue;
      const param = JSON.stringify(simulatedPush(sim, due));
      await this.ingestPush({ param, sign: pushSign(param, this.deps.config.pushSalt) });
      pushed++;
    }
    return pushed;
  }

  /** Closes unpaid orders after the limit and confirms shipped ones after `autoConfirmDays`. */
  async runTimers(unpaidCloseMinutes: number, limit = 200): Promise<{ closed: number; confirmed: number }> {
    const now = this.now();
    let closed = 0;
    let confirmed = 0;
    for (const o of await repo.unpaidBefore(this.db, new Date(now.getTime() - unpaidCloseMinutes * 60_000), limit)) {
      try {
        await this.cancel(null, o.id, "unpaid timeout");
        closed++;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    for (const o of await repo.dueForConfirmation(
      this.db,
      new Date(now.getTime() - this.deps.config.autoConfirmDays * 86_400_000),
      limit,
    )) {
      try {
        await this.confirm(null, o.id);
        confirmed++;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    return { closed, confirmed };
  }

  // ---- after-sales

  /**
   * The purchaser applies for one order line: refund only, or return and refund (after shipping). At most
   * the line's refundable amount; one case per line (a declined or cancelled one may be followed by another).
   */
  async applyAftersale(actor: Actor, req: AftersaleInput): Promise<Aftersale> {
    const purchaserId = tenantOf(actor);
    const replay = await repo.aftersaleByRequestKey(this.db, purchaserId, req.requestKey);
    if (replay) return this.presentAftersale(replay.id);
    const now = this.now();
    const id = await withTx(this.db, async (tx) => {
      const item = await repo.lockItem(tx, Number(req.orderItemId));
      const o = item ? await repo.lockOrder(tx, item.order_id) : undefined;
      if (!item || !o || o.purchaser_id !== purchaserId) throw notFoundOrder();
      if (o.state === "to_pay" || o.state === "closed") throw conflict("commerce.afterSaleNotAllowed");
      if (req.way === "return_and_refund" && o.state === "to_ship") {
        throw invalid("commerce.returnNeedsShipment", "way");
      }
      if (await repo.liveAftersaleOfItem(tx, item.id)) throw conflict("commerce.afterSaleExists");
      if (req.quantity > item.quantity - item.returned_qty) throw invalid("commerce.quantityTooHigh", "quantity");
      const refundable = await refundCap(tx, o, item, req.quantity);
      if (req.amount > refundable) {
        throw invalid("commerce.refundOverUnits", "amount", { max: yuan(refundable), quantity: req.quantity });
      }
      let created: number | null;
      try {
        created = await repo.insertAftersale(tx, {
          orderId: o.id,
          orderItemId: item.id,
          purchaserId,
          brandId: o.brand_id,
          way: req.way,
          quantity: req.quantity,
          amount: req.amount,
          currency: o.currency,
          reason: req.reason,
          requestKey: req.requestKey,
          now,
        });
      } catch (err) {
        if (isUniqueViolation(err, "commerce_aftersales_one_per_item")) throw conflict("commerce.afterSaleExists");
        throw err;
      }
      if (created === null) return (await repo.aftersaleByRequestKey(tx, purchaserId, req.requestKey))?.id ?? null;
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.aftersale.apply",
        subjectType: "commerce_aftersale",
        subjectId: created,
        detail: { way: req.way, amount: req.amount },
      });
      return created;
    });
    if (id === null) throw notFoundAftersale();
    return this.presentAftersale(id);
  }

  /**
   * `afterservice/dispose` (brand): agree (refund-only cases refund at once), disagree, receive the goods
   * back (refund, stock returned), refuse them. Each under the case's row lock, so a decision raced many
   * times lands once and the refund moves money once.
   */
  async dispose(
    actor: Actor,
    id: number,
    action: AfterSaleAction,
    reason?: string,
    returnAddress?: string,
  ): Promise<Aftersale> {
    const brandId = tenantOf(actor);
    const now = this.now();
    await withTx(this.db, async (tx) => {
      const a = await repo.lockAftersale(tx, id);
      if (!a || a.brand_id !== brandId) throw notFoundAftersale();
      const expected = action === "agree" || action === "disagree" ? "apply" : "buyer_delivery";
      if (a.state !== expected) throw conflict("commerce.afterSaleState");
      if ((action === "disagree" || action === "refuse") && !reason) throw invalid("commerce.reasonEmpty", "reason");
      // The buyer is shown where to send the goods: agreeing to a return names the address.
      if (action === "agree" && a.way === "return_and_refund" && !returnAddress) {
        throw invalid("commerce.returnAddressRequired", "returnAddress");
      }
      if (action === "disagree") {
        await repo.setAftersale(tx, id, { state: "seller_disagree", sellerReason: reason ?? "", now });
      } else if (action === "refuse") {
        await repo.setAftersale(tx, id, { state: "seller_refuse", sellerReason: reason ?? "", now });
      } else if (action === "agree" && a.way === "return_and_refund") {
        await repo.setAftersale(tx, id, {
          state: "seller_agree",
          ...(reason && { sellerReason: reason }),
          returnAddress: returnAddress ?? "",
          now,
        });
      } else await this.refund(tx, a, actor.userId, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: `commerce.aftersale.${action}`,
        subjectType: "commerce_aftersale",
        subjectId: id,
      });
    });
    return this.presentAftersale(id);
  }

  /** The money back to SUP once (key per case), the line and order marked, stock back for goods that came back or never left. */
  private async refund(tx: Tx, a: repo.AftersaleRow, userId: number, now: Date): Promise<void> {
    const o = await repo.lockOrder(tx, a.order_id);
    const item = await repo.lockItem(tx, a.order_item_id);
    if (!o || !item) throw notFoundOrder();
    // Checked again at the decision: other cases of the order may have been refunded since the application.
    const refundable = await refundCap(tx, o, item, a.quantity);
    if (a.amount > refundable) {
      throw invalid("commerce.refundOverUnits", "amount", { max: yuan(refundable), quantity: a.quantity });
    }
    const settled = o.state === "completed";
    await post(tx, {
      idempotencyKey: `commerce:aftersale:${a.id}`,
      kind: "refund",
      currency: a.currency,
      reason: o.order_no,
      subject: { type: "commerce_aftersale", id: a.id },
      createdBy: userId,
      postings: [
        settled
          ? { account: { merchantId: o.brand_id, kind: "income" }, amount: -a.amount }
          : { account: { platform: "order_escrow" }, amount: -a.amount },
        { account: { merchantId: o.purchaser_id, kind: "sup" }, amount: a.amount },
      ],
    });
    const goodsBack = a.way === "return_and_refund" || o.state === "to_ship";
    // The line records what came back of its goods' price; a freight share refunded with the order's last units is the order's.
    await repo.refundItem(tx, item.id, Math.min(a.amount, item.amount - item.refunded), goodsBack ? a.quantity : 0);
    if (goodsBack) await repo.giveStock(tx, item.sku_id, a.quantity);
    const fullyRefunded = o.refunded_amount + a.amount >= o.pay_amount;
    await repo.setOrder(tx, o.id, {
      refundedDelta: a.amount,
      ...(fullyRefunded &&
        o.state !== "completed" && { state: "closed", closedAt: now, closeReason: "after-sales refund" }),
      now,
    });
    await repo.setAftersale(tx, a.id, { state: "complete", refundedAt: now, now });
  }

  /** The purchaser sends the goods back with a waybill after the brand agreed. */
  async shipBack(actor: Actor, id: number, req: { companyCode: string; waybillNo: string }): Promise<Aftersale> {
    const purchaserId = tenantOf(actor);
    if (!(await repo.companyOf(this.db, req.companyCode))) throw invalid("commerce.companyUnknown", "companyCode");
    await withTx(this.db, async (tx) => {
      const a = await repo.lockAftersale(tx, id);
      if (!a || a.purchaser_id !== purchaserId) throw notFoundAftersale();
      if (a.state !== "seller_agree") throw conflict("commerce.afterSaleState");
      await repo.setAftersale(tx, id, {
        state: "buyer_delivery",
        returnCompany: req.companyCode,
        returnWaybill: req.waybillNo,
        now: this.now(),
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.aftersale.shipBack",
        subjectType: "commerce_aftersale",
        subjectId: id,
      });
    });
    return this.presentAftersale(id);
  }

  async cancelAftersale(actor: Actor, id: number): Promise<Aftersale> {
    const purchaserId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      const a = await repo.lockAftersale(tx, id);
      if (!a || a.purchaser_id !== purchaserId) throw notFoundAftersale();
      if (a.state !== "apply" && a.state !== "seller_agree") throw conflict("commerce.afterSaleState");
      await repo.setAftersale(tx, id, { state: "buyer_cancel", now: this.now() });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.aftersale.cancel",
        subjectType: "commerce_aftersale",
        subjectId: id,
      });
    });
    return this.presentAftersale(id);
  }

  async aftersales(
    actor: Actor,
    side: "purchaser" | "brand",
    q: { page: number; pageSize: number; state?: repo.AftersaleRow["state"] | undefined; orderNo?: string | undefined },
  ): Promise<Page<Aftersale>> {
    const { rows, total } = await repo.aftersalePage(this.db, {
      side,
      merchantId: tenantOf(actor),
      state: q.state,
      orderNo: q.orderNo,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: await this.presentAftersales(rows), total, page: q.page, pageSize: q.pageSize };
  }

  private async presentAftersale(id: number): Promise<Aftersale> {
    const row = await repo.aftersaleWithOrderNo(this.db, id);
    const [p] = row ? await this.presentAftersales([row]) : [];
    if (!p) throw notFoundAftersale();
    return p;
  }

  private async presentAftersales(rows: repo.AftersaleListRow[]): Promise<Aftersale[]> {
    const items = new Map(
      (
        await repo.itemsById(
          this.db,
          rows.map((r) => r.order_item_id),
        )
      ).map((i) => [i.id, i]),
    );
    const names = await this.names(rows.flatMap((r) => [r.purchaser_id, r.brand_id]));
    const companies = await repo.companyNames(
      this.db,
      rows.flatMap((r) => (r.return_company === null ? [] : [r.return_company])),
    );
    return rows.map((a) => ({
      id: String(a.id),
      orderId: String(a.order_id),
      orderNo: a.order_no,
      orderItemId: String(a.order_item_id),
      itemName: items.get(a.order_item_id)?.name ?? "",
      specs: items.get(a.order_item_id)?.specs ?? [],
      purchaserName: names.get(a.purchaser_id) ?? "",
      brandName: names.get(a.brand_id) ?? "",
      way: a.way,
      state: a.state,
      quantity: a.quantity,
      amount: { amount: a.amount, currency: a.currency },
      reason: a.reason,
      sellerReason: a.seller_reason,
      returnCompany: a.return_company,
      returnCompanyName: a.return_company === null ? null : (companies.get(a.return_company) ?? a.return_company),
      returnWaybill: a.return_waybill,
      returnAddress: a.return_address,
      createdAt: new Date(a.created_at).toISOString(),
      updatedAt: new Date(a.updated_at).toISOString(),
      refundedAt: iso(a.refunded_at),
    }));
  }
}

/** One order as the contract shows it, from its row (times already ISO text), its lines, its shipment and the merchants' names. */
function presentOrder(
  o: repo.OrderListRow,
  items: repo.ItemRow[],
  shipment: Shipment | null,
  names: Map<number, string>,
  autoMs: number,
): CommerceOrder {
  const m = (amount: number) => ({ amount, currency: o.currency });
  return {
    id: String(o.id),
    orderNo: o.order_no,
    kind: o.kind,
    state: o.state,
    purchaserId: String(o.purchaser_id),
    purchaserName: names.get(o.purchaser_id) ?? "",
    brandId: String(o.brand_id),
    brandName: names.get(o.brand_id) ?? "",
    goodsAmount: m(o.goods_amount),
    freight: m(o.freight),
    payAmount: m(o.pay_amount),
    refundedAmount: m(o.refunded_amount),
    consignee:
      o.kind === "physical"
        ? {
            name: o.consignee_name,
            phone: o.consignee_phone,
            provinceCode: o.province_code,
            cityCode: o.city_code,
            countyCode: o.county_code,
            regionNames: o.region_names,
            address: o.address,
          }
        : null,
    remark: o.remark,
    closeReason: o.close_reason,
    items: items.map((i) => ({
      id: String(i.id),
      skuId: String(i.sku_id),
      commodityId: String(i.commodity_id),
      name: i.name,
      specs: i.specs,
      unitPrice: m(i.unit_price),
      quantity: i.quantity,
      amount: m(i.amount),
      refunded: m(i.refunded),
      returnedQty: i.returned_qty,
    })),
    shipment,
    createdAt: o.created_at,
    paidAt: o.paid_at,
    shippedAt: o.shipped_at,
    receivedAt: o.received_at,
    completedAt: o.completed_at,
    closedAt: o.closed_at,
    autoConfirmAt:
      (o.state === "shipped" || o.state === "received") && o.shipped_at
        ? new Date(Date.parse(o.shipped_at) + autoMs).toISOString()
        : null,
  };
}

/**
 * Freight of an order from its commodities' templates: the highest first-kilogram fee plus the highest
 * fee per further kilogram (whole kilograms, rounded up); nothing once the goods reach the lowest
 * free-shipping amount any of them sets.
 */
export function freightOf(
  skus: { freight_first: number; freight_extra: number; free_over: number | null }[],
  goods: number,
  weightG: number,
): number {
  const freeOver = skus.map((s) => s.free_over).filter((f): f is number => f !== null);
  if (freeOver.length > 0 && goods >= Math.min(...freeOver)) return 0;
  const first = Math.max(0, ...skus.map((s) => s.freight_first));
  const extra = Math.max(0, ...skus.map((s) => s.freight_extra));
  const kg = Math.max(1, Math.ceil(weightG / 1000));
  return first + extra * (kg - 1);
}

/**
 * The most an after-sales case may refund (issue 37): what was paid for the units it concerns, their share
 * of the line's paid amount (the order's paid goods amount spread over its lines by price, so a discount
 * is shared; the line's last units take the rounding remainder), plus the freight only when these are the
 * last units of the whole order still out (freight is refunded when everything comes back), and never more
 * than the order still holds. Under the order's and the line's locks.
 */
async function refundCap(tx: Tx, o: repo.OrderRow, item: repo.ItemRow, quantity: number): Promise<number> {
  const lines = await repo.itemsOfOrder(tx, o.id);
  const paidGoods = o.pay_amount - o.freight;
  const linePaid = o.goods_amount > 0 ? Math.floor((item.amount * paidGoods) / o.goods_amount) : 0;
  const left = item.quantity - item.returned_qty;
  const units = Math.min(quantity, left);
  const lastOfLine = units >= left;
  const share = lastOfLine
    ? linePaid - item.refunded
    : Math.min(linePaid - item.refunded, Math.floor((linePaid * units) / item.quantity));
  const lastOfOrder = lastOfLine && lines.every((l) => l.id === item.id || l.returned_qty >= l.quantity);
  return Math.max(0, Math.min(o.pay_amount - o.refunded_amount, share + (lastOfOrder ? o.freight : 0)));
}

/** An order number: CM, the Beijing time to the second and six random digits. */
function orderNo(now: Date): string {
  return `CM${beijingText(now).replace(/\D/g, "")}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}
