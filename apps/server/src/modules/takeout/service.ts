import { randomInt } from "node:crypto";
import {
  CODE,
  type Page,
  type TakeoutAction,
  type TakeoutApplet,
  type TakeoutItem,
  type TakeoutMenu,
  type TakeoutOrder,
  type TakeoutPackage,
  type TakeoutShop,
  type TakeoutType,
  type takeoutItemReq,
  type takeoutOrderReq,
  type takeoutPackageReq,
  type takeoutShopReq,
  type takeoutTypeReq,
} from "@tessera/contracts";
import type { z } from "zod";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { platformDay, startOfPlatformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { moneyAccounts, type PaymentsAdapter } from "../../platform/payments";
import { post } from "../ledger";
import { merchantOfActor } from "../merchants";
import * as repo from "./repo";
import type { HoursRuleCol, LineCol } from "./tables";

type ShopReq = z.output<typeof takeoutShopReq>;
type TypeReq = z.output<typeof takeoutTypeReq>;
type ItemReq = z.output<typeof takeoutItemReq>;
type PackageReq = z.output<typeof takeoutPackageReq>;
type OrderReq = z.output<typeof takeoutOrderReq>;

export const UNPAID_CLOSE_MINUTES = 15;
const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);
const notFound = (
  key:
    | "takeout.orderNotFound"
    | "takeout.itemNotFound"
    | "takeout.packageNotFound"
    | "takeout.typeNotFound"
    | "takeout.shopNotFound",
) => new AppError(CODE.NOT_FOUND, key);

/** Metres between two points (haversine). */
export function distanceM(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = 6_371_000;
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}

/** Whether a point lies inside a polygon of [lat, lng] corners (ray casting). */
export function insidePolygon(p: { lat: number; lng: number }, polygon: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i] ?? [0, 0];
    const [yj, xj] = polygon[j] ?? [0, 0];
    if (yi > p.lat !== yj > p.lat && p.lng < ((xj - xi) * (p.lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether the hours (Beijing time, 1 = Monday) cover an instant; a rule whose end is before its start runs past midnight. */
export function openAt(hours: HoursRuleCol[], at: Date): boolean {
  const local = new Date(at.getTime() + 8 * 3600_000);
  const day = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
  const prevDay = day === 1 ? 7 : day - 1;
  const minutes = local.getUTCHours() * 60 + local.getUTCMinutes();
  const m = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
  return hours.some((h) => {
    const from = m(h.from);
    const to = m(h.to);
    if (from < to) return h.days.includes(day) && minutes >= from && minutes < to;
    return (h.days.includes(day) && minutes >= from) || (h.days.includes(prevDay) && minutes < to);
  });
}

/**
 * The takeout mini-shop: the brand's shop settings and menu, customers' orders from the phone page, the
 * shop's order handling. Stock of counted items is taken when the order is placed and given back when it
 * is cancelled; money moves only through the ledger, once per order and step.
 */
export class TakeoutService {
  constructor(private readonly deps: { db: Db; clock: Clock; payments: PaymentsAdapter }) {}
  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  // ---- shop settings and menu (brand)

  async shop(actor: Actor): Promise<TakeoutShop | null> {
    const row = await repo.shopOf(this.db, tenantOf(actor));
    return row ? this.presentShop(row) : null;
  }

  async saveShop(actor: Actor, req: ShopReq): Promise<TakeoutShop> {
    const merchant = await merchantOfActor(this.db, actor);
    if (req.areaKind === "polygon" && req.polygon.length < 3) throw invalid("takeout.areaInvalid", "polygon");
    await withTx(this.db, async (tx) => {
      await repo.upsertShop(tx, { merchantId: merchant.id, ...req, currency: merchant.currency, now: this.now() });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "takeout.shop.save",
        subjectType: "merchant",
        subjectId: merchant.id,
      });
    });
    const row = await repo.shopOf(this.db, merchant.id);
    if (!row) throw notFound("takeout.shopNotFound");
    return this.presentShop(row);
  }

  private presentShop(s: repo.ShopRow): TakeoutShop {
    const m = (amount: number) => ({ amount, currency: s.currency });
    return {
      merchantId: String(s.merchant_id),
      name: s.name,
      open: s.open,
      openNow: s.open && openAt(s.hours, this.now()),
      hours: s.hours,
      address: s.address,
      lat: s.lat,
      lng: s.lng,
      areaKind: s.area_kind,
      radiusM: s.radius_m,
      polygon: s.polygon,
      deliveryFee: m(s.delivery_fee),
      minOrder: m(s.min_order),
      packingFee: m(s.packing_fee),
      tableware: s.tableware,
      scheduled: s.scheduled,
      prepMinutes: s.prep_minutes,
    };
  }

  async types(actor: Actor): Promise<TakeoutType[]> {
    return (await repo.typesOf(this.db, tenantOf(actor))).map((t) => ({
      id: String(t.id),
      name: t.name,
      sort: t.sort,
    }));
  }
  async saveType(actor: Actor, id: number | null, req: TypeReq): Promise<TakeoutType[]> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      if (id === null) await repo.insertType(tx, merchantId, req.name, req.sort);
      else if (!(await repo.updateType(tx, id, merchantId, req.name, req.sort))) throw notFound("takeout.typeNotFound");
    });
    return this.types(actor);
  }
  async deleteType(actor: Actor, id: number): Promise<TakeoutType[]> {
    const merchantId = tenantOf(actor);
    await withTx(this.db, async (tx) => {
      if (!(await repo.typeOf(tx, id, merchantId))) throw notFound("takeout.typeNotFound");
      if (await repo.typeInUse(tx, id)) throw conflict("takeout.typeInUse");
      await repo.deleteType(tx, id, merchantId);
    });
    return this.types(actor);
  }

  async items(actor: Actor): Promise<TakeoutItem[]> {
    const merchant = await merchantOfActor(this.db, actor);
    return (await repo.itemsOf(this.db, merchant.id)).map((i) => presentItem(i, merchant.currency));
  }
  async saveItem(actor: Actor, id: number | null, req: ItemReq): Promise<TakeoutItem[]> {
    const merchantId = tenantOf(actor);
    const typeId = req.typeId ? Number(req.typeId) : null;
    await withTx(this.db, async (tx) => {
      if (typeId !== null && !(await repo.typeOf(tx, typeId, merchantId))) {
        throw invalid("takeout.typeNotFound", "typeId");
      }
      const values = { ...req, typeId };
      if (id === null) await repo.insertItem(tx, merchantId, values);
      else if (!(await repo.updateItem(tx, id, merchantId, values))) throw notFound("takeout.itemNotFound");
    });
    return this.items(actor);
  }

  async packages(actor: Actor): Promise<TakeoutPackage[]> {
    const merchant = await merchantOfActor(this.db, actor);
    const [packages, items] = await Promise.all([
      repo.packagesOf(this.db, merchant.id),
      repo.itemsOf(this.db, merchant.id),
    ]);
    return packages.map((p) => presentPackage(p, items, merchant.currency));
  }
  async savePackage(actor: Actor, id: number | null, req: PackageReq): Promise<TakeoutPackage[]> {
    const merchantId = tenantOf(actor);
    const own = new Set((await repo.itemsOf(this.db, merchantId)).map((i) => i.id));
    for (const [i, it] of req.items.entries()) {
      if (!own.has(Number(it.itemId))) throw invalid("takeout.itemNotFound", `items.${i}.itemId`);
    }
    const values = { ...req, items: req.items.map((i) => ({ itemId: Number(i.itemId), quantity: i.quantity })) };
    await withTx(this.db, async (tx) => {
      if (id === null) await repo.insertPackage(tx, merchantId, values);
      else if (!(await repo.updatePackage(tx, id, merchantId, values))) throw notFound("takeout.packageNotFound");
    });
    return this.packages(actor);
  }

  /** The customer's menu of a shop: settings, categories, items and combos on sale. */
  async menu(merchantId: number): Promise<TakeoutMenu> {
    const shop = await repo.shopOf(this.db, merchantId);
    if (!shop) throw notFound("takeout.shopNotFound");
    const [types, items, packages] = await Promise.all([
      repo.typesOf(this.db, merchantId),
      repo.itemsOf(this.db, merchantId, true),
      repo.packagesOf(this.db, merchantId, true),
    ]);
    const all = await repo.itemsOf(this.db, merchantId);
    return {
      shop: this.presentShop(shop),
      types: types.map((t) => ({ id: String(t.id), name: t.name, sort: t.sort })),
      items: items.map((i) => presentItem(i, shop.currency)),
      packages: packages.map((p) => presentPackage(p, all, shop.currency)),
    };
  }

  /**
   * TakeoutApplet (provider): the takeout shops of the brands a provider serves: whether each has one,
   * open now, its customer page, today's orders and completed takings, orders waiting for the shop.
   */
  async applets(brands: { merchantId: number; name: string }[]): Promise<TakeoutApplet[]> {
    const ids = brands.map((b) => b.merchantId);
    const since = startOfPlatformDay(platformDay(this.now()));
    const [shops, figures] = await Promise.all([repo.shopsOf(this.db, ids), repo.shopFigures(this.db, ids, since)]);
    const shopOf = new Map(shops.map((s) => [s.merchant_id, s]));
    const figuresOf = new Map(figures.map((f) => [f.merchant_id, f]));
    return brands.map((b) => {
      const s = shopOf.get(b.merchantId);
      const f = figuresOf.get(b.merchantId);
      return {
        merchantId: String(b.merchantId),
        merchantName: b.name,
        shop: s ? this.presentShop(s) : null,
        link: `/takeout/${b.merchantId}`,
        ordersToday: Number(f?.today ?? 0),
        waiting: Number(f?.waiting ?? 0),
        completedToday: { amount: Number(f?.completed_amount ?? 0), currency: s?.currency ?? "CNY" },
      };
    });
  }

  // ---- orders (customer)

  /**
   * A customer's order: the shop open now (or a scheduled time it is open at), the address in the delivery
   * area, every line available with its required options, the minimum reached, counted stock taken. Any
   * refusal changes nothing.
   */
  async placeOrder(customerId: number, req: OrderReq): Promise<TakeoutOrder> {
    const replay = await repo.orderByKey(this.db, customerId, req.requestKey);
    if (replay) return this.presentOrder(replay);
    const merchantId = Number(req.merchantId);
    const shop = await repo.shopOf(this.db, merchantId);
    if (!shop) throw notFound("takeout.shopNotFound");
    const now = this.now();
    const scheduledAt = req.scheduledAt ? new Date(req.scheduledAt) : null;
    if (
      scheduledAt &&
      (!shop.scheduled ||
        scheduledAt.getTime() < now.getTime() ||
        scheduledAt.getTime() > now.getTime() + 3 * 86_400_000)
    ) {
      throw invalid("takeout.scheduleInvalid", "scheduledAt");
    }
    if (!shop.open || !openAt(shop.hours, scheduledAt ?? now)) throw conflict("takeout.closed");
    const point = { lat: req.lat, lng: req.lng };
    const inArea =
      shop.area_kind === "radius" ? distanceM(shop, point) <= shop.radius_m : insidePolygon(point, shop.polygon);
    if (!inArea) throw invalid("takeout.outOfRange", "address");

    const items = new Map((await repo.itemsOf(this.db, merchantId)).map((i) => [i.id, i]));
    const packages = new Map((await repo.packagesOf(this.db, merchantId)).map((p) => [p.id, p]));
    const lines: LineCol[] = [];
    for (const [index, l] of req.lines.entries()) {
      if (l.kind === "item") {
        const it = items.get(Number(l.id));
        if (!it || !it.on_sale) throw invalid("takeout.unavailable", `lines.${index}.id`, { name: it?.name ?? l.id });
        const chosen: string[] = [];
        let extra = 0;
        for (const [g, group] of it.options.entries()) {
          const picks = l.options[g] ?? [];
          if (group.required && picks.length === 0) {
            throw invalid("takeout.optionRequired", `lines.${index}.options`, { name: it.name, group: group.name });
          }
          if (picks.length > group.max) {
            throw invalid("takeout.optionRequired", `lines.${index}.options`, { name: it.name, group: group.name });
          }
          for (const pick of picks) {
            const choice = group.choices.find((c) => c.name === pick);
            if (!choice) {
              throw invalid("takeout.optionRequired", `lines.${index}.options`, { name: it.name, group: group.name });
            }
            chosen.push(choice.name);
            extra += choice.price;
          }
        }
        const unit = it.price + extra;
        lines.push({
          kind: "item",
          id: it.id,
          name: it.name,
          options: chosen,
          unitPrice: unit,
          quantity: l.quantity,
          amount: unit * l.quantity,
          stock: [[it.id, l.quantity]],
        });
      } else {
        const p = packages.get(Number(l.id));
        if (!p || !p.on_sale) throw invalid("takeout.unavailable", `lines.${index}.id`, { name: p?.name ?? l.id });
        const names = p.items.map((pi) => `${items.get(pi.itemId)?.name ?? ""} × ${pi.quantity}`);
        lines.push({
          kind: "package",
          id: p.id,
          name: p.name,
          options: names,
          unitPrice: p.price,
          quantity: l.quantity,
          amount: p.price * l.quantity,
          stock: p.items.map((pi) => [pi.itemId, pi.quantity * l.quantity]),
        });
      }
    }
    const goods = lines.reduce((a, l) => a + l.amount, 0);
    if (goods < shop.min_order) {
      throw invalid("takeout.belowMinimum", "lines", { min: (shop.min_order / 100).toFixed(2) });
    }
    const take = new Map<number, number>();
    for (const l of lines) for (const [itemId, q] of l.stock) take.set(itemId, (take.get(itemId) ?? 0) + q);

    const row = await withTx(this.db, async (tx) => {
      const id = await repo.insertOrder(tx, {
        orderNo: `TO${new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace(/\D/g, "")}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`,
        merchantId,
        customerId,
        lines,
        goods,
        packingFee: shop.packing_fee,
        deliveryFee: shop.delivery_fee,
        currency: shop.currency,
        contactName: req.contactName,
        contactPhone: req.contactPhone,
        address: req.address,
        lat: req.lat,
        lng: req.lng,
        tableware: shop.tableware ? req.tableware : 0,
        scheduledAt,
        remark: req.remark,
        requestKey: req.requestKey,
        now,
      });
      if (id === null) return repo.orderByKey(tx, customerId, req.requestKey);
      for (const itemId of [...take.keys()].sort((a, b) => a - b)) {
        if (!(await repo.takeItemStock(tx, itemId, take.get(itemId) ?? 0))) {
          throw new AppError(CODE.CONFLICT, "takeout.soldOut", { name: items.get(itemId)?.name ?? "" }, "lines");
        }
      }
      return repo.orderOf(tx, id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  /**
   * The customer pays through the payments seam; on the adapter's confirmation the money arrives (clearing
   * → order escrow, or their sandbox mirrors for test money) and the order goes to the shop.
   */
  async pay(customerId: number, id: number): Promise<TakeoutOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await repo.lockOrder(tx, id);
      if (!o || o.customer_id !== customerId) throw notFound("takeout.orderNotFound");
      if (o.state !== "pending_payment") throw conflict("takeout.orderState");
      const paid = await this.deps.payments.create(
        tx,
        {
          merchantId: o.merchant_id,
          subject: { type: "takeout_order", id: o.id },
          paymentNo: o.order_no,
          amount: o.total,
          currency: o.currency,
          description: o.order_no,
          payer: o.contact_phone,
        },
        now,
      );
      if (paid.state !== "paid") return repo.orderOf(tx, o.id);
      const money = moneyAccounts(paid.sandbox);
      await post(tx, {
        idempotencyKey: `takeout:pay:${o.id}`,
        kind: "takeout_sale",
        currency: o.currency,
        reason: o.order_no,
        subject: { type: "takeout_order", id: o.id },
        postings: [
          { account: money.clearing, amount: -o.total },
          { account: money.escrow, amount: o.total },
        ],
      });
      await repo.setOrder(tx, o.id, { state: "to_be_accepted", paidAt: now, sandbox: paid.sandbox });
      return repo.orderOf(tx, o.id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  async customerCancel(customerId: number, id: number, reason: string): Promise<TakeoutOrder> {
    return this.cancel(id, { by: "customer", customerId }, reason || "customer cancelled", [
      "pending_payment",
      "to_be_accepted",
    ]);
  }

  /** Cancels an order: stock back, a paid order refunded to the customer's payment, once. */
  private async cancel(
    id: number,
    who: { by: "customer"; customerId: number } | { by: "shop"; merchantId: number; userId: number } | { by: "system" },
    reason: string,
    from: repo.OrderRow["state"][],
  ): Promise<TakeoutOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await repo.lockOrder(tx, id);
      const mine =
        o &&
        (who.by === "customer"
          ? o.customer_id === who.customerId
          : who.by === "shop"
            ? o.merchant_id === who.merchantId
            : true);
      if (!o || !mine) throw notFound("takeout.orderNotFound");
      if (!from.includes(o.state)) throw conflict("takeout.orderState");
      await this.giveBack(tx, o);
      const refund = o.paid_at ? o.total - o.refunded : 0;
      if (refund > 0) {
        const money = moneyAccounts(o.sandbox);
        const back = await this.deps.payments.refund(
          tx,
          { paymentNo: o.order_no, refundNo: `${o.order_no}R`, amount: refund },
          now,
        );
        if (back.state === "failed" && o.sandbox) throw conflict("payments.refundFailed");
        await post(tx, {
          idempotencyKey: `takeout:refund:${o.id}`,
          kind: "refund",
          currency: o.currency,
          reason: `${o.order_no} ${reason}`.slice(0, 200),
          subject: { type: "takeout_order", id: o.id },
          postings: [
            { account: money.escrow, amount: -refund },
            { account: money.clearing, amount: refund },
          ],
        });
      }
      await repo.setOrder(tx, o.id, {
        state: "cancelled",
        cancelledAt: now,
        cancelReason: reason,
        cancelledBy: who.by,
        ...(refund > 0 && { refunded: o.refunded + refund }),
      });
      await audit(tx, {
        actorUserId: who.by === "shop" ? who.userId : null,
        action: "takeout.order.cancel",
        subjectType: "takeout_order",
        subjectId: o.id,
        detail: { reason, refund },
      });
      return repo.orderOf(tx, o.id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  private async giveBack(tx: Tx, o: repo.OrderRow): Promise<void> {
    const back = new Map<number, number>();
    for (const l of o.lines) for (const [itemId, q] of l.stock) back.set(itemId, (back.get(itemId) ?? 0) + q);
    for (const itemId of [...back.keys()].sort((a, b) => a - b)) {
      await repo.giveItemStock(tx, itemId, back.get(itemId) ?? 0);
    }
  }

  /** The shop moves an order on: accept → deliver → complete (the brand is paid), or cancels it with a reason. */
  async act(actor: Actor, id: number, action: TakeoutAction, reason?: string): Promise<TakeoutOrder> {
    const merchantId = tenantOf(actor);
    if (action === "cancel") {
      if (!reason) throw invalid("takeout.reasonRequired", "reason");
      return this.cancel(id, { by: "shop", merchantId, userId: actor.userId }, reason, [
        "to_be_accepted",
        "accepted",
        "delivering",
      ]);
    }
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await repo.lockOrder(tx, id);
      if (!o || o.merchant_id !== merchantId) throw notFound("takeout.orderNotFound");
      const from = { accept: "to_be_accepted", deliver: "accepted", complete: "delivering" }[action];
      if (o.state !== from) throw conflict("takeout.orderState");
      if (action === "accept") await repo.setOrder(tx, o.id, { state: "accepted", acceptedAt: now });
      if (action === "deliver") await repo.setOrder(tx, o.id, { state: "delivering", deliveringAt: now });
      if (action === "complete") {
        await post(tx, {
          idempotencyKey: `takeout:settle:${o.id}`,
          kind: "takeout_sale",
          currency: o.currency,
          reason: o.order_no,
          subject: { type: "takeout_order", id: o.id },
          createdBy: actor.userId,
          postings: [
            { account: moneyAccounts(o.sandbox).escrow, amount: -o.total },
            { account: moneyAccounts(o.sandbox).income(o.merchant_id), amount: o.total },
          ],
        });
        await repo.setOrder(tx, o.id, { state: "completed", completedAt: now });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: `takeout.order.${action}`,
        subjectType: "takeout_order",
        subjectId: o.id,
      });
      return repo.orderOf(tx, o.id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  async shopOrders(
    actor: Actor,
    q: { page: number; pageSize: number; state?: repo.OrderRow["state"] | undefined; afterId?: number | undefined },
  ): Promise<Page<TakeoutOrder>> {
    const { rows, total } = await repo.orderPage(this.db, {
      merchantId: tenantOf(actor),
      state: q.state,
      afterId: q.afterId,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      list: await Promise.all(rows.map((r) => this.presentOrder(r))),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
  async shopOrder(actor: Actor, id: number): Promise<TakeoutOrder> {
    const o = await repo.orderOf(this.db, id);
    if (!o || o.merchant_id !== tenantOf(actor)) throw notFound("takeout.orderNotFound");
    return this.presentOrder(o);
  }
  async customerOrders(customerId: number, q: { page: number; pageSize: number }): Promise<Page<TakeoutOrder>> {
    const { rows, total } = await repo.orderPage(this.db, {
      customerId,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      list: await Promise.all(rows.map((r) => this.presentOrder(r))),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
  async customerOrder(customerId: number, id: number): Promise<TakeoutOrder> {
    const o = await repo.orderOf(this.db, id);
    if (!o || o.customer_id !== customerId) throw notFound("takeout.orderNotFound");
    return this.presentOrder(o);
  }

  /** Unpaid orders close after UNPAID_CLOSE_MINUTES and give their stock back. */
  async closeUnpaid(limit = 200): Promise<number> {
    let n = 0;
    for (const o of await repo.unpaidBefore(
      this.db,
      new Date(this.now().getTime() - UNPAID_CLOSE_MINUTES * 60_000),
      limit,
    )) {
      try {
        await this.cancel(o.id, { by: "system" }, "unpaid timeout", ["pending_payment"]);
        n++;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    return n;
  }

  private async presentOrder(o: repo.OrderRow): Promise<TakeoutOrder> {
    const shop = await repo.shopOf(this.db, o.merchant_id);
    const m = (amount: number) => ({ amount, currency: o.currency });
    return {
      id: String(o.id),
      orderNo: o.order_no,
      merchantId: String(o.merchant_id),
      shopName: shop?.name ?? "",
      state: o.state,
      lines: o.lines.map((l) => ({
        kind: l.kind,
        id: String(l.id),
        name: l.name,
        options: l.options,
        unitPrice: m(l.unitPrice),
        quantity: l.quantity,
        amount: m(l.amount),
      })),
      goodsAmount: m(o.goods_amount),
      packingFee: m(o.packing_fee),
      deliveryFee: m(o.delivery_fee),
      total: m(o.total),
      refunded: m(o.refunded),
      contactName: o.contact_name,
      contactPhone: o.contact_phone,
      address: o.address,
      tableware: o.tableware,
      scheduledAt: iso(o.scheduled_at),
      remark: o.remark,
      cancelReason: o.cancel_reason,
      cancelledBy: o.cancelled_by,
      createdAt: new Date(o.created_at).toISOString(),
      paidAt: iso(o.paid_at),
      acceptedAt: iso(o.accepted_at),
      deliveringAt: iso(o.delivering_at),
      completedAt: iso(o.completed_at),
      cancelledAt: iso(o.cancelled_at),
    };
  }
}

function presentItem(i: repo.ItemRow, currency: "CNY" | "USD" | "HKD"): TakeoutItem {
  return {
    id: String(i.id),
    typeId: i.type_id === null ? null : String(i.type_id),
    name: i.name,
    description: i.description,
    image: i.image,
    price: { amount: i.price, currency },
    stock: i.stock,
    sold: i.sold,
    options: i.options,
    onSale: i.on_sale,
    sort: i.sort,
  };
}

function presentPackage(p: repo.PackageRow, items: repo.ItemRow[], currency: "CNY" | "USD" | "HKD"): TakeoutPackage {
  const names = new Map(items.map((i) => [i.id, i.name]));
  return {
    id: String(p.id),
    name: p.name,
    description: p.description,
    price: { amount: p.price, currency },
    items: p.items.map((i) => ({ itemId: String(i.itemId), name: names.get(i.itemId) ?? "", quantity: i.quantity })),
    onSale: p.on_sale,
    sort: p.sort,
  };
}
