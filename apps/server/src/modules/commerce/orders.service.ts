import { randomInt } from "node:crypto";
import { CODE, type CommerceOrder, type Page } from "@tessera/contracts";
import type { commerceOrderReq } from "@tessera/contracts";
import type { z } from "zod";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { merchantNames, merchantOfActor } from "../merchants";
import { beijingText } from "../../platform/adapters/courier";
import * as ordersRepo from "./orders.repo";
import { notFoundOrder, presentOrder } from "./presenter";
import * as regions from "../../platform/regions";
import * as shippingRepo from "./shipping.repo";
import type { CommerceDeps } from "./service";
import { presentShipments } from "./shipping.service";
import { pageWindow } from "../../db/paginate";

type OrderInput = z.output<typeof commerceOrderReq>;

/**
 * Orders (purchaser): placed with the stock taken in one statement, paid into the order escrow
 * (`commerce:pay:<order>`), settled to the brand's income on completion (`commerce:settle:<order>`),
 * closed with the stock and a paid order's money given back (`commerce:close:<order>`), confirmed by the
 * purchaser or by the timers; the order pages of both sides.
 */
export class OrdersService {
  constructor(private readonly deps: CommerceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  /**
   * Places an order: one brand's goods of one kind, stock taken SKU by SKU (in id order, so two orders
   * never wait on each other crosswise); any SKU short refuses the whole order and changes nothing. A
   * replayed request key returns the first order. Three statements: the purchaser, one read of the SKUs
   * (with a replay's order id), and the order written in one statement (ordersRepo.placeOrder: the order, its
   * lines, its audit row and the stock). The reply is built from what went in, not read back.
   */
  async placeOrder(actor: Actor, req: OrderInput): Promise<CommerceOrder> {
    const purchaser = await merchantOfActor(this.db, actor);
    const quantities = new Map<number, number>();
    for (const i of req.items) quantities.set(Number(i.skuId), (quantities.get(Number(i.skuId)) ?? 0) + i.quantity);
    // One read: the SKUs with their commodity and brand, and the order already placed under this key if any.
    const skus = await ordersRepo.skusForOrder(this.db, [...quantities.keys()], {
      purchaserId: purchaser.id,
      requestKey: req.requestKey,
    });
    const replayId =
      skus[0]?.replay_id ??
      (skus.length === 0 ? (await ordersRepo.orderByRequestKey(this.db, purchaser.id, req.requestKey))?.id : undefined);
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
    let consignee: ordersRepo.NewOrder["consignee"] = null;
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
    const order: ordersRepo.NewOrder = {
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
    const lines: ordersRepo.NewOrderLine[] = [];
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
    let placed: Awaited<ReturnType<typeof ordersRepo.placeOrder>> = null;
    for (let attempt = 1; ; attempt++) {
      try {
        placed = await ordersRepo.placeOrder(this.db, order, lines, {
          actorUserId: actor.userId,
          detail: { amount: goods + freight },
        });
        break;
      } catch (err) {
        const code = typeof err === "object" && err !== null && "code" in err ? err.code : undefined;
        if (code === ordersRepo.REFUSED && err instanceof Error && err.message.startsWith("commerce.outOfStock:")) {
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
      const replay = await ordersRepo.orderByRequestKey(this.db, purchaser.id, req.requestKey);
      if (!replay) throw notFoundOrder();
      return this.presentOne(replay);
    }
    // The reply from what went in: a new order has no shipment, no payment and nothing refunded yet.
    const row: ordersRepo.OrderRow = {
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
    const items: ordersRepo.ItemRow[] = lines.map((l) => ({
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
    return presentOrder(ordersRepo.asListRow(row), items, null, names, this.deps.config.autoConfirmDays * 86_400_000);
  }

  private async presentReplay(id: number): Promise<CommerceOrder> {
    const row = await ordersRepo.orderOf(this.db, id);
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  /** Pays a to-pay order from the purchaser's SUP account into the order escrow. A virtual order completes at once. */
  async pay(actor: Actor, id: number): Promise<CommerceOrder> {
    const purchaserId = tenantOf(actor);
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await ordersRepo.lockOrder(tx, id);
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
      await ordersRepo.setOrder(tx, o.id, { state: o.kind === "virtual" ? "completed" : "to_ship", paidAt: now, now });
      if (o.kind === "virtual") await this.settle(tx, { ...o, state: "to_ship" }, actor.userId, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.order.pay",
        subjectType: "commerce_order",
        subjectId: o.id,
      });
      return ordersRepo.orderOf(tx, o.id);
    });
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  /** Escrow → the brand's income, for what has not been refunded; the order completes. */
  private async settle(tx: Tx, o: ordersRepo.OrderRow, userId: number | null, now: Date): Promise<void> {
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
    await ordersRepo.setOrder(tx, o.id, { state: "completed", completedAt: now, now });
  }

  /**
   * The purchaser cancels an order not yet shipped (or the unpaid-order job closes it): the stock comes
   * back once, and a paid order's money goes back to SUP.
   */
  async cancel(actor: Actor | null, id: number, reason: string): Promise<CommerceOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await ordersRepo.lockOrder(tx, id);
      if (!o || (actor && o.purchaser_id !== tenantOf(actor))) throw notFoundOrder();
      if (o.state !== "to_pay" && o.state !== "to_ship") throw conflict("commerce.orderState");
      if (!actor && o.state !== "to_pay") throw conflict("commerce.orderState");
      const items = await ordersRepo.itemsOf(tx, [o.id]);
      for (const i of [...items].sort((a, b) => a.sku_id - b.sku_id)) {
        const left = i.quantity - i.returned_qty;
        if (left > 0) await ordersRepo.giveStock(tx, i.sku_id, left);
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
      await ordersRepo.setOrder(tx, o.id, {
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
      return ordersRepo.orderOf(tx, o.id);
    });
    if (!row) throw notFoundOrder();
    return this.presentOne(row);
  }

  /** The purchaser confirms receipt (or the job does, `autoConfirmDays` after shipping): the brand is paid. */
  async confirm(actor: Actor | null, id: number): Promise<CommerceOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await ordersRepo.lockOrder(tx, id);
      if (!o || (actor && o.purchaser_id !== tenantOf(actor))) throw notFoundOrder();
      if (o.state !== "shipped" && o.state !== "received") throw conflict("commerce.orderState");
      if (!o.received_at) await ordersRepo.setOrder(tx, o.id, { receivedAt: now, now });
      await this.settle(tx, o, actor?.userId ?? null, now);
      await audit(tx, {
        actorUserId: actor?.userId ?? null,
        action: "commerce.order.confirm",
        subjectType: "commerce_order",
        subjectId: o.id,
      });
      return ordersRepo.orderOf(tx, o.id);
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
      state?: ordersRepo.OrderRow["state"] | undefined;
      kind?: "physical" | "virtual" | undefined;
      orderNo?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
    },
  ): Promise<Page<CommerceOrder>> {
    const { rows, total } = await ordersRepo.orderPage(this.db, {
      side,
      merchantId: tenantOf(actor),
      state: q.state,
      kind: q.kind,
      orderNo: q.orderNo,
      from: q.from ? new Date(`${q.from}T00:00:00+08:00`) : undefined,
      to: q.to ? new Date(new Date(`${q.to}T00:00:00+08:00`).getTime() + 86_400_000) : undefined,
      ...pageWindow(q),
    });
    return { list: await this.presentOrders(rows, false), total, page: q.page, pageSize: q.pageSize };
  }

  /** One order for the purchaser or the brand, with its tracking. */
  async order(actor: Actor, id: number): Promise<CommerceOrder> {
    const o = await ordersRepo.orderOf(this.db, id);
    const me = tenantOf(actor);
    if (!o || (o.purchaser_id !== me && o.brand_id !== me)) throw notFoundOrder();
    const [p] = await this.presentOrders([ordersRepo.asListRow(o)], true);
    if (!p) throw notFoundOrder();
    return p;
  }

  /** One order read whole, presented with its tracking. */
  async presentOne(o: ordersRepo.OrderRow): Promise<CommerceOrder> {
    const [p] = await this.presentOrders([ordersRepo.asListRow(o)], true);
    if (!p) throw notFoundOrder();
    return p;
  }

  private async presentOrders(rows: ordersRepo.OrderListRow[], withEvents: boolean): Promise<CommerceOrder[]> {
    const ids = rows.map((r) => r.id);
    const [items, shipments, names] = await Promise.all([
      ordersRepo.itemsOf(this.db, ids),
      shippingRepo.shipmentsOfOrders(this.db, ids),
      merchantNames(
        this.db,
        rows.flatMap((r) => [r.purchaser_id, r.brand_id]),
      ),
    ]);
    const presented = await presentShipments(
      this.db,
      shipments,
      withEvents,
      new Map(rows.map((r) => [r.id, r.order_no])),
    );
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

  /** Closes unpaid orders after the limit and confirms shipped ones after `autoConfirmDays`. */
  async runTimers(unpaidCloseMinutes: number, limit = 200): Promise<{ closed: number; confirmed: number }> {
    const now = this.now();
    let closed = 0;
    let confirmed = 0;
    for (const o of await ordersRepo.unpaidBefore(
      this.db,
      new Date(now.getTime() - unpaidCloseMinutes * 60_000),
      limit,
    )) {
      try {
        await this.cancel(null, o.id, "unpaid timeout");
        closed++;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    for (const o of await ordersRepo.dueForConfirmation(
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

/** An order number: CM, the Beijing time to the second and six random digits. */
function orderNo(now: Date): string {
  return `CM${beijingText(now).replace(/\D/g, "")}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}
