import { type Aftersale, type AfterSaleAction, type Page } from "@tessera/contracts";
import type { aftersaleReq } from "@tessera/contracts";
import type { z } from "zod";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { conflict, invalid } from "../../platform/http/errors";
import { post } from "../ledger";
import { merchantNames } from "../merchants";
import * as aftersalesRepo from "./aftersales.repo";
import * as ordersRepo from "./orders.repo";
import { iso, notFoundAftersale, notFoundOrder } from "./presenter";
import type { CommerceDeps } from "./service";
import * as shippingRepo from "./shipping.repo";
import { pageWindow } from "../../db/paginate";

type AftersaleInput = z.output<typeof aftersaleReq>;

const yuan = (minor: number) => (minor / 100).toFixed(2);

/**
 * After-sales (purchaser applies, brand disposes): refund only, or return and refund with the goods sent
 * back; the refund back to SUP once per case (`commerce:aftersale:<id>`, from escrow before settlement,
 * from the brand's income after).
 */
export class AftersalesService {
  constructor(private readonly deps: CommerceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  /**
   * The purchaser applies for one order line: refund only, or return and refund (after shipping). At most
   * the line's refundable amount; one case per line (a declined or cancelled one may be followed by another).
   */
  async applyAftersale(actor: Actor, req: AftersaleInput): Promise<Aftersale> {
    const purchaserId = tenantOf(actor);
    const replay = await aftersalesRepo.aftersaleByRequestKey(this.db, purchaserId, req.requestKey);
    if (replay) return this.presentAftersale(replay.id);
    const now = this.now();
    const id = await withTx(this.db, async (tx) => {
      const item = await ordersRepo.lockItem(tx, Number(req.orderItemId));
      const o = item ? await ordersRepo.lockOrder(tx, item.order_id) : undefined;
      if (!item || !o || o.purchaser_id !== purchaserId) throw notFoundOrder();
      if (o.state === "to_pay" || o.state === "closed") throw conflict("commerce.afterSaleNotAllowed");
      if (req.way === "return_and_refund" && o.state === "to_ship") {
        throw invalid("commerce.returnNeedsShipment", "way");
      }
      if (await aftersalesRepo.liveAftersaleOfItem(tx, item.id)) throw conflict("commerce.afterSaleExists");
      if (req.quantity > item.quantity - item.returned_qty) throw invalid("commerce.quantityTooHigh", "quantity");
      const refundable = await refundCap(tx, o, item, req.quantity);
      if (req.amount > refundable) {
        throw invalid("commerce.refundOverUnits", "amount", { max: yuan(refundable), quantity: req.quantity });
      }
      let created: number | null;
      try {
        created = await aftersalesRepo.insertAftersale(tx, {
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
      if (created === null) {
        return (await aftersalesRepo.aftersaleByRequestKey(tx, purchaserId, req.requestKey))?.id ?? null;
      }
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
      const a = await aftersalesRepo.lockAftersale(tx, id);
      if (!a || a.brand_id !== brandId) throw notFoundAftersale();
      const expected = action === "agree" || action === "disagree" ? "apply" : "buyer_delivery";
      if (a.state !== expected) throw conflict("commerce.afterSaleState");
      if ((action === "disagree" || action === "refuse") && !reason) throw invalid("commerce.reasonEmpty", "reason");
      // The buyer is shown where to send the goods: agreeing to a return names the address.
      if (action === "agree" && a.way === "return_and_refund" && !returnAddress) {
        throw invalid("commerce.returnAddressRequired", "returnAddress");
      }
      if (action === "disagree") {
        await aftersalesRepo.setAftersale(tx, id, { state: "seller_disagree", sellerReason: reason ?? "", now });
      } else if (action === "refuse") {
        await aftersalesRepo.setAftersale(tx, id, { state: "seller_refuse", sellerReason: reason ?? "", now });
      } else if (action === "agree" && a.way === "return_and_refund") {
        await aftersalesRepo.setAftersale(tx, id, {
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
  private async refund(tx: Tx, a: aftersalesRepo.AftersaleRow, userId: number, now: Date): Promise<void> {
    const o = await ordersRepo.lockOrder(tx, a.order_id);
    const item = await ordersRepo.lockItem(tx, a.order_item_id);
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
    await ordersRepo.refundItem(
      tx,
      item.id,
      Math.min(a.amount, item.amount - item.refunded),
      goodsBack ? a.quantity : 0,
    );
    if (goodsBack) await ordersRepo.giveStock(tx, item.sku_id, a.quantity);
    const fullyRefunded = o.refunded_amount + a.amount >= o.pay_amount;
    await ordersRepo.setOrder(tx, o.id, {
      refundedDelta: a.amount,
      ...(fullyRefunded &&
        o.state !== "completed" && { state: "closed", closedAt: now, closeReason: "after-sales refund" }),
      now,
    });
    await aftersalesRepo.setAftersale(tx, a.id, { state: "complete", refundedAt: now, now });
  }

  /** The purchaser sends the goods back with a waybill after the brand agreed. */
  async shipBack(actor: Actor, id: number, req: { companyCode: string; waybillNo: string }): Promise<Aftersale> {
    const purchaserId = tenantOf(actor);
    if (!(await shippingRepo.companyOf(this.db, req.companyCode))) {
      throw invalid("commerce.companyUnknown", "companyCode");
    }
    await withTx(this.db, async (tx) => {
      const a = await aftersalesRepo.lockAftersale(tx, id);
      if (!a || a.purchaser_id !== purchaserId) throw notFoundAftersale();
      if (a.state !== "seller_agree") throw conflict("commerce.afterSaleState");
      await aftersalesRepo.setAftersale(tx, id, {
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
      const a = await aftersalesRepo.lockAftersale(tx, id);
      if (!a || a.purchaser_id !== purchaserId) throw notFoundAftersale();
      if (a.state !== "apply" && a.state !== "seller_agree") throw conflict("commerce.afterSaleState");
      await aftersalesRepo.setAftersale(tx, id, { state: "buyer_cancel", now: this.now() });
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
    q: {
      page: number;
      pageSize: number;
      state?: aftersalesRepo.AftersaleRow["state"] | undefined;
      orderNo?: string | undefined;
    },
  ): Promise<Page<Aftersale>> {
    const { rows, total } = await aftersalesRepo.aftersalePage(this.db, {
      side,
      merchantId: tenantOf(actor),
      state: q.state,
      orderNo: q.orderNo,
      ...pageWindow(q),
    });
    return { list: await this.presentAftersales(rows), total, page: q.page, pageSize: q.pageSize };
  }

  private async presentAftersale(id: number): Promise<Aftersale> {
    const row = await aftersalesRepo.aftersaleWithOrderNo(this.db, id);
    const [p] = row ? await this.presentAftersales([row]) : [];
    if (!p) throw notFoundAftersale();
    return p;
  }

  private async presentAftersales(rows: aftersalesRepo.AftersaleListRow[]): Promise<Aftersale[]> {
    const items = new Map(
      (
        await aftersalesRepo.itemsById(
          this.db,
          rows.map((r) => r.order_item_id),
        )
      ).map((i) => [i.id, i]),
    );
    const names = await merchantNames(
      this.db,
      rows.flatMap((r) => [r.purchaser_id, r.brand_id]),
    );
    const companies = await shippingRepo.companyNames(
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

/**
 * The most an after-sales case may refund (issue 37): what was paid for the units it concerns, their share
 * of the line's paid amount (the order's paid goods amount spread over its lines by price, so a discount
 * is shared; the line's last units take the rounding remainder), plus the freight only when these are the
 * last units of the whole order still out (freight is refunded when everything comes back), and never more
 * than the order still holds. Under the order's and the line's locks.
 */
async function refundCap(tx: Tx, o: ordersRepo.OrderRow, item: ordersRepo.ItemRow, quantity: number): Promise<number> {
  const lines = await ordersRepo.itemsOfOrder(tx, o.id);
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
