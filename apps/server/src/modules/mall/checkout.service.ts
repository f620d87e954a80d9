import { createHash } from "node:crypto";
import {
  CODE,
  topUpAccountProblem,
  type CheckoutReq,
  type Lang,
  type MallOrder,
  type TopUpAccountType,
} from "@tessera/contracts";
import { sql } from "kysely";
import { isUniqueViolation, withTx, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { moneyAccounts } from "../../platform/adapters/payments";
import { postingPart } from "../ledger";
import { cardOwner, type Customer } from "../onecard";
import { buyerStockUpTo, takeBuyerCodes } from "../supply";
import * as checkout from "./checkout.repo";
import { presentOrders, shapeOrders } from "./presenter";
import * as repo from "./repo";
import {
  deliveryOf,
  notFound,
  type DeliveryRow,
  type MallContext,
  type MallDeps,
  type OrderRow,
  type SealedCode,
} from "./shared";
import type { StorefrontService } from "./storefront.service";

/** Thrown inside the order's transaction when another order took the codes meanwhile: roll back and buy again. */
class Shortage extends Error {}

interface Unit {
  selfId: number;
  goodsId: number;
  name: string;
  delivery: "code" | "topup";
  /** What the top-up account must be (the goods' account type). */
  accountType: TopUpAccountType;
  count: number;
  expiresDays: number | null;
  /** What each of the `count` units costs the customer (a gift pack's price spread over its units). */
  prices: number[];
}

/**
 * The customer's checkout: the cart priced from the merchant's goods and gift bags, the order paid (by
 * one-card card, or through the payments seam with its ledger movement) and delivered (codes from the
 * merchant's stock, bought when short; top-ups ordered from the supplier and followed up), and the
 * customer's own order read back.
 */
export class CheckoutService {
  constructor(
    private readonly deps: MallDeps,
    private readonly store: StorefrontService,
  ) {}
  private now(): Date {
    return this.deps.clock.now();
  }

  private async units(merchantId: number, lines: CheckoutReq["lines"], now: Date) {
    const selfIds = new Set<number>();
    const bagIds = new Set<number>();
    for (const l of lines) (l.kind === "goods" ? selfIds : bagIds).add(Number(l.id));
    const bags = bagIds.size ? await checkout.bagsOnSale(this.deps.db, merchantId, [...bagIds]) : [];
    if (bags.length !== bagIds.size) throw notFound("mall.bagNotFound");
    const bagItems = bags.length
      ? await checkout.bagItems(
          this.deps.db,
          bags.map((b) => b.id),
        )
      : [];
    for (const i of bagItems) selfIds.add(i.self_goods_id);
    const selves = selfIds.size ? await checkout.selfGoodsByIds(this.deps.db, merchantId, [...selfIds]) : [];
    const selfById = new Map(selves.map((s) => [s.id, s]));
    const goods = await this.store.goodsOf(selves.map((s) => s.goods_id));
    const units: Unit[] = [];
    const orderLines: { kind: "goods" | "bag"; refId: number; name: string; quantity: number; unitPrice: number }[] =
      [];
    const currencies = new Set<"CNY" | "USD" | "HKD">();
    const addUnit = (selfId: number, count: number, expiresDays: number | null, prices: number[]) => {
      const s = selfById.get(selfId);
      const g = s && goods.get(s.goods_id);
      const delivery = g && deliveryOf(g.businessType);
      if (!s || !g || !delivery) throw notFound("mall.goodsNotFound");
      units.push({
        selfId,
        goodsId: s.goods_id,
        name: s.name,
        delivery,
        accountType: g.topUpAccountType,
        count,
        expiresDays,
        prices,
      });
    };
    for (const l of lines) {
      if (l.kind === "goods") {
        const s = selfById.get(Number(l.id));
        if (!s || !s.on_sale) throw conflict("mall.goodsOffSale", "lines");
        addUnit(
          s.id,
          l.quantity,
          null,
          Array.from({ length: l.quantity }, () => s.price),
        );
        orderLines.push({ kind: "goods", refId: s.id, name: s.name, quantity: l.quantity, unitPrice: s.price });
        currencies.add(s.currency);
      } else {
        const b = bags.find((x) => x.id === Number(l.id));
        if (!b) throw notFound("mall.bagNotFound");
        // The pack's price spread over its units, the last taking the remainder.
        const items = bagItems.filter((x) => x.bag_id === b.id);
        const count = items.reduce((a, i) => a + i.quantity * l.quantity, 0);
        const total = b.price * l.quantity;
        const each = count > 0 ? Math.floor(total / count) : 0;
        const prices = Array.from({ length: count }, (_, k) => (k === count - 1 ? total - each * (count - 1) : each));
        for (const i of items) {
          addUnit(i.self_goods_id, i.quantity * l.quantity, b.valid_days, prices.splice(0, i.quantity * l.quantity));
        }
        orderLines.push({ kind: "bag", refId: b.id, name: b.name, quantity: l.quantity, unitPrice: b.price });
        currencies.add(b.currency);
      }
    }
    if (currencies.size !== 1) throw invalid("mall.currencyMismatch", "lines");
    const amount = orderLines.reduce((a, l) => a + l.unitPrice * l.quantity, 0);
    void now;
    return { units, orderLines, amount, currency: [...currencies][0] ?? "CNY" };
  }

  /**
   * Pays an order and delivers it. Codes come from the merchant's own stock; what it lacks is bought from
   * the supplier first ("smart purchase", purchasing's order path, numbered from the request key so a retry
   * buys once); then one transaction takes the payment, the gift packs' stock and the codes (locked,
   * skipped by others, unique per code). Top-ups are ordered from the supplier after the payment, to the
   * account the customer named. The same request key returns the first order.
   */
  async checkout(m: MallContext, customer: Customer, req: CheckoutReq, lang: Lang): Promise<MallOrder> {
    await this.store.unlocked(m);
    const a = m.appearance;
    const merchantId = a.merchantId;
    const first = await checkout.orderIdByKey(this.deps.db, customer.id, req.requestKey);
    if (first) return this.customerOrder(m, customer, first.id, lang);
    const now = this.now();
    const { units, orderLines, amount, currency } = await this.units(merchantId, req.lines, now);
    const needsAccount = units.some((u) => u.delivery === "topup");
    if (needsAccount && !req.topUpAccount) throw invalid("mall.topUpAccountEmpty", "topUpAccount");
    // The account as every top-up's goods requires it (a mobile number, a QQ number, ...), before the customer pays.
    for (const u of units) {
      const problem = u.delivery === "topup" ? topUpAccountProblem(u.accountType, req.topUpAccount ?? "") : null;
      if (problem) throw invalid(problem, "topUpAccount");
    }
    if (req.payMethod === "card") {
      if (!req.cardId) throw invalid("mall.cardRequired", "cardId");
      const card = await cardOwner(this.deps.db, Number(req.cardId));
      if (!card || card.customer_id !== customer.id || card.brander_id !== merchantId || card.currency !== currency) {
        throw conflict("mall.cardNotUsable", "cardId");
      }
      if (card.balance - card.held < amount) throw conflict("onecard.insufficient", "cardId");
    }
    const codeNeeds = new Map<number, number>();
    for (const u of units) {
      if (u.delivery === "code") codeNeeds.set(u.goodsId, (codeNeeds.get(u.goodsId) ?? 0) + u.count);
    }
    const tag = createHash("sha256").update(`${customer.id}:${req.requestKey}`).digest("hex").slice(0, 16);
    // The purchase orders placed for this checkout, by goods: their codes are this order's first.
    const boughtFor = new Map<number, string[]>();
    // The smart purchases' holds (checkout.repo): this checkout's codes until it hands them on.
    const holds: string[] = [];
    try {
      for (let attempt = 1; ; attempt++) {
        // First from the stock the merchant holds; once other orders took what it counted (a retry), every
        // code this order needs is bought for it (what is left over stays in the merchant's stock).
        // Codes another checkout bought for itself are neither counted nor taken (checkout.repo's holds).
        const available = checkout.notHeldForOthers(merchantId, this.now());
        const stock =
          attempt === 1
            ? await buyerStockUpTo(this.deps.db, merchantId, codeNeeds, available)
            : new Map<number, number>();
        for (const [goodsId, need] of codeNeeds) {
          const short = need - (stock.get(goodsId) ?? 0);
          if (short > 0) {
            // Held before it is placed: its codes are visible to other checkouts from the purchase's commit.
            const orderNo = `MALL${tag}A${attempt}G${goodsId}`;
            await checkout.holdSmartBuy(this.deps.db, merchantId, orderNo, this.now());
            holds.push(orderNo);
            const po = await this.deps.purchasing.place(merchantId, {
              goodsId: String(goodsId),
              quantity: short,
              orderNo,
            });
            await checkout.nameSmartBuy(this.deps.db, orderNo, po.id);
            boughtFor.set(goodsId, [...(boughtFor.get(goodsId) ?? []), po.id]);
          }
        }
        const placed = await withTx(
          this.deps.db,
          async (
            tx,
          ): Promise<{ first: number } | { order: OrderRow; deliveries: DeliveryRow[]; codes: SealedCode[] }> => {
            // The order as it ends (delivered, or delivering while its top-ups are ordered); the same request
            // key sent twice at once: the second waits for the first here and answers with it.
            const o = await checkout.insertOrder(tx, merchantId, {
              order_no: `M${tag.toUpperCase()}${now.getTime().toString(36).toUpperCase()}`,
              app_id: a.appId,
              customer_id: customer.id,
              state: needsAccount ? "delivering" : "delivered",
              pay_method: req.payMethod,
              card_id: req.payMethod === "card" ? Number(req.cardId) : null,
              amount,
              currency,
              lines: JSON.stringify(orderLines),
              top_up_account: needsAccount ? (req.topUpAccount ?? null) : null,
              request_key: req.requestKey,
              created_at: now,
              delivered_at: needsAccount ? null : now,
            });
            if (!o) {
              const again = await checkout.orderIdByKeyOrThrow(tx, customer.id, req.requestKey);
              return { first: again.id };
            }
            for (const l of orderLines.filter((x) => x.kind === "bag").sort((x, y) => x.refId - y.refId)) {
              if (!(await checkout.sellBag(tx, l.refId, l.quantity))) {
                throw new AppError(CODE.CONFLICT, "mall.bagSoldOut", { name: l.name }, "lines");
              }
            }
            const byGoods = new Map<number, SealedCode[]>();
            const codes: SealedCode[] = [];
            for (const [goodsId, need] of [...codeNeeds].sort((x, y) => x[0] - y[0])) {
              const taken = await takeBuyerCodes(tx, merchantId, goodsId, need, now, boughtFor.get(goodsId), available);
              if (taken.length < need) throw new Shortage("codes taken meanwhile");
              byGoods.set(goodsId, [...taken]);
              codes.push(...taken);
            }
            const rows = [];
            for (const u of units) {
              const expires = u.expiresDays === null ? null : new Date(now.getTime() + u.expiresDays * 86_400_000);
              for (let i = 0; i < u.count; i++) {
                if (u.delivery === "code") {
                  const code = byGoods.get(u.goodsId)?.shift();
                  rows.push({
                    order_id: o.id,
                    goods_id: u.goodsId,
                    name: u.name,
                    kind: "code" as const,
                    state: "success" as const,
                    card_id: code?.id ?? null,
                    purchase_no: null,
                    account: null,
                    expires_at: expires,
                    price: u.prices[i] ?? null,
                    created_at: now,
                  });
                } else {
                  rows.push({
                    order_id: o.id,
                    goods_id: u.goodsId,
                    name: u.name,
                    kind: "topup" as const,
                    state: "processing" as const,
                    card_id: null,
                    purchase_no: null,
                    account: req.topUpAccount ?? null,
                    expires_at: expires,
                    price: u.prices[i] ?? null,
                    created_at: now,
                  });
                }
              }
            }
            // With them the customer seen in this mall and, when the answer shows the codes in full to their
            // buyer (an order delivered now), the reveal on record as the order's page writes it.
            const deliveries = await repo.insertDeliveries(
              tx,
              rows,
              { merchantId, customerId: customer.id, now },
              !needsAccount && codes.length > 0 ? { orderId: o.id, customerId: customer.id } : null,
            );
            // The payment last: its ledger rows (bank clearing, the merchant's income) are the hot ones, held until commit.
            const description = orderLines.map((l) => l.name).join(", ");
            if (req.payMethod === "card") {
              await this.deps.debitCard(tx, Number(req.cardId), amount, `mall:${o.id}`, description.slice(0, 100));
            } else {
              // Money is credited only on the payments seam's confirmation; test money goes to the sandbox accounts.
              const paid = await this.deps.payments.create(
                tx,
                {
                  merchantId,
                  subject: { type: "mall_order", id: o.id },
                  paymentNo: o.order_no,
                  amount,
                  currency,
                  description,
                  payer: customer.phone,
                  appId: a.appId,
                },
                now,
              );
              if (paid.state !== "paid") throw conflict("payments.notEnabled");
              if (paid.sandbox) {
                await checkout.markSandbox(tx, o.id);
              }
              await this.income(tx, {
                id: o.id,
                orderNo: o.order_no,
                merchantId,
                amount,
                currency,
                description,
                sandbox: paid.sandbox,
              });
            }
            return { order: o, deliveries, codes };
          },
        ).catch(async (err: unknown) => {
          if (err instanceof Shortage) return err;
          // The same request sent twice at once, both past the key's check before either wrote (the order
          // number, made from the key, collided): the one that committed answers.
          if (isUniqueViolation(err)) {
            const first = await checkout.orderIdByKey(this.deps.db, customer.id, req.requestKey);
            if (first) return { first: first.id };
          }
          throw err;
        });
        if (placed instanceof Shortage) {
          // Another order took the codes bought for this one meanwhile: buy the shortfall again.
          if (attempt < 3) continue;
          throw conflict("mall.soldOut", "lines");
        }
        if ("first" in placed) return this.customerOrder(m, customer, placed.first, lang);
        if (needsAccount) {
          await this.topUps(placed.order.id);
          return this.customerOrder(m, customer, placed.order.id, lang);
        }
        // Delivered in the transaction: the answer is what it wrote, not read again.
        const [order] = shapeOrders(
          this.deps.keys,
          [placed.order],
          placed.deliveries,
          // Codes just delivered: none redeemed yet.
          placed.codes.map((c) => ({ ...c, redeemed_at: null })),
          new Map([[customer.id, customer.phone]]),
          true,
          lang,
        );
        if (!order) throw notFound("mall.orderNotFound");
        return order;
      }
    } finally {
      // Handed on, or left in the merchant's stock for any checkout: either way no longer this one's.
      await checkout.releaseSmartBuys(this.deps.db, holds);
    }
  }

  /**
   * A wallet payment's ledger movement (bank clearing to the merchant's income) in one statement, the
   * balance rows locked only from it to the commit. An account not used yet is created first and the
   * statement run again; a refused move (a balance that may not go negative) rolls the order back.
   */
  private async income(
    tx: Tx,
    p: {
      id: number;
      orderNo: string;
      merchantId: number;
      amount: number;
      currency: string;
      description: string;
      sandbox: boolean;
    },
  ): Promise<void> {
    const money = moneyAccounts(p.sandbox);
    const part = postingPart({
      idempotencyKey: `mall:pay:${p.id}`,
      kind: "mall_sale",
      currency: p.currency as "CNY" | "USD" | "HKD",
      reason: `${p.orderNo} ${p.description}`.slice(0, 200),
      subject: { type: "mall_order", id: p.id },
      postings: [
        { account: money.clearing, amount: -p.amount },
        { account: money.income(p.merchantId), amount: p.amount },
      ],
    });
    for (let attempt = 1; ; attempt++) {
      const r = await sql<{
        result: unknown;
      }>`WITH ${part.ctes(sql`SELECT 1`)} SELECT ${part.result} AS result`.execute(tx);
      const outcome = part.outcome(r.rows[0]?.result);
      if (typeof outcome !== "string") return;
      if (outcome === "notWritten" && attempt === 1) {
        await part.prepare(tx);
        continue;
      }
      throw new Error(`mall: the payment's ledger movement was not written (${outcome})`);
    }
  }

  /** Orders the top-ups of an order from the supplier (one purchase per unit, numbered by delivery). */
  async topUps(orderId: number): Promise<void> {
    const o = await checkout.orderMerchant(this.deps.db, orderId);
    const open = await checkout.openTopUps(this.deps.db, orderId);
    for (const d of open) {
      const orderNo = d.purchase_no ?? `MALLD${d.id}`;
      if (d.purchase_no === null) {
        await checkout.setPurchaseNo(this.deps.db, d.id, orderNo);
      }
      let state: "processing" | "success" | "failed";
      let reason: string | null;
      try {
        const po =
          (await this.deps.purchasing.find(o.merchant_id, orderNo)) ??
          (await this.deps.purchasing.place(o.merchant_id, {
            goodsId: String(d.goods_id),
            quantity: 1,
            topUpAccount: d.account ?? "",
            orderNo,
          }));
        state = po.state === "success" ? "success" : po.state === "failure" ? "failed" : "processing";
        reason = po.failReason;
      } catch (err) {
        if (!(err instanceof AppError) || err.code === CODE.INTERNAL) {
          this.deps.log.warn({ err, deliveryId: d.id }, "mall top-up not placed; the follow-up job tries again");
          continue;
        }
        state = "failed";
        reason = err.messageKey;
      }
      if (state !== "processing") {
        await checkout.endDelivery(this.deps.db, d.id, state);
      }
      if (state === "failed") {
        await checkout.setFailReason(this.deps.db, orderId, reason);
      }
    }
    const left = await checkout.deliveryStates(this.deps.db, orderId);
    const now = this.now();
    if (left.some((d) => d.state === "failed")) {
      await checkout.failDelivering(this.deps.db, orderId);
    } else if (left.every((d) => d.state === "success")) {
      await checkout.deliverDelivering(this.deps.db, orderId, now);
    }
  }

  /** The follow-up job: top-ups still processing. */
  async followUp(limit = 100): Promise<number> {
    const open = await checkout.deliveringOrders(this.deps.db, limit);
    for (const o of open) await this.topUps(o.id);
    return open.length;
  }

  /** The customer's own order in this mall, codes in full (one audit row per reveal). */
  async customerOrder(m: MallContext, customer: Customer, id: number, lang: Lang): Promise<MallOrder> {
    const find = () => checkout.customerOrderRow(this.deps.db, m.appearance.merchantId, customer.id, id);
    let row = await find();
    if (!row) throw notFound("mall.orderNotFound");
    if (row.state === "delivering") {
      await this.topUps(row.id);
      row = (await find()) ?? row;
    }
    const [o] = await presentOrders(this.deps.db, this.deps.keys, [row], true, lang);
    if (!o) throw notFound("mall.orderNotFound");
    if (o.deliveries.some((d) => d.cardSecret !== null)) {
      await audit(this.deps.db, {
        actorUserId: null,
        action: "mall.codes.reveal",
        subjectType: "mall_order",
        subjectId: row.id,
        detail: { customerId: customer.id },
      });
    }
    return o;
  }
}
