import type { Lang, MallBagCode, MallOrder, Page } from "@tessera/contracts";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { conflict } from "../../platform/http/errors";
import { moneyAccounts } from "../../platform/adapters/payments";
import { post } from "../ledger";
import { takeBackHandedOnCodes } from "../purchasing";
import { creditCard, customerIdByPhone, phonesOf, type Customer } from "../onecard";
import { sealedCodes } from "../supply";
import * as orders from "./orders.repo";
import { presentOrders } from "./presenter";
import { buyer, deliveryExpiry, iso, money, notFound, type MallContext, type MallDeps, type OrderRow } from "./shared";
import type { StorefrontService } from "./storefront.service";

/**
 * Orders after the checkout: the customer's order list and card-bag codes, the merchant's orders
 * (EquityOrder), refunds (back to the card or through the payments seam, the codes taken back) and the
 * mall's members.
 */
export class OrdersService {
  constructor(
    private readonly deps: MallDeps,
    private readonly store: StorefrontService,
  ) {}
  private now(): Date {
    return this.deps.clock.now();
  }

  private present(rows: OrderRow[], reveal: boolean, lang: Lang): Promise<MallOrder[]> {
    return presentOrders(this.deps.db, this.deps.keys, rows, reveal, lang);
  }

  /** The card bag's mall codes: every code delivered to the customer, in any mall, not refunded (masked). */
  async customerCodes(customer: Customer): Promise<MallBagCode[]> {
    const rows = await orders.customerCodeRows(this.deps.db, customer.id);
    const codes = new Map(
      (
        await sealedCodes(
          this.deps.db,
          rows.flatMap((r) => (r.card_id === null ? [] : [r.card_id])),
        )
      ).map((c) => [c.id, c]),
    );
    const names = new Map<string, string>();
    for (const appId of new Set(rows.map((r) => r.app_id))) {
      names.set(
        appId,
        ((await this.store.releasedAppearance(appId)) ?? (await this.deps.appearance(appId, "beta")))?.name ?? appId,
      );
    }
    return rows.map((r) => {
      const c = r.card_id === null ? undefined : codes.get(r.card_id);
      return {
        deliveryId: String(r.id),
        orderId: String(r.order_id),
        orderNo: r.order_no,
        appId: r.app_id,
        mallName: names.get(r.app_id) ?? r.app_id,
        name: r.name,
        cardNumber: c?.number_mask ?? "",
        expiresAt: deliveryExpiry(r.expires_at, c),
        usedAt: c?.redeemed_at ? iso(c.redeemed_at) : null,
        boughtAt: iso(r.created_at),
      };
    });
  }

  async customerOrders(
    m: MallContext,
    customer: Customer,
    q: { page: number; pageSize: number },
    lang: Lang,
  ): Promise<Page<MallOrder>> {
    await this.store.unlocked(m);
    const { rows, total } = await orders.customerOrdersPage(this.deps.db, m.appearance.merchantId, customer.id, q);
    // The list masks the codes; the order's page reveals them.
    return { list: await this.present(rows, false, lang), total, page: q.page, pageSize: q.pageSize };
  }

  /** EquityOrder: the merchant's mall orders (codes masked). */
  async orders(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      state?: MallOrder["state"] | undefined;
      orderNo?: string | undefined;
      phone?: string | undefined;
    },
    lang: Lang,
  ): Promise<Page<MallOrder>> {
    const merchantId = tenantOf(actor);
    const customerId = q.phone ? ((await customerIdByPhone(this.deps.db, q.phone)) ?? 0) : undefined;
    const { rows, total } = await orders.ordersPage(this.deps.db, merchantId, {
      page: q.page,
      pageSize: q.pageSize,
      state: q.state,
      orderNo: q.orderNo,
      customerId,
    });
    return { list: await this.present(rows, false, lang), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * Refunds an order in full, once: a wallet-paid one from the merchant's income back to the customer's
   * payment (ledger), a card-paid one back onto the card it was paid with (onecard's credit, reversing the
   * order's debit). A second request finds the order refunded and changes nothing.
   */
  async refund(actor: Actor, id: number, reason: string, lang: Lang, requestKey?: string): Promise<MallOrder> {
    const merchantId = tenantOf(actor);
    const now = this.now();
    await withTx(this.deps.db, async (tx) => {
      const o = await orders.lockOrder(tx, merchantId, id);
      if (!o) throw notFound("mall.orderNotFound");
      if (o.state === "refunded" && requestKey !== undefined && o.refund_key === requestKey) return;
      if (o.state === "refunded" || o.state === "delivering") throw conflict("mall.orderState");
      // The codes the refund pays back are taken back in its transaction (issue 37): voided under the lock a
      // store redemption takes, so a refunded code is never served; escrowed vouchers' money returns to the
      // merchant. A code already redeemed was served: its order is not refunded.
      const delivered = await orders.deliveredCodes(tx, o.id);
      const cardIds = delivered.flatMap((d) => (d.card_id === null ? [] : [Number(d.card_id)]));
      const takenBack = await takeBackHandedOnCodes(
        tx,
        { purchaserId: merchantId, cardIds, reason: `${o.order_no} ${reason}`, actorUserId: actor.userId },
        now,
      );
      if (takenBack.redeemed.length > 0) throw conflict("mall.codeRedeemed");
      // What codes that expired unused already paid back (expired-codes.ts) stays paid: the rest goes back.
      const rest = o.amount - o.refunded;
      if (rest <= 0) throw conflict("mall.orderState");
      if (o.pay_method === "card") {
        if (o.card_id === null) throw conflict("mall.orderState");
        await creditCard(
          tx,
          {
            cardId: o.card_id,
            amount: rest,
            requestKey: `mall:refund:${o.id}`,
            debitKey: `mall:${o.id}`,
            note: `${o.order_no} ${reason}`.slice(0, 100),
          },
          now,
        );
      } else {
        const money = moneyAccounts(o.sandbox);
        const back = await this.deps.payments.refund(
          tx,
          { paymentNo: o.order_no, refundNo: `${o.order_no}R`, amount: rest },
          now,
        );
        if (back.state === "failed" && o.sandbox) throw conflict("payments.refundFailed");
        await post(tx, {
          idempotencyKey: `mall:refund:${o.id}`,
          kind: "refund",
          currency: o.currency,
          reason: `${o.order_no} ${reason}`.slice(0, 200),
          subject: { type: "mall_order", id: o.id },
          createdBy: actor.userId,
          postings: [
            { account: money.income(merchantId), amount: -rest },
            { account: money.clearing, amount: rest },
          ],
        });
      }
      await orders.markRefunded(tx, o.id, { reason, requestKey: requestKey ?? null, now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "mall.order.refund",
        subjectType: "mall_order",
        subjectId: o.id,
        detail: { amount: rest, reason, payMethod: o.pay_method },
      });
    });
    const row = await orders.orderRow(this.deps.db, id);
    const [o] = await this.present([row], false, lang);
    if (!o) throw notFound("mall.orderNotFound");
    return o;
  }

  /** MallMember / ShopMember: customers who came to the merchant's mall, with their orders. */
  async members(actor: Actor, q: { page: number; pageSize: number; phone?: string | undefined }) {
    const merchantId = tenantOf(actor);
    const customerId = q.phone ? ((await customerIdByPhone(this.deps.db, q.phone)) ?? 0) : undefined;
    const { rows, total } = await orders.membersPage(this.deps.db, merchantId, {
      page: q.page,
      pageSize: q.pageSize,
      customerId,
    });
    const me = await buyer(this.deps.db, merchantId);
    const phones = new Map(
      (
        await phonesOf(
          this.deps.db,
          rows.map((r) => r.customer_id),
        )
      ).map((p) => [p.id, p.phone]),
    );
    return {
      list: rows.map((r) => ({
        customerId: String(r.customer_id),
        phone: phones.get(r.customer_id) ?? "",
        orders: Number(r.orders ?? 0),
        spent: money(Number(r.spent ?? 0), me.currency),
        firstSeenAt: iso(r.first_seen_at),
        lastSeenAt: iso(r.last_seen_at),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
