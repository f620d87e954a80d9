import { CODE, type Page, type RefundOrder, type RefundQuery, type RefundReq } from "@tessera/contracts";
import { isUniqueViolation, withTx, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { merchantOfActor, type MerchantRow } from "../merchants";
import { voidRefundedCards } from "../supply";
import { orderNotFound } from "./orders.service";
import * as ordersRepo from "./orders.repo";
import { postRefund } from "./refund-money";
import * as refundsRepo from "./refunds.repo";
import type { PurchasingDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/**
 * Refund orders: the purchaser asks to return unused codes of a card-secret order; the supplier accepts
 * (codes voided, the money back to the account that paid, once) or refuses; the refund lists and exports.
 */
export class RefundsService {
  constructor(private readonly deps: PurchasingDeps) {}

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /**
   * The purchaser asks to return unused codes of a successful card-secret order. The supplier decides;
   * nothing moves until then. At most what was bought, less what is already returned or asked for.
   */
  async requestRefund(actor: Actor, req: RefundReq): Promise<RefundOrder> {
    const me = await this.merchantOf(actor);
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const o = await ordersRepo.lockOrder(tx, Number(req.orderId));
        if (!o || o.purchaser_merchant_id !== me.id) throw orderNotFound();
        if (o.state !== "success" || o.top_up_account !== null) throw conflict("refund.notRefundable", "orderId");
        if ((await refundsRepo.refundedQuantity(tx, o.id)) + req.quantity > o.quantity) {
          throw invalid("refund.tooMany", "quantity");
        }
        const created = await refundsRepo.insertRefund(tx, {
          orderId: o.id,
          purchaserId: me.id,
          supplierId: o.supplier_merchant_id,
          quantity: req.quantity,
          amount: o.unit_price * req.quantity,
          currency: o.currency,
          reason: req.reason,
          state: "processing",
          requestedBy: actor.userId,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "refund.request",
          subjectType: "refund_order",
          subjectId: created,
          detail: { orderId: o.id, quantity: req.quantity },
        });
        return created;
      });
      return await this.presentRefund(id);
    } catch (err) {
      if (isUniqueViolation(err, "refund_orders_open")) throw conflict("refund.open", "orderId");
      throw err;
    }
  }

  /**
   * The supplier accepts (the codes are voided and the money returns to the purchaser's account that paid,
   * once) or refuses with a reason. When the supplier's income cannot cover it the refund is
   * "abnormal" and can be accepted again later.
   */
  async decideRefund(
    actor: Actor,
    id: number,
    decision: { approve: boolean; reason?: string | undefined },
  ): Promise<RefundOrder> {
    const me = await this.merchantOf(actor);
    if (!decision.approve && !decision.reason) throw invalid("funds.reasonEmpty", "reason");
    const now = this.deps.clock.now();
    const outcome = await withTx(this.deps.db, async (tx) => {
      const r = await refundsRepo.lockRefund(tx, id);
      if (!r || r.supplier_merchant_id !== me.id) throw new AppError(CODE.NOT_FOUND, "refund.notFound");
      if (r.state !== "processing" && r.state !== "abnormal") throw conflict("refund.settled");
      if (!decision.approve) {
        await refundsRepo.settleRefund(tx, id, {
          state: "failure",
          failReason: decision.reason ?? null,
          decidedBy: actor.userId,
          at: now,
        });
        return "refused" as const;
      }
      return this.settleRefund(tx, r, actor, now);
    }).catch(async (err: unknown) => {
      // The supplier's income could not cover it: record the refund as abnormal, nothing moved.
      if (err instanceof AppError && err.messageKey === "ledger.insufficientBalance") {
        await withTx(this.deps.db, (tx) =>
          refundsRepo.settleRefund(tx, id, {
            state: "abnormal",
            failReason: "insufficient supplier balance",
            decidedBy: actor.userId,
            at: null,
          }),
        );
        return "abnormal" as const;
      }
      throw err;
    });
    if (outcome === "abnormal") throw new AppError(CODE.CONFLICT, "refund.abnormal");
    return this.presentRefund(id);
  }

  private async settleRefund(tx: Tx, r: refundsRepo.RefundRow, actor: Actor, now: Date): Promise<"settled"> {
    const o = await ordersRepo.lockOrder(tx, r.order_id);
    if (!o) throw orderNotFound();
    const voided = await voidRefundedCards(
      tx,
      { goodsId: o.goods_id, orderId: String(o.id), buyerMerchantId: o.purchaser_merchant_id, quantity: r.quantity },
      now,
    );
    if (voided.length < r.quantity) throw conflict("refund.tooMany", "quantity");
    await postRefund(tx, o, r, actor.userId);
    await refundsRepo.settleRefund(tx, r.id, { state: "success", failReason: null, decidedBy: actor.userId, at: now });
    await audit(tx, {
      actorUserId: actor.userId,
      action: "refund.accept",
      subjectType: "refund_order",
      subjectId: r.id,
      detail: { cards: voided },
    });
    return "settled";
  }

  async refunds(actor: Actor, q: RefundQuery, side: "purchaser" | "supplier"): Promise<Page<RefundOrder>> {
    const me = await this.merchantOf(actor);
    const { rows, total } = await refundsRepo.refundPage(this.deps.db, {
      ...(side === "purchaser" ? { purchaserId: me.id } : { supplierId: me.id }),
      state: q.state,
      orderNo: q.orderNo,
      from: q.from,
      to: q.to,
      ...pageWindow(q),
    });
    const list: RefundOrder[] = [];
    for (const r of rows) list.push(await this.presentRefund(r.id));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  private async presentRefund(id: number): Promise<RefundOrder> {
    const r = await refundsRepo.findRefund(this.deps.db, id);
    const o = r ? await ordersRepo.findOrder(this.deps.db, r.order_id) : undefined;
    if (!r || !o) throw new AppError(CODE.NOT_FOUND, "refund.notFound");
    return {
      id: String(r.id),
      orderId: String(o.id),
      orderNo: o.order_no,
      goodsName: o.goods_name,
      purchaserId: String(r.purchaser_merchant_id),
      supplierId: String(r.supplier_merchant_id),
      quantity: r.quantity,
      amount: { amount: r.amount, currency: r.currency },
      orderAmount: { amount: o.amount, currency: o.currency },
      reason: r.reason,
      cause: r.cause,
      state: r.state,
      failReason: r.fail_reason,
      topUpAccount: o.top_up_account,
      createdAt: new Date(r.created_at).toISOString(),
      finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    };
  }

  async *refundBatches(actor: Actor, q: RefundQuery, side: "purchaser" | "supplier"): AsyncGenerator<RefundOrder[]> {
    for (let page = 1; ; page += 1) {
      const { list } = await this.refunds(actor, { ...q, page, pageSize: 1000 }, side);
      if (list.length > 0) yield list;
      if (list.length < 1000) return;
    }
  }
}
