import { randomInt } from "node:crypto";
import { CODE, type Page, type TakeoutAction, type TakeoutOrder, type takeoutOrderReq } from "@tessera/contracts";
import type { z } from "zod";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import {
  moneyAccounts,
  pendingAction,
  type PaymentChannel,
  type PaymentProviderName,
} from "../../platform/adapters/payments";
import { post } from "../ledger";
import { distanceM, insidePolygon, openAt } from "./delivery";
import * as ordersRepo from "./orders.repo";
import type { TakeoutDeps } from "./service";
import { notFound } from "./shop.service";
import * as shopRepo from "./shop.repo";
import type { LineCol } from "./tables";
import { iso } from "../../platform/present";
import { pageWindow } from "../../db/paginate";

type OrderReq = z.output<typeof takeoutOrderReq>;

export const UNPAID_CLOSE_MINUTES = 15;

/**
 * Takeout orders: customers' orders from the phone page (counted stock taken when placed, given back when
 * cancelled), their payment, the shop's order handling and the unpaid orders' closing. Money moves only
 * through the ledger, once per order and step.
 */
export class OrdersService {
  constructor(private readonly deps: TakeoutDeps) {}
  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  /**
   * A customer's order: the shop open now (or a scheduled time it is open at), the address in the delivery
   * area, every line available with its required options, the minimum reached, counted stock taken. Any
   * refusal changes nothing.
   */
  async placeOrder(customerId: number, req: OrderReq): Promise<TakeoutOrder> {
    const replay = await ordersRepo.orderByKey(this.db, customerId, req.requestKey);
    if (replay) return this.presentOrder(replay);
    const merchantId = Number(req.merchantId);
    const shop = await shopRepo.shopOf(this.db, merchantId);
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

    const items = new Map((await shopRepo.itemsOf(this.db, merchantId)).map((i) => [i.id, i]));
    const packages = new Map((await shopRepo.packagesOf(this.db, merchantId)).map((p) => [p.id, p]));
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
      const id = await ordersRepo.insertOrder(tx, {
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
      if (id === null) return ordersRepo.orderByKey(tx, customerId, req.requestKey);
      for (const itemId of [...take.keys()].sort((a, b) => a - b)) {
        if (!(await ordersRepo.takeItemStock(tx, itemId, take.get(itemId) ?? 0))) {
          throw new AppError(CODE.CONFLICT, "takeout.soldOut", { name: items.get(itemId)?.name ?? "" }, "lines");
        }
      }
      return ordersRepo.orderOf(tx, id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  /**
   * The customer pays through the payments seam; on the adapter's confirmation the money arrives (clearing
   * → order escrow, or their sandbox mirrors for test money) and the order goes to the shop. An
   * asynchronous adapter (WeChat Pay) answers `pending`: the order stays pending_payment with what the payer
   * does next (`payAction`), and the money arrives only with the provider's notification (`credit`).
   */
  async pay(
    customerId: number,
    id: number,
    channel?: PaymentChannel,
    payerIp?: string,
    provider?: PaymentProviderName,
    returnUrl?: string,
  ): Promise<TakeoutOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await ordersRepo.lockOrder(tx, id);
      if (!o || o.customer_id !== customerId) throw notFound("takeout.orderNotFound");
      if (o.state !== "pending_payment") throw conflict("takeout.orderState");
      const shop = await shopRepo.shopOf(tx, o.merchant_id);
      const paid = await this.deps.payments.create(
        tx,
        {
          merchantId: o.merchant_id,
          subject: { type: "takeout_order", id: o.id },
          paymentNo: o.order_no,
          amount: o.total,
          currency: o.currency,
          description: `${shop?.name ?? ""} ${o.order_no}`.trim(),
          payer: o.contact_phone,
          channel,
          payerIp,
          provider,
          returnUrl,
        },
        now,
      );
      if (paid.state === "paid") await this.credit(tx, o, paid.sandbox, now);
      return ordersRepo.orderOf(tx, o.id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  /**
   * The payment's money arrives: clearing → escrow once, and the order goes to the shop. From `pay` with a
   * synchronous adapter, or the provider's notification (the handler registered in index.ts); false when the
   * order no longer waits for it (closed meanwhile: the seam refunds the payment).
   */
  async credit(tx: Tx, o: ordersRepo.OrderRow, sandbox: boolean, now: Date): Promise<boolean> {
    if (o.state !== "pending_payment") return false;
    const money = moneyAccounts(sandbox);
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
    await ordersRepo.setOrder(tx, o.id, { state: "to_be_accepted", paidAt: now, sandbox });
    return true;
  }

  /** The seam's handler: a notification confirmed this order's payment. */
  async paidByNotice(tx: Tx, orderId: number, sandbox: boolean, now: Date): Promise<boolean> {
    const o = await ordersRepo.lockOrder(tx, orderId);
    return o ? this.credit(tx, o, sandbox, now) : false;
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
    from: ordersRepo.OrderRow["state"][],
  ): Promise<TakeoutOrder> {
    const now = this.now();
    const row = await withTx(this.db, async (tx) => {
      const o = await ordersRepo.lockOrder(tx, id);
      const mine =
        o &&
        (who.by === "customer"
          ? o.customer_id === who.customerId
          : who.by === "shop"
            ? o.merchant_id === who.merchantId
            : true);
      if (!o || !mine) throw notFound("takeout.orderNotFound");
      if (!from.includes(o.state)) throw conflict("takeout.orderState");
      // An unpaid order's pending payment is closed at the provider; one paid after this is refunded.
      if (o.state === "pending_payment") await this.deps.payments.close(tx, o.order_no);
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
      await ordersRepo.setOrder(tx, o.id, {
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
      return ordersRepo.orderOf(tx, o.id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  private async giveBack(tx: Tx, o: ordersRepo.OrderRow): Promise<void> {
    const back = new Map<number, number>();
    for (const l of o.lines) for (const [itemId, q] of l.stock) back.set(itemId, (back.get(itemId) ?? 0) + q);
    for (const itemId of [...back.keys()].sort((a, b) => a - b)) {
      await ordersRepo.giveItemStock(tx, itemId, back.get(itemId) ?? 0);
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
      const o = await ordersRepo.lockOrder(tx, id);
      if (!o || o.merchant_id !== merchantId) throw notFound("takeout.orderNotFound");
      const from = { accept: "to_be_accepted", deliver: "accepted", complete: "delivering" }[action];
      if (o.state !== from) throw conflict("takeout.orderState");
      if (action === "accept") await ordersRepo.setOrder(tx, o.id, { state: "accepted", acceptedAt: now });
      if (action === "deliver") await ordersRepo.setOrder(tx, o.id, { state: "delivering", deliveringAt: now });
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
        await ordersRepo.setOrder(tx, o.id, { state: "completed", completedAt: now });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: `takeout.order.${action}`,
        subjectType: "takeout_order",
        subjectId: o.id,
      });
      return ordersRepo.orderOf(tx, o.id);
    });
    if (!row) throw notFound("takeout.orderNotFound");
    return this.presentOrder(row);
  }

  async shopOrders(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      state?: ordersRepo.OrderRow["state"] | undefined;
      afterId?: number | undefined;
    },
  ): Promise<Page<TakeoutOrder>> {
    const { rows, total } = await ordersRepo.orderPage(this.db, {
      merchantId: tenantOf(actor),
      state: q.state,
      afterId: q.afterId,
      ...pageWindow(q),
    });
    return {
      list: await Promise.all(rows.map((r) => this.presentOrder(r))),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
  async shopOrder(actor: Actor, id: number): Promise<TakeoutOrder> {
    const o = await ordersRepo.orderOf(this.db, id);
    if (!o || o.merchant_id !== tenantOf(actor)) throw notFound("takeout.orderNotFound");
    return this.presentOrder(o);
  }
  async customerOrders(customerId: number, q: { page: number; pageSize: number }): Promise<Page<TakeoutOrder>> {
    const { rows, total } = await ordersRepo.orderPage(this.db, {
      customerId,
      ...pageWindow(q),
    });
    return {
      list: await Promise.all(rows.map((r) => this.presentOrder(r))),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
  async customerOrder(customerId: number, id: number): Promise<TakeoutOrder> {
    let o = await ordersRepo.orderOf(this.db, id);
    if (!o || o.customer_id !== customerId) throw notFound("takeout.orderNotFound");
    // The customer's poll of an unpaid order asks an asynchronous provider when its notification is late.
    if (o.state === "pending_payment" && this.deps.payments.sync) {
      await this.deps.payments.sync(this.db, o.order_no, this.now());
      o = (await ordersRepo.orderOf(this.db, id)) ?? o;
    }
    return this.presentOrder(o);
  }

  /** Unpaid orders close after UNPAID_CLOSE_MINUTES and give their stock back. */
  async closeUnpaid(limit = 200): Promise<number> {
    let n = 0;
    for (const o of await ordersRepo.unpaidBefore(
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

  private async presentOrder(o: ordersRepo.OrderRow): Promise<TakeoutOrder> {
    const shop = await shopRepo.shopOf(this.db, o.merchant_id);
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
      ...(o.state === "pending_payment" && { payAction: await pendingAction(this.db, o.order_no) }),
    };
  }
}
