import {
  CODE,
  isMessageKey,
  renderMessage,
  SELECTION_BUSINESS_TYPES,
  topUpAccountProblem,
  type Lang,
  type Merchandise,
  type MerchandiseQuery,
  type OcEquity,
  type OcOrder,
  type OrderReq,
  type Page,
  type PurchaseOrder,
} from "@tessera/contracts";
import { withTx, type Db, type Tx } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { CardKeys } from "../supply";
import { maskNo } from "./cardno";
import type { Customer } from "./customers.service";
import * as equity from "./equity.repo";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

/**
 * Equities paid with a card (`/client/rechargeEquity`). The customer picks a direct top-up goods that the
 * card's brand may buy and the account to top up; the card pays the goods' face value, and the brand buys
 * the goods through the purchasing path: its own purchase order, paid from its SUP at its price and
 * fulfilled by the supplier like any other order. The card's payment stands when that order succeeds;
 * when it fails (refused at once, or failed by the supplier later) the card is paid back. A job follows
 * the orders still processing and places again an order whose placement a crash interrupted: the order
 * number (`OCEQ` + our id) makes placing it twice one order.
 */
export interface EquityPurchasing {
  /** Direct top-up goods a merchant may buy, as its purchase lists show them. */
  offers(buyer: { id: number; version: "domestic" | "international" }, q: MerchandiseQuery): Promise<Page<Merchandise>>;
  goods(id: number): Promise<Merchandise | undefined>;
  /** Places (or finds again, by its number) the brand's purchase order. */
  place(branderId: number, req: OrderReq): Promise<PurchaseOrder>;
  find(branderId: number, orderNo: string): Promise<PurchaseOrder | undefined>;
}

export interface EquityDeps {
  db: Db;
  clock: Clock;
  keys: CardKeys;
  purchasing: EquityPurchasing;
  /** Debits a card under its lock, once per request key (the card service's rule: usable, never below what is held). */
  debit: OnecardDebit;
  log: { warn(obj: object, msg: string): void };
}
export type OnecardDebit = (
  tx: Tx,
  cardId: number,
  amount: number,
  kind: "redeem",
  requestKey: string,
  note: string,
) => Promise<unknown>;

const DIRECT = new Set<string>(SELECTION_BUSINESS_TYPES.direct);
/** An order still processing this long after it was recorded had its placement interrupted: place it again. */
const PLACE_AGAIN_AFTER_MS = 60_000;
const orderNoOf = (id: number) => `OCEQ${String(id).padStart(10, "0")}`;

export class EquityOrders {
  constructor(private readonly deps: EquityDeps) {}

  /** The equities a customer's card can pay for: its brand's buyable direct top-up goods in the card's currency. */
  async offers(
    customer: Customer,
    q: { page: number; pageSize: number; cardId: string; keyword?: string | undefined },
  ): Promise<Page<OcEquity>> {
    const card = await this.cardOf(customer, Number(q.cardId));
    const brand = await equity.brandOf(this.deps.db, card.brander_id);
    const page = await this.deps.purchasing.offers(
      { id: brand.id, version: brand.version },
      { page: q.page, pageSize: q.pageSize, type: "direct", keyword: q.keyword, sort: "recommend" },
    );
    return {
      list: page.list
        .filter((g) => g.currency === card.currency)
        .map((g) => ({
          goodsId: String(g.id),
          name: g.name,
          brandName: g.brandName,
          price: { amount: g.faceValue, currency: g.currency },
          topUpAccountType: g.topUpAccountType,
        })),
      total: page.total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  private async cardOf(customer: Customer, cardId: number) {
    const card = await equity.cardOf(this.deps.db, cardId);
    if (!card || card.customer_id !== customer.id) throw new AppError(CODE.NOT_FOUND, "onecard.cardUnknown");
    return card;
  }

  /** Pays for an equity with a card; the same request key returns the first order. */
  async recharge(
    customer: Customer,
    req: { cardId: string; goodsId: string; account: string; requestKey: string },
    lang: Lang,
  ): Promise<OcOrder> {
    const goods = await this.deps.purchasing.goods(Number(req.goodsId));
    if (!goods || !DIRECT.has(goods.businessType)) throw invalid("onecard.equityUnknown", "goodsId");
    // The account as the goods' type requires it (a mobile number, a QQ number, ...), before the card pays.
    const accountProblem = topUpAccountProblem(goods.topUpAccountType, req.account);
    if (accountProblem) throw invalid(accountProblem, "account");
    const created = await withTx(this.deps.db, async (tx) => {
      const first = await equity.orderByKey(tx, customer.id, req.requestKey);
      if (first) return { id: first.id, fresh: false };
      const card = await repo.lockCard(tx, Number(req.cardId));
      if (!card || card.customer_id !== customer.id) throw new AppError(CODE.NOT_FOUND, "onecard.cardUnknown");
      const product = await repo.productById(tx, card.product_id);
      if (!product?.recharge_allowed) throw conflict("onecard.rechargeNotAllowed");
      if (goods.currency !== card.currency) throw invalid("onecard.equityUnknown", "goodsId");
      const o = {
        id: await equity.insertOrder(tx, {
          customer_id: customer.id,
          card_id: card.id,
          brander_id: card.brander_id,
          goods_id: goods.id,
          equity: goods.name,
          account: req.account,
          amount: goods.faceValue,
          currency: card.currency,
          state: "processing",
          request_key: req.requestKey,
          created_at: this.deps.clock.now(),
        }),
      };
      await equity.setOrderNo(tx, o.id, orderNoOf(o.id));
      await this.deps.debit(tx, card.id, goods.faceValue, "redeem", `order:${o.id}`, goods.name);
      return { id: o.id, fresh: true };
    });
    if (created.fresh) await this.place(created.id);
    const [o] = (await this.orders(customer, { page: 1, pageSize: 1, id: created.id }, lang)).list;
    if (!o) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return o;
  }

  /**
   * Places the brand's purchase order for one of our orders and records what is known of its outcome.
   * A refusal (not docked, not enough SUP, goods off sale) fails our order and pays the card back; any
   * other error leaves it processing for the job to try again.
   */
  private async place(id: number): Promise<void> {
    const o = await equity.orderById(this.deps.db, id);
    if (o.state !== "processing" || o.brander_id === null || o.goods_id === null || o.order_no === null) return;
    try {
      const po = await this.deps.purchasing.place(o.brander_id, {
        goodsId: String(o.goods_id),
        quantity: 1,
        topUpAccount: o.account,
        orderNo: o.order_no,
      });
      await this.follow(id, po);
    } catch (err) {
      if (err instanceof AppError && err.code !== CODE.INTERNAL) {
        await this.fail(id, { key: err.messageKey, params: err.params });
      } else this.deps.log.warn({ err, orderId: id }, "equity order not placed; the follow-up job tries again");
    }
  }

  private async follow(id: number, po: PurchaseOrder): Promise<void> {
    if (po.state === "success") {
      await equity.markSucceeded(this.deps.db, id, this.deps.clock.now());
    } else if (po.state === "failure") {
      await this.fail(id, { reason: po.failReason ?? "" });
    }
  }

  /** Fails a processing order and pays the card back, once (the order row's state guards the refund). */
  private async fail(
    id: number,
    why: { key: string; params: Record<string, string | number> } | { reason: string },
  ): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      const o = await equity.lockOrder(tx, id);
      if (o.state !== "processing") return;
      const card = await repo.lockCard(tx, o.card_id);
      if (!card) return;
      const balance = card.balance + o.amount;
      await repo.setBalance(tx, card.id, balance);
      await repo.addMove(tx, {
        cardId: card.id,
        kind: "refund",
        amount: o.amount,
        balanceAfter: balance,
        requestKey: `order:${id}:refund`,
        note: o.equity,
        now: this.deps.clock.now(),
      });
      await equity.markFailed(tx, id, {
        now: this.deps.clock.now(),
        failKey: "key" in why ? why.key : null,
        failParams: "key" in why ? JSON.stringify(why.params) : null,
        failReason: "reason" in why ? why.reason : null,
      });
    });
  }

  /**
   * The follow-up (a job for all orders; a customer's list for theirs, so a result page shows the outcome
   * as soon as the supplier reports it): outcomes of orders still processing, and placements a crash
   * interrupted, placed again.
   */
  async followUp(customerId?: number, limit = 200): Promise<number> {
    const now = this.deps.clock.now().getTime();
    const open = await equity.openOrders(this.deps.db, customerId, limit);
    let settled = 0;
    for (const o of open) {
      if (o.brander_id === null || o.order_no === null) continue;
      const po = await this.deps.purchasing.find(o.brander_id, o.order_no);
      if (po) {
        if (po.state !== "processing") settled += 1;
        await this.follow(o.id, po);
      } else if (now - new Date(o.created_at).getTime() > PLACE_AGAIN_AFTER_MS) {
        await this.place(o.id);
      }
    }
    return settled;
  }

  async orders(
    customer: Customer,
    q: { page: number; pageSize: number; id?: number },
    lang: Lang,
  ): Promise<Page<OcOrder>> {
    await this.followUp(customer.id, 20);
    const { offset, limit } = pageWindow(q);
    const { rows, total } = await equity.orderPage(this.deps.db, customer.id, offset, limit, q.id);
    return {
      list: rows.map((o) => ({
        id: String(o.id),
        cardNo: maskNo(this.deps.keys.unseal(o.sealed).number),
        equity: o.equity,
        account: o.account,
        amount: { amount: o.amount, currency: o.currency },
        state: o.state,
        orderNo: o.order_no,
        failReason:
          o.fail_key !== null && isMessageKey(o.fail_key)
            ? renderMessage(o.fail_key, lang, o.fail_params ?? {})
            : o.fail_reason,
        createdAt: new Date(o.created_at).toISOString(),
        finishedAt: o.finished_at === null ? null : new Date(o.finished_at).toISOString(),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
